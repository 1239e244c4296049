"""The outcome of a replay: per-job records and the metrics of Klusáček & Rudová 2008.

Per job: wait = start − submit, response = finish − submit, slowdown =
response / max(duration, 1), bounded slowdown = max(1, response /
max(duration, 10)), delayed = finish > deadline. Per run: makespan = last
finish − first submit, utilisation = Σ R_j · duration_j / (Σ_m R_m ·
makespan), weighted utilisation = the same with every CPU second weighted by
its machine's speed. See ``docs/job-flows.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from operator import gt, mul, sub, truediv
from typing import Any

from instances.workload import Workload
from planner.cluster.cluster import Spans, allocate

try:  # optional C speedups; Columns.of's Python code is the reference and the fallback
    from planner.cluster import _speedups
except ImportError:  # pragma: no cover - a build without a C compiler
    _speedups = None

BSLD_THRESHOLD = 10
"""Seconds: the duration floor of the bounded slowdown (Feitelson's usual 10 s)."""


@dataclass(frozen=True)
class JobRecord:
    """What happened to one job."""

    id: str
    submit: int
    cpus: int
    requested: int
    start: int
    finish: int
    machine: str
    cpu_spans: tuple[tuple[int, int], ...]
    killed: bool
    deadline: int | None

    @property
    def cpu_ids(self) -> tuple[int, ...]:
        """Return every CPU number (materialised: for small machines, e.g. tests and plots)."""
        return tuple(c for lo, hi in self.cpu_spans for c in range(lo, hi + 1))

    @property
    def duration(self) -> int:
        """Return the actual run time (``finish - start``)."""
        return self.finish - self.start

    @property
    def wait(self) -> int:
        """Return start − submit."""
        return self.start - self.submit

    @property
    def response(self) -> int:
        """Return finish − submit (the turnaround time)."""
        return self.finish - self.submit

    @property
    def slowdown(self) -> float:
        """Return response / max(duration, 1)."""
        return self.response / max(self.duration, 1)

    @property
    def bounded_slowdown(self) -> float:
        """Return max(1, response / max(duration, 10))."""
        return max(1.0, self.response / max(self.duration, BSLD_THRESHOLD))

    @property
    def delayed(self) -> bool:
        """Return True when the job finished after its deadline."""
        return self.deadline is not None and self.finish > self.deadline


@dataclass(frozen=True)
class Replay:
    """A finished replay: the workload as replayed, and where and when each job ran.

    ``events`` lists the starts (``job``) and ends (``~job``) in the order they
    happened, from which :attr:`alloc` is computed when asked for.
    ``instants`` counts the event instants processed (one scheduling pass each).
    """

    workload: Workload
    policy: str
    start: list[int]
    machine: list[int]
    finish: list[int]
    events: list[int]
    scheduler_seconds: float
    instants: int = 0

    @cached_property
    def alloc(self) -> list[Spans]:
        """Return each job's CPUs as inclusive ranges ``((lo, hi), ...)`` (queue order)."""
        return allocate(self.workload, self.machine, self.events)

    @cached_property
    def records(self) -> list[JobRecord]:
        """Return one record per job, in queue order (built on first use)."""
        machines = self.workload.machines
        return [
            JobRecord(
                j.id,
                j.submit,
                j.cpus,
                j.requested,
                self.start[i],
                self.finish[i],
                machines[self.machine[i]].id,
                self.alloc[i],
                j.killed(),
                j.deadline,
            )
            for i, j in enumerate(self.workload.jobs)
        ]

    @cached_property
    def columns(self) -> Columns:
        """Return the per-job quantities as columns (queue order), computed in bulk."""
        return Columns.of(self)

    def summary(self) -> dict[str, Any]:
        """Return the run's metrics (the ``--json`` object of ``planner simulate``)."""
        c, wl = self.columns, self.workload
        n = len(c.submit)
        makespan = max(self.finish, default=0) - min(c.submit, default=0)
        busy = sum(c.busy)
        wbusy = sum(c.weighted_busy)
        cap = sum(m.cpus for m in wl.machines) * makespan
        wcap = sum(m.cpus * m.speed for m in wl.machines) * makespan
        waits = c.wait

        def mean(values: list[float]) -> float | None:
            return sum(values) / n if n else None

        return {
            "workload": wl.name,
            "policy": self.policy,
            "machines": len(wl.machines),
            "cpus": wl.total_cpus,
            "jobs": n,
            "dropped": sum(c for _, c in wl.dropped),
            "dropped_by_reason": dict(wl.dropped),
            "killed": sum(c.killed),
            "makespan": makespan,
            "utilisation": busy / cap if cap else None,
            "weighted_utilisation": wbusy / wcap if wcap else None,
            "mean_wait": mean(waits),
            "median_wait": _median(waits) if n else None,
            "mean_slowdown": mean(c.slowdown),
            "mean_bounded_slowdown": mean(c.bounded_slowdown),
            "delayed": sum(c.delayed),
            "with_deadline": n - c.deadline.count(None),
            "instants": self.instants,
            "scheduler_seconds": self.scheduler_seconds,
            "scheduler_seconds_per_job": self.scheduler_seconds / n if n else None,
        }


@dataclass(frozen=True)
class Columns:
    """Per-job quantities of a replay as lists of Python numbers, in queue order.

    The same values as the :class:`JobRecord` properties (wait, response,
    slowdown, bounded slowdown, ...), computed column by column for the whole
    run: integer arithmetic is exact and each quotient is one IEEE division.
    """

    submit: list[int]
    cpus: list[int]
    requested: list[int]
    killed: list[bool]
    deadline: list[int | None]
    duration: list[int]
    wait: list[int]
    response: list[int]
    slowdown: list[float]
    bounded_slowdown: list[float]
    delayed: list[bool]
    busy: list[int]
    weighted_busy: list[float]

    @staticmethod
    def of(replay: Replay) -> Columns:
        """Return the columns of ``replay``.

        Quotients divide floats as numpy did before (``float(response) / duration``:
        the response rounded to a double first), so the outputs keep their bytes.
        """
        wc = replay.workload.columns
        submit, cpus, requested, deadline = wc.submit, wc.cpus, wc.requested, wc.deadline
        start, finish = replay.start, replay.finish
        done = None if _speedups is None else _speedups.job_columns(
            submit, cpus, requested, wc.work, start, finish)  # fmt: skip
        if done is not None:  # the same values, computed in C
            duration, wait, response, busy, slowdown, bounded, killed = done
        else:
            duration = list(map(sub, finish, start))
            response = list(map(sub, finish, submit))
            busy = list(map(mul, cpus, duration))
            wait = list(map(sub, start, submit))
            killed = list(map(gt, wc.work, requested))
        speeds = [m.speed for m in replay.workload.machines]
        if all(s == 1.0 for s in speeds):
            weighted = list(map(float, busy))
        else:
            weighted = list(map(mul, busy, map(speeds.__getitem__, replay.machine)))
        if all(d is None for d in deadline):
            delayed = [False] * len(deadline)
        else:
            delayed = [d is not None and f > d for d, f in zip(deadline, finish, strict=True)]
        if done is None:
            floated = list(map(float, response))
            # max(d, 1), max(d, 10) and max(1.0, q) without a call of max per job (durations >= 0)
            slowdown = list(map(truediv, floated, [d or 1 for d in duration]))
            floor = BSLD_THRESHOLD
            bounded = [q if q > 1.0 else 1.0 for q in
                       map(truediv, floated, [d if d > floor else floor for d in duration])]
        return Columns(
            submit, cpus, requested, killed, deadline, duration,
            wait, response, slowdown, bounded, delayed, busy, weighted,
        )  # fmt: skip


def _median(values: list[int]) -> float:
    """Return the median as :func:`statistics.median` computes it (mean of the middle two)."""
    data = sorted(values)
    half = len(data) // 2
    return data[half] if len(data) % 2 else (data[half - 1] + data[half]) / 2
