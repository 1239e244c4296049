"""The cyclic scheduling scheme, CSS (Toporkov et al. 2015, §2.3; Toporkov et al. 2011, §2).

One phase per cycle: alternatives for every job of the batch, then one
alternative per job by the VO policy. The paper's CSS searches "by choosing
the first fit alternative" (§6.2), i.e. AMP for every job (``search="amp"``,
the default); ``search="criterion"`` searches each job by its own
criterion, which is the batch-slicer with a single sub-batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from instances import Instance, Job
from planner.heuristics.slotlist import SlotList
from planner.vo.cycle import Combine, CycleOutcome, run_phase
from planner.vo.search import algorithm_for


@dataclass(frozen=True)
class CSS:
    """CSS: one (alternatives, combination) phase over the whole batch.

    Parameters
    ----------
    search
        ``amp`` (first fit, the paper's CSS), ``criterion`` (each job's own
        criterion) or any registry algorithm name for every job.
    """

    search: str = "amp"
    name: str = "css"

    def __post_init__(self) -> None:
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
        """Run the single phase on the whole batch."""
        phase = run_phase(instance, batch, free, combine, self.search, seed=seed)
        return CycleOutcome(self.name, (phase,))
