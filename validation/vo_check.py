"""Independent checker of one VO flow cycle (Toporkov et al. 2015, §2.3 and §3).

A cycle is a sequence of phases, each with the jobs it scheduled, the free
slot list it searched on, the alternatives it found (in order) and the
windows it reserved. The checker recomputes the slot lists from the
instance and the reservations with its own subtraction, checks every
phase's alternatives with :func:`validation.check.check_alternatives` on
that phase's list, and checks that reservations are alternatives, at most
one per job, and that no job is in two phases. It reads plain attributes
only and never imports the flow code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from instances import Instance
from validation.check import check_alternatives, take_slot


def _key(w: Any) -> tuple[Any, ...]:
    return (w.job, w.start, tuple((p.node, p.start, p.end, p.cost) for p in w.placements))


def check_cycle(instance: Instance, phases: Sequence[Any]) -> list[str]:
    """Return the violations of a cycle's phases on ``instance`` (empty when it is sound).

    Parameters
    ----------
    instance
        The cycle's instance: its free slots before the cycle and its batch.
    phases
        Objects with ``jobs`` (ids), ``slots``, ``alternatives`` and
        ``reservations`` (windows), in the order the policy ran them.
    """
    out: list[str] = []
    batch = {j.id for j in instance.jobs}
    free = list(instance.slots)
    seen_jobs: set[str] = set()
    reserved: set[str] = set()
    for k, ph in enumerate(phases):
        tag = f"phase {k}"
        jobs = set(ph.jobs)
        if not jobs <= batch:
            out.append(f"job: {tag} schedules jobs outside the batch: {sorted(jobs - batch)}")
        if jobs & seen_jobs:
            out.append(f"job: {tag} repeats jobs of an earlier phase: {sorted(jobs & seen_jobs)}")
        seen_jobs |= jobs
        if set(ph.slots) != set(free):
            out.append(f"slots: {tag} searched a slot list other than the cycle's free slots")
        view = instance.with_slots(
            sorted(free, key=lambda s: (s.start, instance.node_index[s.node]))
        )
        out.extend(f"{v} ({tag})" for v in check_alternatives(view, list(ph.alternatives)))
        found = {_key(w) for w in ph.alternatives}
        for w in ph.reservations:
            if _key(w) not in found:
                out.append(f"reservation: {tag} reserves a window for '{w.job}' it did not find")
            if w.job not in jobs:
                out.append(f"reservation: {tag} reserves '{w.job}', not one of its jobs")
            if w.job in reserved:
                out.append(f"reservation: job '{w.job}' is reserved twice")
            reserved.add(w.job)
            for p in w.placements:
                if not take_slot(free, p.node, p.start, p.end):
                    out.append(f"reservation: '{w.job}' on '{p.node}' [{p.start}, {p.end}) "
                               "is not inside a free slot")  # fmt: skip
    return out
