"""The batch-slicer (Toporkov et al. 2015, §3 and Fig. 4).

The batch is split into ``k`` sub-batches, scheduled in turn on the same
interval: each sub-batch's alternatives are searched (each job by its own
criterion) on the slots the earlier sub-batches left free, then one
alternative per job is chosen by the VO policy and reserved. With k = 1 this
is CSS with per-job criteria; with k = n every job is scheduled alone.

Sub-batches are contiguous runs of the batch in batch order (earlier jobs
first: the paper's "high-priority" jobs gain alternatives from slicing),
sizes as equal as possible, the larger ones first (``numpy.array_split``):
20 jobs into k = 5 gives five sub-batches of four (§6.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from instances import Instance, Job
from planner.heuristics.slotlist import SlotList
from planner.vo.cycle import Combine, CycleOutcome, run_phase
from planner.vo.search import algorithm_for


def slices(batch: Sequence[Job], k: int) -> list[list[Job]]:
    """Return ``batch`` cut into ``min(k, len(batch))`` contiguous runs, larger runs first."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    n = len(batch)
    parts = min(k, n)
    out: list[list[Job]] = []
    start = 0
    for i in range(parts):
        size = n // parts + (1 if i < n % parts else 0)
        out.append(list(batch[start : start + size]))
        start += size
    return out


@dataclass(frozen=True)
class BatchSlicer:
    """The batch-slicer with ``k`` sub-batches.

    Parameters
    ----------
    k
        Number of sub-batches (the paper uses 1, 2, 3, 5, 6, 10 and 20).
    search
        ``criterion`` (default: each job's own criterion, §3), ``amp`` or
        any registry algorithm name for every job.
    """

    k: int = 1
    search: str = "criterion"
    name: str = "slicer"

    def __post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise ValueError(f"k must be an integer >= 1, got {self.k!r}")
        algorithm_for(Job("probe", 1, 1.0), self.search)

    def schedule(
        self,
        instance: Instance,
        batch: Sequence[Job],
        free: SlotList,
        combine: Combine,
        *,
        seed: int = 0,
    ) -> CycleOutcome:
        """Schedule the sub-batches in turn, each on the slots the previous ones left."""
        phases = tuple(
            run_phase(instance, part, free, combine, self.search, seed=seed)
            for part in slices(batch, self.k)
        )
        return CycleOutcome(self.name, phases)
