"""Alternatives search where each job uses its own criterion's algorithm (Toporkov et al. 2015, §3).

The batch-slicer lets every user name an optimisation criterion in the
resource request; the job's alternatives are then searched by the AEP
algorithm of that criterion (Toporkov et al. 2015, §3 and §6.2), while the
classic cyclic scheme (CSS) searches every job first-fit with AMP. Rounds
follow the alternatives search of ``planner.find_alternatives`` (Toporkov
et al. 2011, Figs. 4–6): jobs in batch order, one window per job and round
on the current slot list, each subtracted before the next search, until a
round finds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from instances import Instance, Job
from planner.alternatives import search_rounds
from planner.heuristics.slotlist import SlotList
from planner.registry import ALGORITHMS, resolve
from planner.window import Window

SEARCHES: tuple[str, ...] = ("criterion", "amp")
"""``criterion``: each job by its own criterion's algorithm; ``amp``: every job first-fit."""


def criterion_algorithm(criterion: str) -> str:
    """Return the registry algorithm that serves ``criterion`` in the batch-slicer.

    The algorithm named after the criterion (the papers' AEP strategies
    ``min_finish``, ``min_cost``, ``min_runtime``, ...); ``min_start`` is
    served by AMP, which returns the earliest feasible start (exact for it).
    """
    name = "amp" if criterion == "min_start" else criterion
    if name not in ALGORITHMS:
        raise KeyError(f"no registered algorithm serves criterion '{criterion}'")
    return name


def algorithm_for(job: Job, search: str) -> str:
    """Return the algorithm searching ``job``'s alternatives under ``search`` (:data:`SEARCHES`)."""
    if search == "criterion":
        return criterion_algorithm(job.criterion)
    if search in ALGORITHMS:
        return search
    raise KeyError(f"unknown search '{search}' (choose from: {', '.join(SEARCHES)})")


def search_alternatives(
    instance: Instance,
    jobs: Sequence[Job],
    free: SlotList,
    search: str = "criterion",
    *,
    seed: int = 0,
) -> list[Window]:
    """Return the disjoint alternatives of ``jobs`` on ``free``, in the order found.

    ``free`` is the slot list the search starts from; it is left unchanged
    (the search works on its own copy). Every job searches with
    :func:`algorithm_for` ``(job, search)``; first-fit searches resume at the
    job's previous start, as in ``planner.find_alternatives``.
    """
    work = SlotList(free.slots(), instance.node_index)
    algos = {job.id: resolve(algorithm_for(job, search)) for job in jobs}
    return search_rounds(instance, jobs, algos, work, seed=seed)
