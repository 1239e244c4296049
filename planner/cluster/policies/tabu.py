"""Tabu search on the EG-EDF schedule (Klusáček & Rudová 2008, Algorithms 3 and 4).

Jobs enter the schedule by EG-EDF (:mod:`planner.cluster.policies.egedf`);
every ``every`` events (scheduling passes with a submission or a completion),
or at the first pass ``period`` seconds after the previous run when
``period`` > 0, the waiting part of the schedule is optimised by
``iterations`` + ``per_job`` × (waiting jobs) iterations (Alea runs its Tabu
search every 300 s with 2 iterations per waiting job: ``period=300,
iterations=0, per_job=2``):

* the **source** is the machine not in ``machines_used`` with the most delayed
  waiting jobs (ties: the first); when every machine is used the list is
  cleared and the iteration ends (Algorithm 3 lines 3–7);
* its last job not in the tabu list is taken out (the jobs after it shift
  left); when it has none, the machine joins ``machines_used`` (lines 8–12);
* **MoveJob** (Algorithm 4) tries the machines in a random order (a seeded
  permutation per call): the job goes into the earliest gap of the first
  machine where a gap holds it and the AcceptanceCriterion prefers the
  result to the current schedule; otherwise the job returns where it was.
  A gap ends by the machine's planned completion; with ``tail`` it may also
  be the open end of the machine's list (Alea's ``findHoleForGridlet`` ends
  its gap list with an unbounded one);
* the job enters the tabu list (the oldest leaves when it holds ``tabu_size``).

Running jobs are never moved. Same seed, same replay. Every option is
bounded (:mod:`instances.limits`): ``iterations`` <= 10^5, ``per_job`` <= 100,
``period`` <= 10^12 s, so one run costs at most 10^5 + 100 × (waiting jobs)
iterations.
"""

from __future__ import annotations

import random
from collections import OrderedDict

from instances.limits import (
    CLUSTER_TIME_MAX,
    OPTION_COUNT_MAX,
    OPTION_ITERATIONS_MAX,
    OPTION_PER_JOB_MAX,
    SEED_MAX,
)
from planner.cluster.cluster import Cluster
from planner.cluster.policies.egedf import EgEdf
from planner.cluster.policies.options import count, flag, real
from planner.cluster.reservations import ReservationLog
from planner.cluster.schedule import MachineSchedule, acceptance, makespan, nondelayed

ITERATIONS = 10
"""Default iterations per Tabu run (the paper does not state its value)."""
TABU_SIZE = 10
"""Default tabu list length."""
EVERY = 1
"""Default: run Tabu search at every event (a pass with a submission or a completion)."""


class Tabu(EgEdf):
    """EG-EDF plus periodic Tabu search over the waiting jobs.

    Parameters
    ----------
    iterations, tabu_size, every
        Iterations per run, tabu list length, events between runs.
    all_jobs
        N of the AcceptanceCriterion counts started jobs too (see :class:`EgEdf`).
    period, per_job
        Seconds between runs (0: by events); extra iterations per waiting job.
    tail
        MoveJob may also append the job to a machine's list.
    seed
        Seed of the machine permutations of MoveJob.
    """

    name = "tabu"
    summary = "Tabu search (schedule-based): EG-EDF, then late jobs moved into earlier gaps"

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None,
                 iterations: int = ITERATIONS, tabu_size: int = TABU_SIZE, every: int = EVERY,
                 seed: int = 0, all_jobs: bool = True, period: float = 0.0,
                 per_job: float = 0.0, tail: bool = False) -> None:  # fmt: skip
        super().__init__(cluster, log=log, all_jobs=all_jobs)
        name = self.name
        iterations = count(name, "iterations", iterations, 0, OPTION_ITERATIONS_MAX)
        tabu_size = count(name, "tabu_size", tabu_size, 1, OPTION_COUNT_MAX)
        every = count(name, "every", every, 1, OPTION_COUNT_MAX)
        seed = count(name, "seed", seed, 0, SEED_MAX)
        period = real(name, "period", period, 0.0, CLUSTER_TIME_MAX)
        per_job = real(name, "per_job", per_job, 0.0, OPTION_PER_JOB_MAX)
        tail = flag(name, "tail", tail)
        self.iterations, self.tabu_size, self.every = iterations, tabu_size, every
        self.period, self.per_job, self.tail = float(period), float(per_job), bool(tail)
        self.next_run = 0.0
        self.rng = random.Random(seed)
        self.events = 0
        self.moves = 0
        self.trace: list[tuple[object, ...]] | None = None
        """Set to a list to record each iteration's steps (tests and debugging)."""
        self._event = False

    def submit(self, job: int) -> None:
        """Add ``job`` by EG-EDF and count the event."""
        super().submit(job)
        self._event = True

    def complete(self, job: int) -> None:
        """Free the job's rest and count the event."""
        super().complete(job)
        self._event = True

    def optimise(self) -> None:
        """Run Tabu search every ``every`` events, or every ``period`` seconds when it is > 0."""
        if self.period > 0:
            now = self.cluster.now
            if now < self.next_run:
                return
            self.next_run = now + self.period
        else:
            if not self._event:
                return
            self._event = False
            self.events += 1
            if self.events % self.every:
                return
        waiting = sum(len(s.jobs) for s in self.schedules)
        self.search(self.iterations + round(self.per_job * waiting))

    def search(self, iterations: int) -> int:
        """Run Algorithm 3 for ``iterations`` iterations; return the number of accepted moves."""
        scheds = self.schedules
        tabu: OrderedDict[int, None] = OrderedDict()
        used: set[int] = set()
        moved = 0
        best = (makespan(scheds), nondelayed(scheds) + self.settled)
        top = _top2(scheds)
        for _ in range(iterations):
            source = None
            for s in scheds:
                if s.m not in used and (source is None or s.delayed > source.delayed):
                    source = s
            if source is None:
                used.clear()
                self._note("reset")
                continue
            k = source.last_non_tabu(tabu)
            if k < 0:
                used.add(source.m)
                self._note("used", source.m)
                continue
            src = source.copy()
            job = src.remove(k)
            others = top[0][0] if top[0][1] != source.m else top[1][0]
            ok = self.move_job(job, source, src, best, others)
            if ok:
                moved += 1
                best = (makespan(scheds), nondelayed(scheds) + self.settled)
                top = _top2(scheds)
            tabu[job] = None
            evicted = tabu.popitem(last=False)[0] if len(tabu) > self.tabu_size else None
            self._note("moved" if ok else "kept", source.m, job, evicted)
        self.moves += moved
        return moved

    def _note(self, *step: object) -> None:
        if self.trace is not None:
            self.trace.append(step)

    def move_job(self, job: int, source: MachineSchedule, src: MachineSchedule,
                 best: tuple[int, int], others: int) -> bool:  # fmt: skip
        """Algorithm 4: move ``job`` (already out of ``src``) into an accepted gap; True if moved.

        ``best`` is the current schedule's (makespan, non-delayed jobs); ``others``
        the latest planned completion of the machines other than ``source``.
        """
        scheds = self.schedules
        end = max(others, src.end)
        without = best[1] - (len(source.jobs) - source.delayed) + (len(src.jobs) - src.delayed)
        if not acceptance(best, (end, without + 1)):
            return False  # not even an on-time placement would be accepted
        now, planned = self.cluster.now, self.cluster.planned
        order = list(range(len(scheds)))
        self.rng.shuffle(order)
        for m in order:
            s = src if m == source.m else scheds[m]
            if not s.suitable(job):
                continue
            if self.tail:  # any idle time, the open end of the list included
                t = s.profile.earliest(self.cluster.cpus[job], s.hold(job), now)
                makespan_new = max(end, t + s.hold(job))
            elif s.end - now < planned[m][job] or (t := s.gap(job)) is None:
                continue
            else:
                makespan_new = end
            on_time = t + planned[m][job] <= self.deadline[job]
            if acceptance(best, (makespan_new, without + on_time)):
                scheds[source.m] = src
                s.place(job, t)
                return True
        return False


def _top2(scheds: list[MachineSchedule]) -> list[tuple[int, int]]:
    """Return the two largest (end, machine) pairs, padded with (0, -1)."""
    return [*sorted(((s.end, s.m) for s in scheds), reverse=True), (0, -1), (0, -1)][:2]
