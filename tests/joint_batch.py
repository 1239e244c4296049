"""A small joint batch for column-generation tests: the first 6 jobs of css2015 seed 2 and a
master seeded with AMP's first alternatives (disjoint, so a feasible start at any count)."""

from __future__ import annotations

from collections.abc import Callable

from instances import generate
from models.joint.cg.column import Column, Linear
from models.joint.cg.master import Master
from models.joint.space import JobSpace
from planner import find_alternatives


def six_job_batch(objective: str = "finish") -> tuple[list[JobSpace], Callable[[], Master]]:
    """Return the batch's job spaces and a factory of fresh masters (``objective`` minimised,
    the count fixed to the jobs AMP places, AMP's first alternatives as columns)."""
    inst = generate("css2015", 2)
    jobs = list(inst.jobs[:6])
    spaces = [JobSpace(inst, job) for job in jobs]
    alts = find_alternatives(inst, "amp", jobs=[j.id for j in jobs]).by_job()
    firsts = {j: ws[0] for j, ws in enumerate(alts.get(job.id, []) for job in jobs) if ws}

    def fresh() -> Master:
        master = Master(len(spaces), Linear.of(objective), count=len(firsts))
        for j, w in firsts.items():
            chosen = [spaces[j].option_of(p.node, p.start, p.end) for p in w.placements]
            master.add(Column.build(j, spaces[j], w.start, chosen))
        return master

    return spaces, fresh
