"""The machine state a policy sees and acts on during a replay (Klusáček & Rudová 2008).

:class:`Cluster` is the engine's side of the policy interface: free CPU counts
per machine, the running jobs with their *planned* ends, the jobs' planned
durations per machine, and :meth:`Cluster.start`. It never shows a policy a
job's actual run time: a job's end is learnt when it completes. Every start is
checked against the rules of the model (capacity, submitted, waiting), so a
policy cannot produce an infeasible schedule silently.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable
from heapq import heappush

from instances.workload import Workload

try:  # optional C speedups; allocate's Python code is the reference and the fallback
    from planner.cluster import _speedups
except ImportError:  # pragma: no cover - a build without a C compiler
    _speedups = None

Spans = tuple[tuple[int, int], ...]
"""CPU numbers as sorted, disjoint, non-adjacent inclusive ranges ``((lo, hi), ...)``."""


class InvariantError(RuntimeError):
    """A policy broke a rule of the cluster model (a bug in the policy, never bad input)."""


def take(free: list[tuple[int, int]], k: int) -> Spans:
    """Remove the ``k`` lowest-numbered CPUs from the ranges ``free`` (in place); return them.

    Work is proportional to the number of ranges, never to the CPU count.
    """
    lo, hi = free[0]
    if hi - lo >= k:  # the first range holds them: most starts
        if hi - lo == k - 1:
            del free[0]
        else:
            free[0] = (lo + k, hi)
        return ((lo, lo + k - 1),)
    taken = []
    i = 0
    while k > 0:
        lo, hi = free[i]
        size = hi - lo + 1
        if size > k:
            taken.append((lo, lo + k - 1))
            free[i] = (lo + k, hi)
            break
        taken.append((lo, hi))
        k -= size
        i += 1
    del free[:i]
    return tuple(taken)


def give(free: list[tuple[int, int]], back: Spans) -> None:
    """Put the ranges ``back`` into ``free`` (in place), merging adjacent ranges."""
    for lo, hi in back:
        i = bisect_left(free, (lo,))
        if i and free[i - 1][1] + 1 == lo:
            i -= 1
            lo = free[i][0]
            if i + 1 < len(free) and free[i + 1][0] == hi + 1:
                hi = free[i + 1][1]
                del free[i + 1]
            free[i] = (lo, hi)
        elif i < len(free) and free[i][0] == hi + 1:
            free[i] = (lo, free[i][1])
        else:
            free.insert(i, (lo, hi))


def allocate(workload: Workload, machine: list[int], events: list[int]) -> list[Spans]:
    """Return each job's CPUs, replaying the starts and ends of ``events`` on free-CPU ranges.

    ``events`` lists, in the order they happened, ``job`` for a start and ``~job``
    for an end. A job gets the lowest-numbered free CPUs of its machine at its
    start. Computed after the replay, when the CPUs are asked for.
    """
    free = [[(o, o + m.cpus - 1)] for o, m in
            zip(workload.cpu_offsets(), workload.machines, strict=True)]  # fmt: skip
    cpus = workload.columns.cpus
    if _speedups is not None:  # the same ranges, replayed in C (None: left to Python)
        done = _speedups.allocate([f[0] for f in free], cpus, machine, events)
        if done is not None:
            return done
    alloc: list[Spans] = [()] * len(cpus)
    for e in events:  # take() and give() inline for one range, the common case
        if e >= 0:
            fr, k = free[machine[e]], cpus[e]
            lo, hi = fr[0]
            if hi - lo >= k:
                if hi - lo == k - 1:
                    del fr[0]
                else:
                    fr[0] = (lo + k, hi)
                alloc[e] = ((lo, lo + k - 1),)
            else:
                alloc[e] = take(fr, k)
            continue
        e = ~e
        spans, fr = alloc[e], free[machine[e]]
        if len(spans) > 1 or not fr:
            give(fr, spans)
            continue
        lo, hi = spans[0]
        i = bisect_left(fr, (lo,))
        if i and fr[i - 1][1] + 1 == lo:
            if i < len(fr) and fr[i][0] == hi + 1:
                fr[i - 1] = (fr[i - 1][0], fr[i][1])
                del fr[i]
            else:
                fr[i - 1] = (fr[i - 1][0], hi)
        elif i < len(fr) and fr[i][0] == hi + 1:
            fr[i] = (lo, fr[i][1])
        else:
            fr.insert(i, (lo, hi))
    return alloc


class Cluster:
    """Machines, waiting and running jobs during one replay.

    Jobs are named by their index in queue order (``workload.jobs``); machines by
    their index in machine order.

    Attributes
    ----------
    workload
        The replayed workload (``estimates`` already applied).
    cpus
        R_j per job.
    capacity
        R_m per machine.
    free
        Free CPUs per machine now.
    idle
        Free CPUs on all machines now.
    planned
        ``planned[m][j]`` = ceil(e_j / s_m), the duration policies plan with.
    running
        Per machine, the running jobs as a sorted list of ``(planned_end, job)``.
    now
        The current instant.
    """

    def __init__(self, workload: Workload, planned: list[list[int]],
                 actual: list[list[int]], *, running: bool = True) -> None:  # fmt: skip
        n = len(workload.columns.id)
        self.workload = workload
        self.cpus = workload.columns.cpus
        self.capacity = [m.cpus for m in workload.machines]
        self.free = list(self.capacity)
        self.idle = sum(self.capacity)
        self.planned = planned
        self._actual = actual
        self.running: list[list[tuple[int, int]]] = [[] for _ in workload.machines]
        self.tracks_running = running
        """Whether ``running`` is kept (False: a policy that never reads it)."""
        self.now = 0
        self.submitted = 0
        self.start_time = [-1] * n
        self.machine = [-1] * n
        self.planned_end = [-1] * n
        self.finish = [-1] * n
        self.ends: list[tuple[int, int]] = []
        """Heap of (actual end, job) of the running jobs (the engine pops it)."""
        self.events: list[int] = []
        """``job`` at each start, ``~job`` at each end, in order (for :func:`allocate`)."""
        self._ended_at_start: Callable[[int], None] = lambda job: None

    def fits_now(self, job: int) -> int:
        """Return the first machine where ``job`` fits now, or -1."""
        need = self.cpus[job]
        for m, free in enumerate(self.free):
            if free >= need:
                return m
        return -1

    def start(self, job: int, m: int) -> None:
        """Start ``job`` now on machine ``m`` (its lowest-numbered free CPUs).

        A job of actual duration 0 ends at once (its CPUs were free to start it).

        Raises
        ------
        InvariantError
            The job is not waiting (not yet submitted, or already started) or
            does not fit on ``m`` now.
        """
        now, need = self.now, self.cpus[job]
        if job >= self.submitted or self.start_time[job] >= 0:
            raise InvariantError(f"job {self.workload.columns.id[job]} is not waiting at {now}")
        if self.free[m] < need:
            raise InvariantError(
                f"job {self.workload.columns.id[job]} needs {need} CPUs on machine "
                f"{self.workload.machines[m].id} at {now}, {self.free[m]} free"
            )
        self.start_time[job] = now
        self.machine[job] = m
        self.events.append(job)
        run = self._actual[m][job]
        if run:
            self.free[m] -= need
            self.idle -= need
            heappush(self.ends, (now + run, job))
            if self.tracks_running:
                planned_end = self.planned_end[job] = now + self.planned[m][job]
                insort(self.running[m], (planned_end, job))
        else:
            self.events.append(~job)
            self.finish[job] = now
            self._ended_at_start(job)
