"""Cluster workloads: machines of identical CPUs and a stream of jobs over time.

The second resource model of the project, beside the slot model: space-shared
machines (Klusáček & Rudová 2008; Parallel Workloads Archive traces). See
``docs/job-flows.md`` for the semantics (planned and actual durations, walltime
kill, queue order).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from typing import NamedTuple

from instances.checks import is_int, require_int, require_name, require_real
from instances.errors import DataError
from instances.limits import CLUSTER_TIME_MAX, CPUS_MAX, HORIZON_MAX, SPEED_MAX, SPEED_MIN, num

MAX_TIME = CLUSTER_TIME_MAX
"""Largest time in seconds (:data:`instances.limits.CLUSTER_TIME_MAX`)."""
MAX_CPUS = CPUS_MAX
"""Largest CPU count of a machine or job (:data:`instances.limits.CPUS_MAX`)."""


def _bounded(field: str, value: object, minimum: int, maximum: int) -> None:
    """Raise unless ``value`` is an integer in [minimum, maximum] (huge numbers are data errors)."""
    require_int(field, value, minimum=minimum)
    if is_int(value) and value > maximum:  # type: ignore[operator]
        raise DataError(field, f"must be an integer <= {num(maximum)}")


def _horizon(machines: tuple[Machine, ...], jobs: tuple[ClusterJob, ...] | None,
             columns: JobColumns | None = None) -> None:  # fmt: skip
    """Raise unless max r_j + sum_j ceil(e_j / s_min) <= HORIZON_MAX (every end fits int64)."""
    if columns is None:
        assert jobs is not None
        requested, submit = [j.requested for j in jobs], [j.submit for j in jobs]
    else:
        requested, submit = columns.requested, columns.submit
    if not submit:
        return
    slowest = min(m.speed for m in machines)
    total = sum(requested) / slowest + len(submit) + max(submit)
    if total > HORIZON_MAX:
        raise DataError("jobs", "the last submit plus every estimate run in turn on the slowest "
                                "machine, max r_j + sum ceil(e_j / s_min), must be <= 2^62 "
                                "seconds")  # fmt: skip


@dataclass(frozen=True)
class Machine:
    """A machine of ``cpus`` identical CPUs running at ``speed`` (speed 1 = etalon).

    Parameters
    ----------
    id
        Unique machine name.
    cpus
        Number of CPUs R_m >= 1; running jobs use at most R_m CPUs at every instant.
    speed
        Relative speed s_m > 0; a job of work w runs ceil(w / s_m) seconds here.
    """

    id: str
    cpus: int
    speed: float = 1.0

    def __post_init__(self) -> None:
        require_name("id", self.id)
        _bounded("cpus", self.cpus, 1, MAX_CPUS)
        speed = require_real("speed", self.speed, low=SPEED_MIN, high=SPEED_MAX)
        object.__setattr__(self, "speed", speed)


@dataclass(frozen=True)
class ClusterJob:
    """A rigid parallel job submitted to a cluster.

    Parameters
    ----------
    id
        Unique job name (an SWF trace's job number, as text).
    submit
        Submission time r_j, integer seconds.
    cpus
        CPUs R_j >= 1, all on one machine.
    work
        Run time w_j >= 0 at speed 1 (integer seconds).
    estimate
        Requested time e_j >= 0 at speed 1; ``None`` means the work itself
        (a perfect estimate). A job that outlives its estimate is killed at it.
    deadline
        Optional absolute deadline d_j (integer seconds).
    """

    id: str
    submit: int
    cpus: int
    work: int
    estimate: int | None = None
    deadline: int | None = None

    def __post_init__(self) -> None:
        require_name("id", self.id)
        _bounded("submit", self.submit, 0, MAX_TIME)
        _bounded("cpus", self.cpus, 1, MAX_CPUS)
        _bounded("work", self.work, 0, MAX_TIME)
        if self.estimate is not None:
            _bounded("estimate", self.estimate, 0, MAX_TIME)
        if self.deadline is not None:
            _bounded("deadline", self.deadline, 0, MAX_TIME)

    @property
    def requested(self) -> int:
        """Return e_j: the estimate, or the work when no estimate is given."""
        return self.work if self.estimate is None else self.estimate

    def planned_duration(self, machine: Machine) -> int:
        """Return ceil(e_j / s_m), the duration schedulers plan with on ``machine``."""
        return math.ceil(round(self.requested / machine.speed, 9))

    def actual_duration(self, machine: Machine) -> int:
        """Return ceil(min(w_j, e_j) / s_m): the job is killed at its estimate."""
        return math.ceil(round(min(self.work, self.requested) / machine.speed, 9))

    def killed(self) -> bool:
        """Return True when the job outlives its estimate (killed at the walltime)."""
        return self.work > self.requested


@dataclass(frozen=True)
class Workload:
    """Machines and a job stream; jobs are kept in queue order (submit, then given order).

    Parameters
    ----------
    machines
        The machines, in CPU-numbering order (CPUs are numbered 0, 1, ... across
        machines in this order).
    jobs
        The jobs; stored sorted by submit time, ties kept in the given order.
    name
        Free-form workload name.
    dropped
        Records of the source (e.g. an SWF trace) dropped when the workload was
        built, by reason; reported, never silent.
    """

    machines: tuple[Machine, ...]
    jobs: tuple[ClusterJob, ...] = ()
    name: str = ""
    dropped: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        machines = tuple(self.machines)
        jobs = tuple(self.jobs)
        require_name("name", self.name, empty=True)
        if not machines:
            raise DataError("machines", "must hold at least one machine")
        for i, machine in enumerate(machines):
            if not isinstance(machine, Machine):
                raise DataError(f"machines[{i}]", "must be a Machine")
        for i, job in enumerate(jobs):
            if not isinstance(job, ClusterJob):
                raise DataError(f"jobs[{i}]", "must be a ClusterJob")
        self._unique("machines", [m.id for m in machines])
        self._unique("jobs", [j.id for j in jobs])
        widest = max(m.cpus for m in machines)
        for i, job in enumerate(jobs):
            if job.cpus > widest:
                raise DataError(f"jobs[{i}].cpus", f"must be <= {widest}, the widest machine")
        _horizon(machines, jobs)
        order = sorted(range(len(jobs)), key=lambda i: jobs[i].submit)
        object.__setattr__(self, "machines", machines)
        object.__setattr__(self, "jobs", tuple(jobs[i] for i in order))
        object.__setattr__(self, "dropped", tuple((str(k), int(v)) for k, v in self.dropped))

    @staticmethod
    def _unique(what: str, ids: list[str]) -> None:
        seen: set[str] = set()
        for i, name in enumerate(ids):
            if name in seen:
                raise DataError(f"{what}[{i}].id", f"must be unique ({name!r} repeats)")
            seen.add(name)

    @property
    def total_cpus(self) -> int:
        """Return Σ_m R_m."""
        return sum(m.cpus for m in self.machines)

    def __getattr__(self, name: str) -> tuple[ClusterJob, ...]:
        # Reached only for an attribute the instance lacks: the jobs of a workload a bulk
        # reader built from columns (trusted_workload) are made when first asked for.
        columns = self.__dict__.get("columns")
        if name != "jobs" or columns is None:
            raise AttributeError(f"'Workload' object has no attribute {name!r}")
        jobs = trusted_jobs(*columns)
        self.__dict__["jobs"] = jobs
        return jobs

    @cached_property
    def columns(self) -> JobColumns:
        """Return the jobs' fields as lists in queue order (computed once; do not modify)."""
        jobs = self.jobs
        return JobColumns([j.id for j in jobs], [j.submit for j in jobs], [j.cpus for j in jobs],
                          [j.work for j in jobs], [j.requested for j in jobs],
                          [j.deadline for j in jobs])  # fmt: skip

    def cpu_offsets(self) -> tuple[int, ...]:
        """Return the number of the first CPU of each machine (CPUs numbered across machines)."""
        offsets, first = [], 0
        for machine in self.machines:
            offsets.append(first)
            first += machine.cpus
        return tuple(offsets)


class JobColumns(NamedTuple):
    """A workload's job fields as lists in queue order: what a replay reads job by job."""

    id: list[str]
    submit: list[int]
    cpus: list[int]
    work: list[int]
    requested: list[int]
    """e_j: the estimate, or the work when there is none."""
    deadline: list[int | None]


def trusted_jobs(
    ids: list[str], submit: list[int], cpus: list[int], work: list[int],
    estimate: list[int | None], deadline: list[int | None] | None = None,
) -> tuple[ClusterJob, ...]:  # fmt: skip
    """Build jobs from columns a reader has already checked against every rule of ClusterJob.

    The bulk path of the SWF reader (:mod:`instances.traces.swf_workload`):
    each value is a Python int (or str id) within the bounds ``__post_init__``
    enforces, so the per-job checks are skipped. Anything unchecked goes
    through ``ClusterJob(...)`` instead.
    """
    n = len(ids)
    deadline = [None] * n if deadline is None else deadline
    states = [
        {"id": i, "submit": s, "cpus": c, "work": w, "estimate": e, "deadline": d}
        for i, s, c, w, e, d in zip(ids, submit, cpus, work, estimate, deadline, strict=True)
    ]
    jobs = tuple(map(object.__new__, repeat(ClusterJob, n)))
    # each instance gets its field dict whole: a third of the time of setting fields one by one
    deque(map(object.__setattr__, jobs, repeat("__dict__", n), states), maxlen=0)
    return jobs


def trusted_workload(
    machines: tuple[Machine, ...], jobs: tuple[ClusterJob, ...] | None, name: str,
    dropped: tuple[tuple[str, int], ...], columns: JobColumns | None = None,
) -> Workload:  # fmt: skip
    """Return a Workload whose jobs are already checked, unique, fit a machine and are queued.

    For bulk readers only (queue order = sorted by submit, ties in given order);
    skips the per-job checks of ``Workload.__post_init__``, not the name's or
    the horizon's. ``columns``, when given, are the jobs' fields (the reader's
    lists); ``jobs`` may then be None: they are built from the columns when first
    asked for (a replay reads only the columns).
    """
    if jobs is None and columns is None:
        raise ValueError("trusted_workload needs the jobs or their columns")
    require_name("name", name, empty=True)
    _horizon(machines, jobs, columns)
    workload = object.__new__(Workload)
    workload.__dict__.update(machines=machines, name=name, dropped=dropped)
    if jobs is not None:
        workload.__dict__["jobs"] = jobs
    if columns is not None:
        workload.__dict__["columns"] = columns
    return workload


del Workload.jobs  # the default () is __init__'s; a bulk workload's jobs come from __getattr__
