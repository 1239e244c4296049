"""min_cost written from docs/ alone (docs/algorithms.md); see common.py for usage."""

from __future__ import annotations

import sys

from aep import aep
from common import Instance, Job, Slot, Step, budget, cost, main, true_lengths


def cheapest(inst: Instance, job: Job, slots: list[Slot], step: Step) -> list[int] | None:
    """The n cheapest alive slots if their total is at most S."""
    chosen = step.alive[: job.n]
    S = budget(job)
    if S is not None and sum(c for c, _ in chosen) > S:
        return None
    return [i for _, i in chosen]


def total_cost(inst: Instance, job: Job, slots: list[Slot], T: int, chosen: list[int]) -> float:
    """Σ cost with the window's true task lengths."""
    lengths = true_lengths(inst, slots, chosen)
    return sum(cost(slots[i].price, d) for i, d in zip(chosen, lengths, strict=True))


if __name__ == "__main__":
    sys.exit(main(lambda inst, job: aep(inst, job, cheapest, total_cost, exact=True)))
