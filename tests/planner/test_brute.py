"""Heuristics against the brute-force reference (validation.brute_force) on ``tiny`` instances.

The brute force enumerates every suitable start and n-subset; it shares no
code with the search. Exact registry entries must reach its optimum over the
AEP space (SPEC §4); every other entry must never beat it. CSA is the one
algorithm whose windows may start outside the AEP space (an alternative can
start where an earlier one ended), so it is bounded by the free-start optimum.
"""

from __future__ import annotations

import pytest

from instances import CRITERIA
from planner import ALGORITHMS, search
from tests.planner.families import small
from validation import brute_force_value, earliest_start

SEEDS = range(200)
EXACT = [a.name for a in ALGORITHMS.values() if a.exact]


def _value(window, criterion: str) -> float | None:
    return None if window is None else window.value(criterion)


@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_amp_finds_the_earliest_feasible_start(geometry: str) -> None:
    """AMP's start is the earliest start of any feasible window (None when there is none)."""
    for seed in SEEDS:
        inst = small("tiny", seed, geometry)
        for job in inst.jobs:
            window = search(inst, job, "amp")
            assert (window.start if window else None) == earliest_start(inst, job), seed


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("name", EXACT)
def test_exact_entries_reach_the_brute_force_optimum(name: str, geometry: str) -> None:
    """Every entry flagged exact finds a window exactly when one exists, of optimal value."""
    crit = ALGORITHMS[name].criterion
    for seed in SEEDS:
        inst = small("tiny", seed, geometry)
        for job in inst.jobs:
            best = brute_force_value(inst, job, crit)
            got = _value(search(inst, job, name), crit)
            assert (got is None) == (best is None), (seed, job.id)
            if best is not None:
                assert got == pytest.approx(best, abs=1e-9), (seed, job.id)


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("name", [n for n in ALGORITHMS if n not in EXACT])
def test_heuristics_never_beat_the_optimum(name: str, geometry: str) -> None:
    """A heuristic's window is never better than the optimum; it finds one iff one exists.

    ALP only sees slots priced at most C, so it may find nothing where AMP does.
    """
    algo = ALGORITHMS[name]
    for seed in SEEDS:
        inst = small("tiny", seed, geometry)
        for job in inst.jobs:
            crit = algo.criterion or job.criterion
            window = search(inst, job, name, seed=seed)
            free = name == "csa" and crit in ("dep", "coord")
            best = brute_force_value(inst, job, crit, free_start=free)
            if name != "alp":
                assert (window is None) == (best is None), (seed, job.id)
            over = job.effective_budget is not None and window is not None and (
                window.cost > job.effective_budget
            )  # ALP has no window budget (seed 000 §3): its window may cost more than S
            if window is not None and not (name == "alp" and over):
                gap = CRITERIA[crit].normalised(window.value(crit) - best)
                assert gap >= -1e-9, (seed, job.id)
