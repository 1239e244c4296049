"""Joint batches for column-generation tests: the first 6 jobs of css2015 seed 2 and a master
seeded with AMP's first alternatives (disjoint, so a feasible start at any count), and the
4-job tiny "gap cases" solved by the cg solver beside their brute-force optimum."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from instances import Instance, generate
from models import PROBLEMS, solve_joint
from models.joint.cg import solve as cg_solve
from models.joint.cg.budget import BUDGET
from models.joint.cg.column import Column, Linear
from models.joint.cg.master import Master
from models.joint.space import JobSpace
from planner import find_alternatives
from planner.deadline import Share
from validation import check_alternatives
from validation.joint_brute import all_windows, brute_joint, value


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


def gap_case(seed: int) -> tuple[Instance, object, bool]:
    """Return a 4-job tiny batch (both geometries, free and AEP starts), objective rotated."""
    geometry = ("rough", "square")[seed % 2]
    inst = dataclasses.replace(generate("tiny", 500 + seed, jobs=4), geometry=geometry)
    objective = ("cost", "finish", 8, "proc_time", 7)[seed % 5]
    return inst, objective, (seed // 2) % 2 == 0


def solve_gap_case(seed: int) -> tuple[Any, int, int, Instance]:
    """Solve a gap case with the cg solver (problems at t* = 30, b* = 40); return the result,
    the brute-force optimum (placed count, value) and the instance."""
    inst, objective, free = gap_case(seed)
    limits = {"time": 30, "cost": 40}
    if isinstance(objective, int):
        r = solve_joint(inst, problem=objective, solver="cg", t_star=limits["time"],
                        b_star=limits["cost"], free_start=free)
        p = PROBLEMS[objective]
        f = "proc_time" if p.objective == "time" else "cost"
        g = "proc_time" if p.constraint == "time" else "cost"
        sides = [(lambda w, g=g: value(w, g), limits[p.constraint])]
        sense = p.sense
    else:
        r = solve_joint(inst, objective, "cg", free_start=free)
        f, sides, sense = objective, [], "min"
    windows = [all_windows(inst, job, free_start=free) for job in inst.jobs]
    placed, best = brute_joint(windows, lambda w: value(w, f), sense, sides)
    return r, placed, best, inst


def closed_gap_cases(seeds: Iterable[int]) -> set[str | None]:
    """Solve the gap cases of ``seeds``; assert each result is the brute-force optimum, proven,
    with windows that pass the joint checker; return what closed each gap (``closed_by``)."""
    kinds = set()
    for seed in seeds:
        r, placed, best, inst = solve_gap_case(seed)
        assert r.status == "optimal"
        assert (len(r.info["placed"]), r.objective) == (placed, best)
        assert check_alternatives(inst, r.windows, sequential=False) == []
        kinds.add(r.info["cg"]["closed_by"])
    return kinds


def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give the cg solver's neighbourhood search and its integer master after the root no
    time (their shares in :data:`models.joint.cg.budget.BUDGET` set to zero), so that the
    close starts from the first incumbent."""
    monkeypatch.setattr(cg_solve, "BUDGET", dataclasses.replace(
        BUDGET, search=Share(most=0.0), integer_master=Share(most=0.0)))


COLUMN_NODES = ("a", "b", "c")
"""The nodes of :func:`random_column`'s windows."""


def random_column(rng: random.Random, j: int) -> Column:
    """Return a random window of job ``j``: 1–2 tasks on distinct nodes from a common start."""
    T = rng.randrange(0, 30)
    nodes = rng.sample(COLUMN_NODES, rng.choice((1, 2)))
    lengths = [rng.randrange(1, 12) for _ in nodes]
    tasks = tuple((node, T, T + d) for node, d in zip(nodes, lengths, strict=True))
    return Column(j=j, T=T, chosen=tuple(range(len(nodes))), tasks=tasks,
                  proc_time=sum(lengths), cost=rng.randrange(1, 50), runtime=max(lengths))
