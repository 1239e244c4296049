"""The VO job-flow simulator: cycles of the slot model (Toporkov et al. 2015, §2.3 and Fig. 1).

Every cycle has its own environment (nodes, local load, interval) drawn by
an instance family from a seed derived with ``numpy.random.SeedSequence``
from (flow seed, cycle), and a batch: the jobs postponed by earlier cycles
(oldest first) followed by the cycle's new jobs. The policy reserves
windows in the cycle's free slots; a job left without a window is
postponed to the next cycle (Toporkov et al. 2011, Fig. 2), at most
``max_postponements`` times, after which it is dropped. Invariants checked
at every cycle: every reservation belongs to a batch job, no job is
reserved twice or in two cycles, and the free time left equals the free
time before minus the reserved task time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from instances import Instance, Job, generate
from planner.heuristics.slotlist import SlotList
from planner.vo.cycle import Combine, CycleOutcome
from planner.vo.metrics import NodeUsage, mean, node_usage
from planner.vo.policies.base import Policy

Environment = Callable[[int], Instance]
"""cycle index ↦ that cycle's instance (its nodes, local load, interval and new jobs)."""


def cycle_seed(seed: int, cycle: int, stream: int = 0) -> int:
    """Return the seed of ``cycle`` (stream 0: its environment; 1: randomised searches)."""
    ss = np.random.SeedSequence(seed, spawn_key=(cycle, stream))
    return int(ss.generate_state(1, np.uint32)[0])


def family_environment(family: str, seed: int = 0, **params: Any) -> Environment:
    """Return the environment drawing cycle ``c`` from ``family`` with :func:`cycle_seed`."""

    def environment(cycle: int) -> Instance:
        return generate(family, cycle_seed(seed, cycle), **params)

    return environment


@dataclass(frozen=True)
class JobRecord:
    """One job in one cycle's batch: ``placed``, ``postponed`` or ``dropped`` (over the limit)."""

    cycle: int
    job: str
    arrival: int
    status: str
    postponements: int
    criterion: str
    nodes: int
    alternatives: int
    start: int | None = None
    runtime: int | None = None
    finish: int | None = None
    cost: int | None = None
    proc_time: int | None = None
    hosts: tuple[str, ...] = ()


@dataclass(frozen=True)
class CycleRecord:
    """One cycle's totals and means over its placed jobs (None when none was placed)."""

    cycle: int
    seed: int
    batch: int
    new: int
    carried: int
    placed: int
    postponed: int
    dropped: int
    alternatives: float | None
    start: float | None
    runtime: float | None
    finish: float | None
    cost: float | None
    t_cpu: int
    failure_rate: float
    failed: bool
    utilisation: float
    profit: int
    nodes: tuple[NodeUsage, ...]


@dataclass(frozen=True)
class Flow:
    """A simulated flow: per-cycle and per-job records, and optionally each cycle's data."""

    policy: str
    cycles: tuple[CycleRecord, ...]
    jobs: tuple[JobRecord, ...]
    kept: tuple[tuple[Instance, CycleOutcome], ...] = ()


def schedule_cycle(
    policy: Policy, combine: Combine, instance: Instance, *, seed: int = 0
) -> CycleOutcome:
    """Run ``policy`` on ``instance``'s batch and free slots; check the cycle's invariants."""
    free = SlotList(instance.slots, instance.node_index)
    before = sum(s.length for s in instance.slots)
    outcome = policy.schedule(instance, instance.jobs, free, combine, seed=seed)
    reserved = outcome.reservations
    jobs = [w.job for w in reserved]
    if len(set(jobs)) != len(jobs) or not set(jobs) <= {j.id for j in instance.jobs}:
        raise AssertionError("a cycle reserved a job twice, or a job outside its batch")
    after = sum(s.length for s in free.slots())
    if after != before - sum(w.proc_time for w in reserved):
        raise AssertionError("the free time left does not match the reserved task time")
    return outcome


def run_flow(
    policy: Policy,
    combine: Combine,
    environment: Environment,
    cycles: int,
    *,
    seed: int = 0,
    max_postponements: int = 2,
    keep: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Flow:
    """Simulate ``cycles`` cycles of the flow; return the records.

    Parameters
    ----------
    policy
        A :mod:`planner.vo.policies` policy.
    combine
        The VO policy choosing one alternative per job (``models.combination.vo_policy``).
    environment
        cycle ↦ instance (:func:`family_environment`); its jobs are the new arrivals.
    cycles
        Number of cycles.
    seed
        Seeds the randomised searches (``min_proc_time``) per cycle via :func:`cycle_seed`.
    max_postponements
        A job postponed more often than this is dropped (0: every cycle independent).
    keep
        Keep each cycle's instance and outcome (for checks and plots).
    progress
        Called with the number of cycles done after each cycle (the CLI draws it).
    """
    if max_postponements < 0:
        raise ValueError("max_postponements must be >= 0")
    carried: list[tuple[Job, int, int]] = []  # (job, arrival cycle, postponements so far)
    placed_ever: set[str] = set()
    cycle_rows: list[CycleRecord] = []
    job_rows: list[JobRecord] = []
    kept: list[tuple[Instance, CycleOutcome]] = []
    for c in range(cycles):
        env = environment(c)
        new = [(dataclasses.replace(j, id=f"c{c}-{j.id}"), c, 0) for j in env.jobs]
        batch = carried + new
        inst = dataclasses.replace(env, jobs=tuple(j for j, _, _ in batch))
        outcome = schedule_cycle(policy, combine, inst, seed=cycle_seed(seed, c, 1))
        chosen = {w.job: w for w in outcome.reservations}
        if placed_ever & chosen.keys():
            raise AssertionError("a job was reserved in two cycles")
        placed_ever |= chosen.keys()
        na = outcome.alternatives_per_job()
        carried = []
        dropped = 0
        for job, arrival, times in batch:
            w = chosen.get(job.id)
            if w is not None:
                status = "placed"
            elif times < max_postponements:
                status = "postponed"
                carried.append((job, arrival, times + 1))
            else:
                status = "dropped"
                dropped += 1
            job_rows.append(_job_row(c, job, arrival, status, times, na[job.id], w))
        cycle_rows.append(_cycle_row(c, cycle_seed(seed, c), inst, len(new), len(batch) - len(new),
                                     outcome, dropped, na))  # fmt: skip
        if keep:
            kept.append((inst, outcome))
        if progress is not None:
            progress(c + 1)
    return Flow(policy.name, tuple(cycle_rows), tuple(job_rows), tuple(kept))


def _job_row(c: int, job: Job, arrival: int, status: str, times: int, na: int, w: Any) -> JobRecord:
    base = JobRecord(c, job.id, arrival, status, times, job.criterion, job.nodes, na)
    if w is None:
        return base
    return dataclasses.replace(base, start=w.start, runtime=w.runtime, finish=w.finish,
                               cost=w.cost, proc_time=w.proc_time, hosts=w.nodes)  # fmt: skip


def _cycle_row(
    c: int, seed: int, inst: Instance, new: int, carried: int, outcome: CycleOutcome,
    dropped: int, na: dict[str, int],
) -> CycleRecord:  # fmt: skip
    res = outcome.reservations
    usage = node_usage(inst, res)
    batch = len(inst.jobs)
    postponed = batch - len(res)
    return CycleRecord(
        cycle=c, seed=seed, batch=batch, new=new, carried=carried, placed=len(res),
        postponed=postponed, dropped=dropped,
        alternatives=mean([na[w.job] for w in res]),
        start=mean([w.start for w in res]), runtime=mean([w.runtime for w in res]),
        finish=mean([w.finish for w in res]), cost=mean([w.cost for w in res]),
        t_cpu=sum(w.proc_time for w in res),
        failure_rate=postponed / batch if batch else 0.0, failed=postponed > 0,
        utilisation=mean([u.utilisation for u in usage]) or 0.0,
        profit=sum(u.profit for u in usage), nodes=tuple(usage),
    )  # fmt: skip
