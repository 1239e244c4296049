"""The reproductions' scoreboard: saved results, their status, the terminal and Markdown forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from validation.study.engine.tables import WIDTH
from validation.study.reproduce import scoreboard
from validation.study.reproduce.common import Comparison


def _result(name: str = "maxq", runs: int = 30, version: str = "1.0") -> dict[str, object]:
    return scoreboard.result(name, [("a < b", True), ("b < c", False), ("c", None)], seed=0,
                             runs=runs, default_runs=30, version=version,
                             differences=["q: paper 61.80, ours 61.57, -0.6 SE"])  # fmt: skip


def test_result_counts_verdicts_as_computed() -> None:
    """Held, differ and undefined are counted from the claims' verdicts, nothing typed in."""
    res = _result()
    assert (res["held"], res["differs"], res["undefined"], res["total"]) == (1, 1, 1, 3)
    assert scoreboard.findings_lines(res)[0].startswith("claims held: 1 of 3 (1 differ, 1 undef")


@pytest.mark.parametrize("res, expected", [
    (None, "missing"),                                  # never run
    (_result(version="0.9"), "stale (planner 0.9)"),    # another planner version
    (_result(runs=3), "quick (3 of 30 runs)"),          # fewer runs than the default
    (_result(), "current"),
    (dict(_result(), options={"jobs": 300}), "quick (30 of 30 runs; jobs=300)"),  # smaller
])  # fmt: skip
def test_status(res: dict[str, object] | None, expected: str) -> None:
    """Each saved result is current, quick, stale or missing."""
    assert scoreboard.status(res, "1.0") == expected


def test_save_load_and_render_every_experiment(tmp_path: Path) -> None:
    """Saved results are read back; both forms list all experiments, missing ones marked."""
    scoreboard.save(_result(), tmp_path)
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")  # skipped, not fatal
    saved = scoreboard.load(tmp_path)
    assert list(saved) == ["maxq"]
    text = scoreboard.text(saved, "1.0", str(tmp_path))
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert "claims held 1 of 3" in text and text.count("missing") >= 10
    md = scoreboard.markdown(saved, "1.0")
    for name in scoreboard.experiments():
        assert f"[`{name}`]" in md
    assert "| 1 / 3 | 1 | 30 (30) |" in md and "not run" in md


def test_comparison_findings_prefer_standard_errors() -> None:
    """A Comparison's findings count its orderings and rank differences by standard errors
    where it has a sampling table, else by relative difference."""
    from validation.study.reproduce.common import SAMPLING_HEAD

    cmp = Comparison("x", "t", "s", 4, 4)
    cmp.add("g", "q", "a", 10.0, 15.0)
    cmp.add("g", "r", "a", 100.0, 101.0)
    cmp.check("holds", lambda: True)
    cmp.check("differs", lambda: False)
    assert cmp.findings()[0] == "claims held: 1 of 2 (1 differ)"
    assert cmp.differences(1) == ["g q a: paper 10.00, ours 15.00 (33% of the larger; no "
                                  "standard error measured)"]  # fmt: skip
    cmp.table("sampling", SAMPLING_HEAD, [["Q", 61.8, 61.0, 0.2, -4.0, "beyond 2 SE"],
                                          ["R", 5.0, 5.1, 0.1, 1.0, "within 2 SE"]])  # fmt: skip
    assert cmp.differences(1) == ["Q: paper 61.80, ours 61.00 ± 0.20 (standard error), -4.0 SE"]
    assert cmp.render().splitlines()[3:5] == ["findings:", "  - claims held: 1 of 2 (1 differ)"]


def test_egedf_findings_count_its_verdicts() -> None:
    """EG-EDF's findings count its claims and list the ones that differ with their numbers."""
    from validation.study.reproduce import egedf

    o = egedf.Outcome(jobs=10, repetitions=1, means={}, seconds=0.0,
                      verdicts=[("a", True, "1 < 2"), ("b", False, "3 > 2"),
                                ("c", True, "x")])  # fmt: skip
    lines = egedf.findings(o)
    assert lines[0].startswith("claims held: 2 of 3 (1 differ)")
    assert lines[1:] == ["differs: b (3 > 2)"]


def test_cli_refuses_results_under_a_file(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """--results under a file: exit 2 with one line, before the experiment runs."""
    from planner.cli import main

    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["study", "reproduce", "bsf", "--results", str(tmp_path / "file" / "d")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a directory" in err
