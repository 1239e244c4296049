"""The shrinker (validation/conformance/shrink.py) with in-process oracles.

The property shrunk for: "some job's AMP window costs exactly its budget S" (a
budget met with equality: what a ``cost < S`` bug gets wrong). The smallest
such instance has one node, one slot and one job.
"""

from __future__ import annotations

from typing import Any

import pytest

from instances import Instance, generate
from planner import search
from validation.conformance.shrink import Shrinker, simpler_ints, simpler_reals


def _budget_met(inst: Instance) -> bool:
    for job in inst.jobs:
        w = search(inst, job, "amp")
        if w is not None and w.cost == job.effective_budget:
            return True
    return False


def _first(candidates: list[Instance]) -> int | None:
    return next((k for k, c in enumerate(candidates) if _budget_met(c)), None)


def _every(candidates: list[Instance]) -> list[bool]:
    return [_budget_met(c) for c in candidates]


def _start() -> Instance:
    """The first edge instance with the property (found deterministically)."""
    return next(i for i in (generate("edge", s) for s in range(50)) if _budget_met(i))


@pytest.mark.parametrize("every", [None, _every], ids=["one-by-one", "batched"])
def test_shrinks_to_one_node_one_slot_one_job(every: Any) -> None:
    """Both oracle forms end at a 1-node, 1-slot, 1-job instance that keeps the property."""
    shrinker = Shrinker(_first, budget=300, every=every)
    small = shrinker.shrink(_start())
    assert _budget_met(small)
    assert (len(small.jobs), len(small.nodes), len(small.slots)) == (1, 1, 1)
    assert [n.id for n in small.nodes] == ["n1"] and small.jobs[0].id == "j1"
    assert small.slots[0].start == 0  # times shifted to start at 0
    assert 0 < shrinker.calls <= 300


def test_the_budget_bounds_the_oracle_calls() -> None:
    """With a budget of 3 calls the shrinker stops after 3, still returning a failing
    instance (the original or a smaller one)."""
    calls: list[int] = []

    def first(candidates: list[Instance]) -> int | None:
        calls.append(len(candidates))
        return _first(candidates)

    shrinker = Shrinker(first, budget=3)
    got = shrinker.shrink(_start())
    assert len(calls) == 3 and shrinker.calls == 3 and _budget_met(got)


def test_nothing_failing_leaves_the_instance_unchanged() -> None:
    """An oracle that never confirms: the instance comes back as it was (in slots form)."""
    inst = _start()
    got = Shrinker(lambda c: None, budget=50).shrink(inst)
    assert (got.nodes, got.slots, got.jobs) == (inst.nodes, inst.slots, inst.jobs)


@pytest.mark.parametrize(
    ("x", "low", "want"),
    [
        (37, None, [0, 1, 2, 5, 10, 18, 36]),  # rounder or smaller; 40 is not smaller
        (120, 1, [1, 2, 5, 10, 100, 60, 119]),  # never below the low bound
        (1, 1, []),  # already the simplest
        (-7, None, [0, 1, 2, 5, -4, -6]),  # toward zero
    ],
)
def test_simpler_ints(x: int, low: int | None, want: list[int]) -> None:
    """Integer candidates: strictly smaller in magnitude, simplest first."""
    assert simpler_ints(x, low) == want


@pytest.mark.parametrize(
    ("x", "positive", "want"),
    [
        (2.37, False, [0.0, 1.0, 2.0, 2.4]),  # fewer decimals, then smaller
        (0.8, True, [1.0]),  # positive only: 0 is no performance
        (1.0, False, [0.0]),  # only zero is simpler than one
    ],
)
def test_simpler_reals(x: float, positive: bool, want: list[float]) -> None:
    """Real candidates: fewer decimals, then smaller magnitude."""
    assert simpler_reals(x, positive) == want
