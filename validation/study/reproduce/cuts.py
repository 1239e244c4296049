"""Readings of how an alternative is cut out of the slot list, for the sensitivity tables.

Toporkov et al. 2011 §2 (Fig. 6) states the rule the library follows: from
each slot K of a window, the interval K' = [T, T + t_j) is cut, t_j being
the task's runtime *on that node* (the window's rough right edge), leaving
the pieces K1 and K2. Toporkov et al. 2012 §3.1 item 6 (and Toporkov et al.
2015 §6.1) only say CSA's alternatives are "disjointed by the slots". The
two other readings measured against the papers' alternative counts:

- ``rectangle``: cut [T, T + runtime) from every slot of the window, the
  runtime being the window's longest task (the rectangle of the homogeneous
  example of Toporkov et al. 2011 §4), clipped at the slot's end;
- ``slot``: remove every slot the window uses entirely ("disjointed by the
  slots" read literally).

``task`` calls :func:`planner.find_alternatives` itself, so the reading used
by the reproductions is the library's.
"""

from __future__ import annotations

from instances import Instance
from planner import Window, find_alternatives
from planner.heuristics.slotlist import SlotList
from planner.registry import resolve

CUTS = {
    "task": "cut [T, T + t_j) per node (Toporkov et al. 2011 §2, used)",
    "rectangle": "cut [T, T + window runtime) from every slot of the window",
    "slot": "remove every used slot whole",
}


def alternatives_by_job(
    instance: Instance, algorithm: str, cut: str = "task"
) -> dict[str, list[Window]]:
    """Return job id -> its alternatives found by ``algorithm``, cutting windows by ``cut``.

    The rounds are those of :func:`planner.find_alternatives`: batch order,
    one window per job and round, a job leaves once it finds none; each
    first-fit search resumes at its job's previous start.
    """
    if cut == "task":
        return find_alternatives(instance, algorithm).by_job()
    if cut not in CUTS:
        raise ValueError(f"unknown cut '{cut}' (one of {', '.join(CUTS)})")
    algo = resolve(algorithm)
    free = SlotList(instance.slots, instance.node_index)
    out: dict[str, list[Window]] = {j.id: [] for j in instance.jobs}
    active = list(instance.jobs)
    while active:
        still = []
        for job in active:
            found = out[job.id]
            resume = found and algo.resumable
            slots = list(free.slots_from(found[-1].start)) if resume else free.slots()
            window = algo.solve(instance, job, slots=slots, seed=0)
            if window is None:
                continue
            found.append(window)
            still.append(job)
            for p in window.placements:
                host = free.host(p.node, p.start, p.end)
                assert host is not None  # the window was found on these free slots
                if cut == "slot":
                    free.subtract(p.node, host.start, host.end)
                else:
                    free.subtract(p.node, p.start, min(host.end, window.start + window.runtime))
        active = still
    return out
