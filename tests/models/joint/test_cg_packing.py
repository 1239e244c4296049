"""The set-packing problem over listed windows (SCIP) against brute force, and how the ``cg``
solver's enumeration close reads its answers."""

from __future__ import annotations

import dataclasses
import os

import pytest

from instances import Instance, generate
from models.joint.cg import solve as cg_solve
from models.joint.cg.column import Column, Linear
from models.joint.cg.enumeration import windows_below
from models.joint.cg.generate import Generation
from models.joint.cg.packing import Packing, available, solve_packing
from models.joint.cg.pricing import Prices
from models.joint.space import JobSpace
from models.progress import SearchProgress
from planner import make_window
from tests.joint_batch import solve_gap_case
from validation import check_alternatives
from validation.joint_brute import all_windows, brute_joint, value

pytestmark = pytest.mark.skipif(not available(), reason="this OR-Tools build has no SCIP")


def every_column(inst: Instance, free: bool) -> tuple[list[JobSpace], list[Column]]:
    """Return the jobs' spaces and every window of every job as a column."""
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    columns = [Column.build(j, sp, T, chosen) for j, sp in enumerate(spaces)
               for _, T, chosen in windows_below(sp, Linear(), Prices({}), 0.0,
                                                 free_start=free)]
    return spaces, columns


def windows(inst: Instance, spaces: list[JobSpace], columns: list[Column]) -> list:
    """Return the columns as windows of the instance."""
    out = []
    for col in columns:
        hosts = sorted((spaces[col.j].options[k].host for k in col.chosen),
                       key=lambda s: inst.node_index[s.node])
        out.append(make_window(inst, spaces[col.j].job, col.T, hosts))
    return out


SEEDS = (0, 1, 2, 3, 4, 5, 6, 8, 9, 10)
"""Tiny batches whose brute force takes well under a second (seed 7's takes about 10 s)."""
CASES = [(seed, geometry, free, metric) for seed in SEEDS for geometry in ("rough", "square")
         for free in (True, False) for metric in ("cost", "finish")]


@pytest.mark.parametrize(("seed", "geometry", "free", "metric"), CASES)
def test_packing_over_every_window_is_the_brute_force_optimum(
    seed: int, geometry: str, free: bool, metric: str
) -> None:
    """Every window of a 4-job batch listed, the count fixed at the brute-force count: SCIP's
    optimum is the brute-force optimum, its bound equals it, and its windows pass the joint
    checker."""
    inst = dataclasses.replace(generate("tiny", 900 + seed, jobs=4), geometry=geometry)
    spaces, columns = every_column(inst, free)
    placed, best = brute_joint([all_windows(inst, job, free_start=free) for job in inst.jobs],
                               lambda w: value(w, metric), "min", [])
    got = solve_packing(len(spaces), columns, metric, 1, [], count=placed)
    assert got.status == "optimal"
    assert (len(got.columns), got.value) == (placed, best)
    assert got.bound == pytest.approx(best)
    assert check_alternatives(inst, windows(inst, spaces, got.columns), sequential=False) == []


def test_side_rows_must_jobs_and_an_impossible_count() -> None:
    """A side limit on Σ proc_time and a job that must be placed hold in the optimum; more
    windows than jobs is infeasible."""
    inst = generate("tiny", 903, jobs=4)
    spaces, columns = every_column(inst, True)
    free = solve_packing(len(spaces), columns, "cost", 1, [], count=2)
    assert free.status == "optimal"
    limit = min(c.proc_time for c in columns) * 2 + 5
    must = max({c.j for c in columns})
    got = solve_packing(len(spaces), columns, "cost", 1, [("proc_time", limit)], count=2,
                        must=[must])
    if got.status == "optimal":
        assert sum(c.proc_time for c in got.columns) <= limit
        assert must in {c.j for c in got.columns}
        assert got.value >= free.value
    else:
        assert got.status == "infeasible"
    assert solve_packing(len(spaces), columns, "cost", 1, [], count=5).status == "infeasible"


def test_a_hint_of_listed_columns_is_taken() -> None:
    """A feasible hint: the answer is at least as good as the hint."""
    inst = generate("tiny", 905, jobs=4)
    spaces, columns = every_column(inst, True)
    hint = [columns[0]]
    got = solve_packing(len(spaces), columns, "finish", 1, [], count=1, hint=hint)
    assert got.status == "optimal"
    assert got.value <= hint[0].metric("finish")


def fake(monkeypatch: pytest.MonkeyPatch, packing: Packing) -> None:
    """Make the cg solver's set packing return ``packing``."""
    monkeypatch.setattr(cg_solve, "solve_packing", lambda *a, **k: packing)


def close(
    columns: list[Column], best: int, low: int, escape: int | None = None
) -> tuple[int, int, str | None]:
    """Run the enumeration close on one job's listing; return (best, bound, closed_by)."""
    stats: dict = {"closed_by": None}
    inst = generate("tiny", 900, jobs=1)
    closing = cg_solve._Closing([JobSpace(inst, inst.jobs[0])] * 2, Generation(0.0, 0.0, 0, True),
                                "cost", 1, [], 1, True, 0, stats,
                                SearchProgress("test", enabled=False))
    _, value, bound = cg_solve._pack(closing, (columns, []), columns[:1], best, low, escape, None)
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
    """SCIP optimal with a better window: that window's value is proven."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [cheap], cheap.cost, float(cheap.cost)))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (cheap.cost, cheap.cost,
                                                               "enumeration")


def test_a_stopped_packing_gives_its_bound_capped_by_the_incumbent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SCIP stopped at its limit: its bound (rounded up, never above the incumbent) replaces
    a weaker one, and nothing is claimed."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("feasible", [dear], dear.cost, dear.cost - 2.5))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost - 2, None)
    fake(monkeypatch, Packing("feasible", [dear], dear.cost, dear.cost + 7.0))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost, None)


def test_an_optimum_at_the_escape_window_proves_its_value(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A listing of the solutions worth at most 10 below the incumbent whose optimum is the
    escape window (worth 11 below): that bound is proven, not the incumbent."""
    dear, cheap = two_columns()
    fake(monkeypatch, Packing("optimal", [], dear.cost - 9, float(dear.cost - 9), escaped=True))
    assert close([cheap], dear.cost, dear.cost - 100, dear.cost - 9) == (
        dear.cost, dear.cost - 9, None)
    fake(monkeypatch, Packing("feasible", [], dear.cost - 9, dear.cost - 30.5, escaped=True))
    assert close([cheap], dear.cost, dear.cost - 100, dear.cost - 9) == (
        dear.cost, dear.cost - 30, None)


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
    fake(monkeypatch, Packing("optimal", [dear, cheap], 0, 0.0))
    assert close([dear, cheap], dear.cost, dear.cost - 100) == (dear.cost, dear.cost - 100, None)


def quick(monkeypatch: pytest.MonkeyPatch, levels: bool = False) -> None:
    """No search and no integer master after the root, so the close starts from the first
    incumbent; with ``levels``, no listing of every better solution and levels listed from
    10 windows on."""
    monkeypatch.setattr(cg_solve, "LNS_SHARE", 0.0)
    monkeypatch.setattr(cg_solve, "INTEGER_SHARE", 0.0)
    if levels:
        monkeypatch.setattr(cg_solve, "LISTING_LIMIT", 0)
        monkeypatch.setattr(cg_solve, "EARLY_LIMIT", 0)
        monkeypatch.setattr(cg_solve, "LEVEL_LIMIT", 10)


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
    for name in ("LISTING_LIMIT", "EARLY_LIMIT", "LEVEL_LIMIT"):
        monkeypatch.setattr(cg_solve, name, 0)
    monkeypatch.setattr(cg_solve, "LNS_SHARE", 0.0)
    monkeypatch.setattr(cg_solve, "INTEGER_SHARE", 0.0)
    kinds = set()
    for seed in range(20):
        r, placed, best, _ = solve_gap_case(seed)
        assert r.status == "optimal"
        assert (len(r.info["placed"]), r.objective) == (placed, best)
        kinds.add(r.info["cg"]["closed_by"])
    assert "enumeration" not in kinds and "branch-and-price" in kinds


def test_the_escape_window_stands_for_the_solutions_not_listed() -> None:
    """Every window listed, the count at the brute-force count: an escape worth less than the
    optimum is taken (and proves its value); one worth more is not."""
    inst = generate("tiny", 903, jobs=4)
    spaces, columns = every_column(inst, True)
    placed, best = brute_joint([all_windows(inst, job) for job in inst.jobs],
                               lambda w: value(w, "cost"), "min", [])
    below = solve_packing(len(spaces), columns, "cost", 1, [], count=placed, escape=best - 1)
    assert (below.status, below.escaped, below.value, below.columns) == (
        "optimal", True, best - 1, [])
    above = solve_packing(len(spaces), columns, "cost", 1, [], count=placed, escape=best + 1)
    assert (above.status, above.escaped, above.value) == ("optimal", False, best)
