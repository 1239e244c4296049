"""Hostile but well-formed input: representable ranges, odd files, odd text (issue 15 items 4, 9).

Every case must give exit 2 and exactly one stderr line naming the file, the
JSON path and the rule (never a traceback, never exit 1), or run cleanly.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from instances import Instance, Job, LimitError, Node, Slot
from models import solve_window
from planner.cli import main

BASE: dict[str, Any] = {
    "format": "planner.instance/1",
    "name": "hostile",
    "nodes": [
        {"id": "a", "performance": 1.0, "price": 1.0, "q": 1.0},
        {"id": "b", "performance": 2.0, "price": 2.0, "q": 2.0},
    ],
    "slots": [{"node": "a", "start": 0, "end": 20}, {"node": "b", "start": 0, "end": 20}],
    "jobs": [{"id": "j", "nodes": 2, "volume": 10.0, "budget": 40, "criterion": "max_q"}],
}


def _write(tmp_path: Path, text: str, name: str = "inst.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return str(path)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_exit_2(code: int, err: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err


def _with(path: str, value: Any) -> dict[str, Any]:
    """Return BASE with the value at ``path`` (e.g. "jobs.0.budget") replaced."""
    doc = json.loads(json.dumps(BASE))
    *head, last = path.split(".")
    target: Any = doc
    for key in head:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    return doc


OUT_OF_RANGE = [
    # performance 1e-308 would make ceil(V / p) overflow
    ("nodes.0.performance", 1e-308, "nodes[0].performance", ">= 10^-3 and <= 10^6"),
    ("nodes.0.performance", 1e7, "nodes[0].performance", ">= 10^-3 and <= 10^6"),  # above the range
    ("nodes.0.price", 1e308, "nodes[0].price", ">= 0 and <= 10^3"),  # cost overflow
    ("slots.0.price", 1e4, "slots[0].price", ">= 0 and <= 10^3"),  # slot price override
    ("jobs.0.max_price", 1e308, "jobs[0].max_price", ">= 0 and <= 10^3"),  # derived budget overflow
    ("jobs.0.volume", 1e308, "jobs[0].volume", "> 0 and <= 10^9"),  # duration overflow
    ("jobs.0.budget", 10**30, "jobs[0].budget", ">= 0 and <= 10^15"),  # beyond int64
    ("jobs.0.budget", 2**63, "jobs[0].budget", ">= 0 and <= 10^15"),  # int64 + 1
    ("nodes.0.q", 1e308, "nodes[0].q", ">= -10^15 and <= 10^15"),  # sums overflow to inf
    ("slots.0.end", 2**62, "slots[0].end", ">= -10^12 and <= 10^12"),  # CP-SAT domain overflow
    ("slots.0.start", -(2**64), "slots[0].start", ">= -10^12 and <= 10^12"),  # beyond int64
    ("jobs.0.deadline", 2**63, "jobs[0].deadline", ">= -10^12 and <= 10^12"),  # beyond int64
    ("jobs.0.nodes", 10**4, "jobs[0].nodes", ">= 1 and <= 10^3"),  # window sums beyond 2^62
    ("jobs.0.priority", 1e300, "jobs[0].priority", ">= -10^15 and <= 10^15"),  # carried number
    ("horizon", [0, 2**62], "horizon", ">= -10^12 and <= 10^12"),  # horizon edge
]


@pytest.mark.parametrize(("where", "value", "path", "rng"), OUT_OF_RANGE)
def test_out_of_range_numbers_are_rejected_with_their_range(
    where: str, value: Any, path: str, rng: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """``validate`` rejects each value outside its representable range, stating the range."""
    file = _write(tmp_path, json.dumps(_with(where, value)))
    code, _, err = _run(["validate", file], capsys)
    _one_line_exit_2(code, err)
    assert err.startswith(f"{file}: {path}: ") and rng in err


def test_the_python_api_enforces_the_same_ranges() -> None:
    """The data classes apply the limits too, not only files."""
    with pytest.raises(ValueError, match=r">= 0 and <= 10\^15"):
        Job("j", nodes=1, volume=1.0, budget=2**63)
    with pytest.raises(ValueError, match=r">= -10\^12 and <= 10\^12"):
        Slot("a", 0, 2**62)


def test_extreme_but_representable_numbers_solve(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Values at the edges of the ranges pass validate, solve and exact without an error."""
    doc = json.loads(json.dumps(BASE))
    doc["nodes"][0].update(performance=1e-3, price=1e3, q=1e15)
    doc["nodes"][1].update(performance=1e6, price=0.0, q=-1e15)
    doc["slots"] = [
        {"node": "a", "start": -(10**12), "end": 10**12},
        {"node": "b", "start": -(10**12), "end": 10**12},
    ]
    doc["jobs"][0].update(volume=1e9, budget=10**15, deadline=10**12)
    file = _write(tmp_path, json.dumps(doc))
    assert _run(["validate", file], capsys)[0] == 0
    assert _run(["solve", file, "--algorithm", "amp"], capsys)[0] == 0
    for solver in ("cpsat", "dp"):
        code, out, err = _run(["exact", file, "--solver", solver, "--json"], capsys)
        assert code == 0, err
        assert json.loads(out)["status"] == "optimal"


def test_lone_surrogate_in_a_job_id_is_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """An escaped lone surrogate is no Unicode text: rejected by validate, one escaped line."""
    text = json.dumps(BASE).replace('"id": "j"', '"id": "j\\ud800"')
    file = _write(tmp_path, text)
    code, _, err = _run(["validate", file], capsys)
    _one_line_exit_2(code, err)
    assert "jobs[0].id" in err and "surrogate" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_refused_without_blocking(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A FIFO without a writer would block a plain read: refused as not a regular file."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, _, err = _run(["validate", str(fifo)], capsys)
    _one_line_exit_2(code, err)
    assert "is not a regular file" in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_device_is_refused(capsys: pytest.CaptureFixture) -> None:
    """/dev/zero never ends: refused as not a regular file, at once."""
    code, _, err = _run(["exact", "/dev/zero"], capsys)
    _one_line_exit_2(code, err)
    assert err.startswith("/dev/zero: is not a regular file")


def test_newline_in_a_json_key_and_a_file_name_stays_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Control characters in keys and file names are escaped in the one-line message."""
    doc = json.loads(json.dumps(BASE))
    doc["nodes"][0]["bad\nkey"] = 1
    file = _write(tmp_path, json.dumps(doc), name="odd\nname.json")
    code, _, err = _run(["validate", file], capsys)
    _one_line_exit_2(code, err)
    assert "odd\\nname.json" in err and "bad\\nkey" in err


@pytest.mark.parametrize(
    "key",
    ["name", "horizon", "geometry", "jobs"],  # top-level optional keys
)
def test_null_optional_top_level_key_means_default(
    key: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """``null`` for any optional key is the default, as for ``"deadline": null`` in a job."""
    doc = json.loads(json.dumps(BASE))
    doc[key] = None
    file = _write(tmp_path, json.dumps(doc))
    code, _, err = _run(["validate", file], capsys)
    assert code == 0, err


def test_null_required_key_is_still_rejected(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """A required key may not be null."""
    file = _write(tmp_path, json.dumps(_with("nodes.0.performance", None)))
    code, _, err = _run(["validate", file], capsys)
    _one_line_exit_2(code, err)
    assert "nodes[0].performance: is required and must not be null" in err


def _dp_heavy() -> Instance:
    """1000 slots, 500 per window; the best q are the dearest, so the budget binds."""
    nodes = tuple(Node(f"n{i}", 1.0, price=1.0 + i / 100, q=float(i)) for i in range(1000))
    slots = tuple(Slot(nd.id, 0, 10) for nd in nodes)
    return Instance(nodes, slots, (Job("j", nodes=500, volume=10.0, budget=20_000),))


def test_dp_memory_cap_is_a_limit_error() -> None:
    """The DP's table cap raises LimitError naming the limit and the other solvers."""
    with pytest.raises(LimitError, match=r"above its limit of 400,000,000.*cpsat or milp"):
        solve_window(_dp_heavy(), "j", "max_q", "dp")


def test_dp_memory_cap_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """On the command line the DP's cap is one line and exit 2, not an internal error."""
    from instances import write_instance

    file = str(tmp_path / "heavy.json")
    write_instance(_dp_heavy(), file)
    code, _, err = _run(["exact", file, "--solver", "dp", "--criterion", "max_q"], capsys)
    _one_line_exit_2(code, err)
    assert "limit" in err and "internal error" not in err


@pytest.mark.parametrize(
    "args",
    [
        ["--joint", "--time-limit", "1e16"],  # overflowed the solvers' int64 milliseconds
        ["--t-star", str(2**63)],  # past CP-SAT's 64-bit sums
        ["--joint", "--b-star", str(2**62 + 1), "--problem", "7"],
    ],
)
def test_huge_limits_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture, args: list) -> None:
    """A time limit past 10^9 s or t*/b* past 2^62: one line naming the flag, exit 2."""
    from instances import generate, write_instance

    file = str(tmp_path / "tiny.json")
    write_instance(generate("tiny", 3), file)
    argv = ["combine", file, *(["--problem", "8"] if "--problem" not in args else []), *args]
    code, _, err = _run(argv, capsys)
    _one_line_exit_2(code, err)
    assert ("--time-limit" in err or "-star" in err) and "internal error" not in err


def test_a_dp_step_cap_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The combination DP's step cap on the command line: one line, exit 2."""
    from instances import generate, write_instance
    from models.combination import dp

    monkeypatch.setattr(dp, "MAX_STEPS", 1)
    monkeypatch.setattr(dp, "TABLE_CELLS", 0)
    file = str(tmp_path / "css.json")
    write_instance(generate("css2015", 1), file)
    code, _, err = _run(["combine", file, "--problem", "8"], capsys)
    _one_line_exit_2(code, err)
    assert "limit" in err and "internal error" not in err
