"""Tests of models.joint.cg.close: the enumeration close of the cg solver — what it concludes
from each outcome of the set packing (a fake SCIP), and on tiny batches that it proves the
brute-force optimum, with every better solution listed or level by level."""

from __future__ import annotations

import os

import pytest

from instances import generate
from models.joint.cg import close as cg_close
from models.joint.cg import solve as cg_solve
from models.joint.cg.column import Column, Linear
from models.joint.cg.enumeration import windows_below
from models.joint.cg.generate import Generation
from models.joint.cg.packing import Packing, available
from models.joint.cg.pricing import Prices
from models.joint.space import JobSpace
from models.progress import SearchProgress
from tests.joint_batch import closed_gap_cases, no_search, solve_gap_case
from validation import check_alternatives

pytestmark = pytest.mark.skipif(not available(), reason="this OR-Tools build has no SCIP")


def fake(monkeypatch: pytest.MonkeyPatch, packing: Packing) -> None:
    """Make the cg solver's set packing return ``packing``."""
    monkeypatch.setattr(cg_close, "solve_packing", lambda *a, **k: packing)


def close(
    columns: list[Column], best: int, low: int, escape: int | None = None,
    sides: list[tuple[str, int]] | None = None,
) -> tuple[int, int, str | None]:
    """Run the enumeration close on one job's listing; return (best, bound, closed_by)."""
    stats: dict = {"closed_by": None}
    inst = generate("tiny", 900, jobs=1)
    closing = cg_close.Closing([JobSpace(inst, inst.jobs[0])] * 2, Generation(0.0, 0.0, 0, True),
                                "cost", 1, sides or [], 1, True, 0, stats,
                                SearchProgress("test", enabled=False))
    _, value, bound = cg_close.pack(closing, (columns, []), columns[:1], best, low, escape, None)
    return value, bound, stats["closed_by"]


def two_columns() -> list[Column]:
    """Return two windows of one tiny job, the first the dearer."""
    inst = generate("tiny", 900, jobs=1)
    sp = JobSpace(inst, inst.jobs[0])
    found = sorted(windows_below(sp, Linear(), Prices({}), 0.0), key=lambda w: -Column.build(
        0, sp, w[1], w[2]).cost)
    cols = [Column.build(0, sp, T, chosen) for _, T, chosen in found]
    assert cols[0].cost > cols[-1].cost
    return [cols[0], cols[-1]]


def test_an_optimal_packing_proves_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """SCIP's integer bound reaches its better window's value: that value is proven."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [cheap], cheap.cost, cheap.cost))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (cheap.cost, cheap.cost,
                                                               "enumeration")


def test_the_proof_is_the_integer_bound_not_scips_status(monkeypatch: pytest.MonkeyPatch) -> None:
    """SCIP "optimal" with its bound a unit below its solution (a gap stop, as at its default
    relative gap of 10⁻⁴): the solution is kept, nothing is proven; "feasible" with its
    bound at the solution: proven."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [cheap], cheap.cost, cheap.cost - 1))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (cheap.cost, cheap.cost - 1, None)
    fake(monkeypatch, Packing("feasible", [cheap], cheap.cost, cheap.cost))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (cheap.cost, cheap.cost,
                                                               "enumeration")


def test_a_stopped_packing_gives_its_bound_capped_by_the_incumbent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SCIP stopped at its limit: its bound (never above the incumbent) replaces a weaker
    one; a bound at or past the incumbent proves it."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("feasible", [dear], dear.cost, dear.cost - 2))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost - 2, None)
    fake(monkeypatch, Packing("feasible", [dear], dear.cost, dear.cost + 7))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost,
                                                               "enumeration")


def test_an_optimum_at_the_escape_window_proves_its_value(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A listing of the solutions worth at most 10 below the incumbent whose optimum is the
    escape window (worth 11 below): that bound is proven, not the incumbent."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [], dear.cost - 9, dear.cost - 9, escaped=True))
    assert close([cheap], dear.cost, dear.cost - 100, dear.cost - 9) == (
        dear.cost, dear.cost - 9, None)
    fake(monkeypatch, Packing("feasible", [], dear.cost - 9, dear.cost - 30, escaped=True))
    assert close([cheap], dear.cost, dear.cost - 100, dear.cost - 9) == (
        dear.cost, dear.cost - 30, None)


def test_a_packing_over_a_side_limit_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """SCIP's feasibility tolerance is relative (10⁻⁶ of 10¹⁵ is 10⁹ units): a packing a unit
    over the VO budget, claimed optimal with its bound, is neither kept nor proves anything."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [cheap], cheap.cost, cheap.cost))
    assert close([dear, cheap], dear.cost, dear.cost - 100, sides=[("cost", cheap.cost - 1)]) == (
        dear.cost, dear.cost - 100, None)


@pytest.mark.parametrize(
    "packing",
    [
        Packing("unknown"),  # stopped before anything was found
        Packing("infeasible"),  # cannot happen with the incumbent listed: claims nothing
    ],
)
def test_a_packing_without_solution_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, packing: Packing
) -> None:
    """No solution from SCIP: the incumbent and the bound stay as they were."""
    dear, cheap = two_columns()
    fake(monkeypatch, packing)
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost - 100, None)


def test_a_packing_that_breaks_the_rows_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two windows of one job (never a packing) claimed optimal: ignored, nothing proven."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [dear, cheap], 0, 0))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost - 100, None)


def quick(monkeypatch: pytest.MonkeyPatch, levels: bool = False) -> None:
    """No search and no integer master after the root, so the close starts from the first
    incumbent; with ``levels``, no listing of every better solution and levels listed from
    10 windows on."""
    no_search(monkeypatch)
    if levels:
        monkeypatch.setattr(cg_close, "LISTING_LIMIT", 0)
        monkeypatch.setattr(cg_solve, "EARLY_LIMIT", 0)
        monkeypatch.setattr(cg_close, "LEVEL_LIMIT", 10)


QUICK = [seed for seed in range(int(os.environ.get("PLANNER_ENUM_CASES", "40"))) if seed != 25]
"""Gap cases in the suite, less seed 25 (its brute force takes about 8 s);
``PLANNER_ENUM_CASES=400`` for a longer run."""


@pytest.mark.parametrize("levels", [False, True])
@pytest.mark.parametrize("seed", QUICK)
def test_the_enumeration_close_proves_the_brute_force_optimum(
    seed: int, levels: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4-job batches, closed by listing every window of a better solution, or level by level
    and then branch-and-price: every result is the brute-force optimum, proven, and its
    windows pass the joint checker."""
    quick(monkeypatch, levels)
    r, placed, best, inst = solve_gap_case(seed)
    assert r.status == "optimal"
    assert (len(r.info["placed"]), r.objective) == (placed, best)
    assert check_alternatives(inst, r.windows, sequential=False) == []


@pytest.mark.parametrize("levels", [False, True])
def test_the_enumeration_close_is_taken(levels: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On two batches whose root bound the first incumbent misses, the set packing closes the
    gap: over every better solution's windows, or below a level (escape window above it)."""
    quick(monkeypatch, levels)
    for seed in (1, 2):
        r, _, _, _ = solve_gap_case(seed)
        assert r.info["cg"]["closed_by"] == "enumeration"
        assert ("level" in r.info["cg"] and r.info["cg"]["level"] is not None) is levels


def test_past_the_listing_limit_branch_and_price_closes_the_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Listing limits of zero windows: branch-and-price closes the gap instead, exactly."""
    for module, name in ((cg_close, "LISTING_LIMIT"), (cg_solve, "EARLY_LIMIT"),
                         (cg_close, "LEVEL_LIMIT")):
        monkeypatch.setattr(module, name, 0)
    no_search(monkeypatch)
    kinds = closed_gap_cases(range(20))
    assert "enumeration" not in kinds and "branch-and-price" in kinds
