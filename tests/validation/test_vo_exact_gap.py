"""The exact baselines of the VO-flow reproductions report optimal or "within x % (bound b)"
(Toporkov et al. 2015's batches), at the small size and at the paper's 20 jobs on 24 nodes."""

from __future__ import annotations

import pytest

from planner.cli import main
from validation.study.reproduce import REPRODUCTIONS
from validation.study.reproduce.vo_common import Tally
from validation.study.reproduce.vo_exact import ExactOptions, exact_summary, exact_tally


def _policies() -> list:
    from planner.vo import CSS, BatchSlicer

    return [("k=1", BatchSlicer(1)), ("css", CSS("amp"))]


def test_small_cycles_are_proven_with_zero_exact_gap() -> None:
    """Small cycles are proven: exact gap 0, and the gap to the bound equals the gap."""
    x = exact_tally(0, 2, seed=0, policies=_policies())
    assert x.mean("exact", "unproven") == 0.0
    assert x.mean("exact", "exact gap") == 0.0
    for label in ("k=1", "css"):
        if x.count(label, "gap"):
            assert x.mean(label, "gap_bound") == pytest.approx(x.mean(label, "gap"))
    assert exact_summary(x).startswith("exact baseline: 2 of 2 cycles optimal")


def test_paper_size_cycle_has_a_bound_below_every_policy() -> None:
    """A 20-job, 24-node cycle under a 2 s limit: a proven bound, no policy below it, and the
    summary says optimal or within x %."""
    x = exact_tally(0, 1, seed=0, policies=_policies(),
                    exact=ExactOptions(size="paper", time_limit=2.0))  # fmt: skip
    assert x.count("exact", "unproven") == 1
    if x.count("exact", "bound"):
        assert 0.0 <= x.mean("exact", "exact gap") < 1.0
        for label in ("k=1", "css"):
            assert x.count(label, "gap_bound") == 0 or x.mean(label, "gap_bound") >= -1e-9
    text = exact_summary(x)
    assert ("1 of 1 cycles optimal" in text or "the others within" in text
            or "1 without a proven bound" in text)  # fmt: skip


def test_summary_of_an_open_cycle() -> None:
    """One unproven cycle at 4 % reads 'within 4.0 %' with its bound."""
    x = Tally()
    for key, v in ((("exact", "unproven"), 1.0), (("exact", "open gap"), 0.04),
                   (("exact", "open bound"), 960.0)):  # fmt: skip
        x.add(key, v)
    assert exact_summary(x).startswith("exact baseline: 0 of 1 cycles optimal; the others "
                                       "within 4.0 % on average (mean bound 960.0)")  # fmt: skip


def test_bsf_has_an_exact_baseline() -> None:
    """``bsf`` now carries the exact rows (gap vs optimum and vs bound per share)."""
    cmp = REPRODUCTIONS["bsf"].run(seed=0, runs=1, exact_runs=1)
    groups = {(g, q) for g, q, *_ in cmp.rows}
    assert ("exact (6 jobs, 12 nodes)", "gap vs bound") in groups
    assert any(n.startswith("exact (6 jobs, 12 nodes), solver cpsat") for n in cmp.notes)


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"size": "huge"}, "exact size must be one of small, paper"),   # not a batch size
    ({"solver": "glpk"}, "exact solver must be one of cpsat"),      # not a joint solver
    ({"runs": -1}, "exact runs must be >= 0"),                      # negative count
])  # fmt: skip
def test_bad_exact_options(kwargs: dict, fragment: str) -> None:
    """Bad exact-baseline options are one ValueError line."""
    with pytest.raises(ValueError, match=fragment):
        ExactOptions(**kwargs)


@pytest.mark.parametrize(("argv", "fragment"), [
    (["maxq", "--exact-size", "paper"], "--exact-size applies to 'slicer'"),  # no exact baseline
    (["bsf", "--exact-solver", "glpk"], "--exact-solver must be one of cpsat"),  # unknown solver
])  # fmt: skip
def test_cli_refuses_bad_exact_flags(argv: list, fragment: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """A misplaced or unknown exact option exits 2 with one line."""
    assert main(["study", "reproduce", *argv]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_cli_runs_the_exact_baseline_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    """``--exact-runs 1 --exact-size small --exact-solver cpsat`` prints the baseline's note."""
    assert main(["study", "reproduce", "bsf", "--runs", "1", "--exact-runs", "1",
                 "--exact-size", "small", "--exact-solver", "cpsat"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "exact (6 jobs, 12 nodes), solver cpsat, 60 s per cycle: exact baseline: 1 of 1" in out
