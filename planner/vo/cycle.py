"""One scheduling cycle of a VO job flow: phases of (alternatives, combination) on one slot list.

Toporkov et al. 2015, §2.3: every cycle first finds alternatives (sets of
slots) for the batch's jobs, then chooses one alternative per job by the VO
policy, a combination problem (6)–(9). A policy runs one or more *phases*
(the batch-slicer one per sub-batch); each phase searches on the slot list
left by the previous phases' reservations, and its chosen windows become
busy time of that list. Jobs without a chosen window are postponed to the
next cycle (Toporkov et al. 2011, Fig. 2).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from instances import Instance, Job, Slot
from planner.heuristics.slotlist import SlotList
from planner.vo.search import search_alternatives
from planner.window import Window

Combine = Callable[[Mapping[str, Sequence[Window]]], Sequence[Window]]
"""The VO policy: job id → alternatives (batch order) ↦ the chosen windows, at most one per job.

Built by ``models.combination.vo_policy`` (the dynamic programme of
problems (6)–(9)); the flow layer only calls it.
"""


@dataclass(frozen=True)
class Phase:
    """One (alternatives, combination) step of a cycle.

    Parameters
    ----------
    jobs
        Ids of the jobs scheduled in this phase, in batch order.
    slots
        The free slot list the phase searched on (sorted by start, node order).
    alternatives
        Every alternative found, in the order found (disjoint).
    reservations
        The chosen windows (a subset of ``alternatives``), at most one per job.
    """

    jobs: tuple[str, ...]
    slots: tuple[Slot, ...]
    alternatives: tuple[Window, ...]
    reservations: tuple[Window, ...]

    def counts(self) -> dict[str, int]:
        """Return job id → number of alternatives found (NA), every phase job present."""
        out = dict.fromkeys(self.jobs, 0)
        for w in self.alternatives:
            out[w.job] += 1
        return out


@dataclass(frozen=True)
class CycleOutcome:
    """What a policy did in one cycle: its phases, in order."""

    policy: str
    phases: tuple[Phase, ...]

    @property
    def reservations(self) -> tuple[Window, ...]:
        """Return every reserved window, phase by phase."""
        return tuple(w for ph in self.phases for w in ph.reservations)

    def alternatives_per_job(self) -> dict[str, int]:
        """Return job id → NA (alternatives found in its phase)."""
        out: dict[str, int] = {}
        for ph in self.phases:
            out.update(ph.counts())
        return out


def run_phase(
    instance: Instance,
    jobs: Sequence[Job],
    free: SlotList,
    combine: Combine,
    search: str,
    *,
    seed: int = 0,
) -> Phase:
    """Search ``jobs``' alternatives on ``free``, combine them, and reserve the chosen windows.

    ``free`` is updated in place: the chosen windows are subtracted from it
    (they become busy time for the later phases of the cycle).
    """
    before = tuple(free.slots())
    found = search_alternatives(instance, jobs, free, search, seed=seed)
    by_job: dict[str, list[Window]] = {j.id: [] for j in jobs}
    for w in found:
        by_job[w.job].append(w)
    chosen = tuple(combine(by_job))
    ids = {w.job for w in chosen}
    if len(ids) != len(chosen) or not ids <= set(by_job):
        raise AssertionError("the VO policy must choose at most one window per phase job")
    found_ids = {id(w) for w in found}
    if any(id(w) not in found_ids for w in chosen):
        raise AssertionError("the VO policy must choose among the alternatives found")
    for w in chosen:
        for p in w.placements:
            free.subtract(p.node, p.start, p.end)
    return Phase(tuple(j.id for j in jobs), before, tuple(found), chosen)
