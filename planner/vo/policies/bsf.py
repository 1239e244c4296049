"""Batch-slice-filling, BSF (Toporkov et al. 2015, §4 and §7.1).

The first ``n_CSS = round(share · n)`` jobs of the batch (the high-priority
sub-batch: the paper slices "based on a priority – the order of jobs in the
batch") are scheduled by the batch-slicer with ``k`` sub-batches; the rest
by backfilling on the slots the slicer left free. ``share = 1`` is the
batch-slicer, ``share = 0`` is backfilling.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from instances import Instance, Job
from planner.heuristics.slotlist import SlotList
from planner.vo.cycle import Combine, CycleOutcome
from planner.vo.policies.backfill import Backfill
from planner.vo.policies.easy import EasyBackfill
from planner.vo.policies.slicer import BatchSlicer

VARIANTS = {"conservative": Backfill, "easy": EasyBackfill}
"""Backfilling variant name → policy class."""


@dataclass(frozen=True)
class BSF:
    """BSF: batch-slicer on the first ``share`` of the batch, backfilling on the rest.

    Parameters
    ----------
    share
        n_CSS / n in [0, 1]: the fraction of the batch given to the slicer.
    k
        Sub-batches of the slicer (1: the paper's Fig. 9 names the first
        sub-batch "scheduled with CSS").
    search
        The slicer's alternatives search (``criterion``: each job's own).
    variant
        ``conservative`` (default) or ``easy`` backfilling for the rest.
    """

    share: float = 0.5
    k: int = 1
    search: str = "criterion"
    variant: str = "conservative"
    name: str = "bsf"

    def __post_init__(self) -> None:
        if isinstance(self.share, bool) or not 0 <= self.share <= 1:
            raise ValueError(f"share must be a number in [0, 1], got {self.share!r}")
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {self.variant!r}")
        BatchSlicer(self.k, self.search)

    def split(self, n: int) -> int:
        """Return n_CSS for a batch of ``n`` jobs (half up)."""
        return math.floor(self.share * n + 0.5)

    def schedule(
        self,
        instance: Instance,
        batch: Sequence[Job],
        free: SlotList,
        combine: Combine,
        *,
        seed: int = 0,
    ) -> CycleOutcome:
        """Slice the head of the batch, then backfill the rest on what is left."""
        n_css = self.split(len(batch))
        first = BatchSlicer(self.k, self.search).schedule(
            instance, batch[:n_css], free, combine, seed=seed
        )
        rest = VARIANTS[self.variant]().schedule(instance, batch[n_css:], free, combine, seed=seed)
        return CycleOutcome(self.name, first.phases + rest.phases)
