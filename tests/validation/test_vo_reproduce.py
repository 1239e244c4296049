"""The VO-flow reproductions of seed 003 §6.2–§6.4: tiny runs, data, executors, exact baseline."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import main
from validation.study.reproduce import REPRODUCTIONS
from validation.study.reproduce.common import reference
from validation.study.reproduce.vo_common import Tally, affordable

VO = ("css-criteria", "slicer", "pricing")


def test_registered_with_5000_cycles_by_default() -> None:
    """The three experiments are registered after the earlier ones, 5,000 cycles each."""
    assert [n for n in REPRODUCTIONS if n in VO] == list(VO)
    assert all(REPRODUCTIONS[n].default_runs == 5000 for n in VO)


def test_css_criteria_tiny_run() -> None:
    """Two cycles: every Table 1 cell of the paper is printed beside ours; every claim judged."""
    cmp = REPRODUCTIONS["css-criteria"].run(seed=0, runs=2)
    paper = reference("css-criteria")["paper"]
    rows = {(g, q, a): (p, o) for g, q, a, p, o, _ in cmp.rows}
    for crit in ("min_start", "min_runtime", "min_finish", "min_cost"):
        for m in ("alternatives", "start", "runtime", "finish", "cost"):
            p, o = rows[(crit, m, "slicer k=1")]
            assert p == paper[crit][m]["value"] and o is not None
    assert rows[("css", "cost", "css")][0] == 1248.4
    assert len(cmp.orderings) == 13 and all(ok is not None for _, ok in cmp.orderings)


@pytest.mark.slow
def test_slicer_tiny_run_has_levels_and_exact_gaps() -> None:
    """One cycle per level and one exact cycle: Y per level, gap rows against the optimum."""
    cmp = REPRODUCTIONS["slicer"].run(seed=0, runs=1, exact_runs=1)
    groups = {g for g, *_ in cmp.rows}
    assert {"low", "medium", "high"} <= groups
    exact = [r for r in cmp.rows if r[0].startswith("exact") and r[1] == "T_batch"]
    assert exact and all(r[5] is not None and r[4] >= r[5] for r in exact)


def test_pricing_tiny_run() -> None:
    """Two cycles: L, U, P and Y for each price, beside Table 2."""
    cmp = REPRODUCTIONS["pricing"].run(seed=0, runs=2)
    rows = {(g, q): (p, o) for g, q, _, p, o, _ in cmp.rows}
    assert rows[("c = 6", "P")][0] == 1112.3
    for c in (2, 4, 6, 8, 10):
        o = rows[(f"c = {c}", "U")][1]
        load = rows[(f"c = {c}", "L")][1]
        assert o == pytest.approx(load / 600)


@pytest.mark.slow
def test_workers_do_not_change_the_result(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Two local worker processes print the same text as the in-process run."""
    monkeypatch.chdir(tmp_path)
    argv = ["study", "reproduce", "css-criteria", "--cycles", "30"]
    assert main(argv) == 0
    serial = capsys.readouterr().out
    assert main([*argv, "--workers", "2"]) == 0
    assert capsys.readouterr().out == serial


def test_executor_options_rejected_for_in_process_experiments(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--workers on an experiment that runs in-process only: exit 2, one line naming the
    experiments that take it."""
    assert main(["study", "reproduce", "maxq", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers applies to 'css-criteria'" in err
    assert "'maxq'" not in err


def test_tally_merges_sums_and_counts() -> None:
    """Tally: means over merged parts equal the mean over all values; None is skipped."""
    a, b = Tally(), Tally()
    for v in (1.0, 2.0, None):
        a.add(("x",), v)
    b.add(("x",), 6.0)
    a.merge(b)
    assert a.mean("x") == 3.0 and a.count("x") == 3 and a.mean("y") is None


def test_affordable_jobs() -> None:
    """A job is affordable when its n cheapest tasks fit its budget (time ignored)."""
    from instances import Instance, Job, Node, Slot

    nodes = (Node("a", 2.0, price=1.0), Node("b", 1.0, price=1.0))
    jobs = (
        Job("fits", 2, 10.0, budget=15),  # 5 on a + 10 on b = 15
        Job("short", 2, 10.0, budget=14),  # one money unit short
        Job("one", 1, 10.0, budget=5),  # the cheaper node alone
    )
    inst = Instance(nodes=nodes, jobs=jobs, slots=(Slot("a", 0, 1), Slot("b", 0, 1)))
    assert affordable(inst) == {"fits", "one"}
