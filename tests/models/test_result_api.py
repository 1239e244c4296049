"""``Result.gap``/``is_optimal``/``to_dict``, no py.typed yet, and the default time limit."""

from __future__ import annotations

import inspect
import io
import json
from pathlib import Path

import pytest

from instances import generate
from models import Result, solve_combination, solve_joint, solve_window
from models.progress import DEFAULT_TIME_LIMIT


@pytest.mark.parametrize(
    ("status", "objective", "bound", "gap"),
    [
        ("optimal", 10.0, 10.0, 0.0),  # proven: no gap
        ("feasible", 10.0, 8.0, 0.2),  # min problem, bound below
        ("feasible", 8.0, 10.0, 0.25),  # max problem, bound above
        ("feasible", 0.0, 0.5, 0.5),  # objective 0: the denominator is floored at 1
        ("feasible", 10.0, None, None),  # no bound: no gap
        ("unknown", None, None, None),  # nothing found
    ],
)
def test_gap(status: str, objective: float | None, bound: float | None, gap: float | None) -> None:
    """The gap is |objective − bound| / max(|objective|, 1), 0 when proven, None without data."""
    r = Result(status, objective, bound, 0.1, "cpsat")  # type: ignore[arg-type]
    assert r.gap == (pytest.approx(gap) if gap is not None else None)
    assert r.is_optimal is (status == "optimal")


@pytest.mark.parametrize(
    ("status", "objective", "bound", "text"),
    [
        ("optimal", 10.0, 10.0, "optimal"),  # proven
        ("feasible", 8150.0, 8025.0, "within 1.53 % (bound 8025)"),  # min problem, bound below
        ("feasible", 8.0, 10.0, "within 25.00 % (bound 10)"),  # max problem, bound above
        ("feasible", 10.0, None, "no proven bound"),  # nothing proven
        ("infeasible", None, None, "infeasible"),  # proven: no solution exists
    ],
)
def test_proof_text(status: str, objective: float | None, bound: float | None, text: str) -> None:
    """``Result.proof`` says optimal, or the gap in percent with the bound, or what is known."""
    assert Result(status, objective, bound, 0.1, "cg").proof == text  # type: ignore[arg-type]


def test_to_dict_is_json() -> None:
    """``to_dict`` holds the fields and the window objects, and is JSON-serialisable."""
    inst = generate("tiny", 0)
    r = solve_window(inst, inst.jobs[0].id, "min_cost")
    d = r.to_dict()
    assert set(d) == {"status", "objective", "bound", "gap", "runtime", "solver", "windows",
                      "info"}  # fmt: skip
    assert d["status"] == r.status and d["gap"] == r.gap
    assert d["windows"] == [{"job": w.job, **w.to_dict()} for w in r.windows]
    assert json.loads(json.dumps(d)) == d


def test_py_typed_is_not_claimed() -> None:
    """No package ships ``py.typed`` while mypy still reports errors on the packages
    (docs/api.md): the marker would ask users' type checkers to trust unchecked hints."""
    root = Path(__file__).resolve().parents[2]
    for pkg in ("planner", "models", "instances", "validation"):
        assert not (root / pkg / "py.typed").exists()
    assert "py.typed" not in (root / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("fn", [solve_window, solve_combination, solve_joint])
def test_every_exact_solve_has_a_default_limit(fn) -> None:
    """The façades stop after DEFAULT_TIME_LIMIT seconds unless told otherwise."""
    assert inspect.signature(fn).parameters["time_limit"].default == DEFAULT_TIME_LIMIT == 60.0


def test_joint_progress_reports_incumbent_and_bound(monkeypatch) -> None:
    """With progress on, the compact model's solve draws one line from its start: elapsed
    time, incumbent and bound (CP-SAT's callbacks), ended once."""
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    inst = generate("tiny", 1, jobs=3)
    r = solve_joint(inst, "cost", progress=True)
    lines = [x for x in stream.getvalue().replace("\r", "\n").splitlines() if x.strip()]
    assert r.status == "optimal"
    assert lines and all(x.startswith("joint ") for x in lines)  # "joint" while loading
    assert lines[-1].startswith("joint (cpsat) ")
    assert f"best {r.objective:g}" in lines[-1] and f"bound {r.bound:g}" in lines[-1]
    assert stream.getvalue().count("\n") == 1


def test_cg_progress_reports_stage_rounds_incumbent_and_bound(monkeypatch) -> None:
    """The cg solver's line, with progress on, names its stage, pricing rounds, incumbent,
    bound and gap; its last rendering shows the proven optimum (gap 0)."""
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    inst = generate("tiny", 1, jobs=3)
    r = solve_joint(inst, "cost", "cg", progress=True)
    lines = [x for x in stream.getvalue().replace("\r", "\n").splitlines() if x.strip()]
    assert r.status == "optimal"
    assert lines and all(x.startswith("joint ") for x in lines)
    assert lines[-1].startswith("joint (cg) ")
    last = lines[-1]
    assert "optimal" in last and "rounds" in last and f"best {r.objective:g}" in last
    assert f"bound {r.bound:g}" in last and "gap 0.00%" in last


def test_search_progress_refuses_an_unknown_field() -> None:
    """A misspelt field is an error, not a silently ignored update."""
    from models.progress import SearchProgress

    track = SearchProgress("x", enabled=False)
    track.update(stage="root LP", rounds=3)
    assert "root LP" in track.line() and "rounds 3" in track.line()
    with pytest.raises(ValueError, match="no field 'round'"):
        track.update(round=4)


def test_joint_progress_off_when_not_interactive(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal (as under pytest) nothing is written to stderr."""
    inst = generate("tiny", 1, jobs=3)
    solve_joint(inst, "cost")
    assert capsys.readouterr().err == ""


def test_joint_stops_at_a_short_limit() -> None:
    """A 20-job css2015 batch under a 1 s limit never claims optimal."""
    inst = generate("css2015", 1)
    r = solve_joint(inst, problem=8, time_limit=1.0)
    assert r.status in ("feasible", "unknown")
