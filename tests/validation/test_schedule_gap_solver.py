"""``planner study schedule-gap --solver``: the decomposition's rows and the gap text."""

from __future__ import annotations

import pytest

from planner.cli import main
from validation.study import StudyError
from validation.study.schedule_gap import ScheduleGapSpec, run_snapshot
from validation.study.schedule_gap.report import beats
from validation.study.schedule_gap.task import gap_text


def test_cg_rows_are_checked_and_bounded() -> None:
    """With ``cg`` a 12-job snapshot on 3 machines gets checked rows whose values respect
    their bounds, and no replay beats them."""
    spec = ScheduleGapSpec(snapshots=1, jobs=12, machines=3, time_limit=10.0, solver="cg")
    rows = run_snapshot(spec.tasks()[0])["rows"]
    for r in rows:
        assert r["optimum_violations"] == 0 and r["violations"] == 0, r["first_violation"]
        assert r["delayed_bound"] <= r["opt_delayed"] <= r["delayed"]
        assert r["makespan_bound"] <= r["opt_makespan"]
        assert not beats(r)


ROW = {"status": "feasible", "opt_delayed": 2, "delayed_bound": 2, "opt_makespan": 1000,
       "makespan_bound": 950}  # fmt: skip


@pytest.mark.parametrize(("change", "text"), [
    ({"status": "optimal"}, "optimal"),                              # proven
    ({}, "within 5.0 % (bound 950)"),                                # U proven, makespan open
    ({"delayed_bound": 1}, "within 50.0 % (bound 1 delayed)"),       # U itself open
    ({"makespan_bound": None}, "feasible (no makespan bound)"),      # cpsat without stage 1
    ({"status": "unknown", "opt_delayed": None}, "unknown"),         # nothing found
])  # fmt: skip
def test_gap_text(change: dict, text: str) -> None:
    """A row reads optimal, or within x % of the first criterion not proven."""
    assert gap_text({**ROW, **change}) == text


def test_unknown_solver_is_a_study_error() -> None:
    """An unknown solver is one StudyError line naming the choices."""
    with pytest.raises(StudyError, match=r"unknown solver 'simplex'.*choose from: cpsat"):
        ScheduleGapSpec(solver="simplex")


def test_cli_rejects_an_unknown_solver(capsys: pytest.CaptureFixture[str]) -> None:
    """``--solver`` outside the registry exits 2 naming the choices."""
    assert main(["study", "schedule-gap", "--solver", "simplex"]) == 2
    assert "invalid choice: 'simplex'" in capsys.readouterr().err
