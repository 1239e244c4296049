"""The alternatives search for a batch (docs/concepts.md, Toporkov et al. 2011 §2 Figs. 4–6).

Jobs are taken in batch order; each round finds one window per job with the
chosen algorithm on the current slot list and subtracts it (docs/concepts.md), and
rounds repeat until a whole round finds nothing. Alternatives therefore
never share processor time, and replaying them in the order found on the
instance's slots (``validation.check_alternatives``) reproduces the slot
list each was found on. A job that reached ``max_per_job`` alternatives, or
found none in a round, is not searched again (the slot list only shrinks,
so it would find none later either). A first-fit search (AMP, ALP) resumes
at its job's previous start (see ``Algorithm.resumable``). Given a deadline
(:mod:`planner.deadline`), the search stops when it passes and says so
(:attr:`Alternatives.complete`): a batch of very long slots can hold tens of
thousands of alternatives per job.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from instances import Instance, Job
from planner.deadline import Deadline
from planner.heuristics.slotlist import SlotList
from planner.registry import Algorithm, resolve
from planner.window import Window


@dataclass(frozen=True)
class Alternatives:
    """Windows found by the alternatives search, in the order found.

    Parameters
    ----------
    windows
        Every alternative, in the order found (round by round, batch order).
    jobs
        The ids of the jobs searched, in batch order.
    algorithm
        The registry name of the algorithm used.
    complete
        False when a deadline stopped the search before a round found nothing: then
        ``windows`` are the alternatives found until then.
    """

    windows: tuple[Window, ...]
    jobs: tuple[str, ...]
    algorithm: str
    complete: bool = True

    def by_job(self) -> dict[str, list[Window]]:
        """Return job id → its alternatives in the order found (every searched job present)."""
        out: dict[str, list[Window]] = {j: [] for j in self.jobs}
        for w in self.windows:
            out[w.job].append(w)
        return out

    def __len__(self) -> int:
        return len(self.windows)


def find_alternatives(
    instance: Instance,
    algorithm: str,
    *,
    max_per_job: int | None = None,
    jobs: Iterable[Job | str] | None = None,
    seed: int = 0,
    deadline: Deadline | None = None,
) -> Alternatives:
    """Return the disjoint alternatives of the batch found with ``algorithm`` (docs/concepts.md).

    Parameters
    ----------
    instance
        The instance (its slots and geometry).
    algorithm
        A name or alias of :data:`planner.registry.ALGORITHMS`.
    max_per_job
        Optional cap on the alternatives per job (None: until none is found).
    jobs
        The jobs to search (jobs or ids; default: the whole batch), kept in
        batch order.
    seed
        Seed passed to every search (random-subset selector only).
    deadline
        Stop searching when it passes (:attr:`Alternatives.complete` is then False);
        None: search until no job finds a window.
    """
    algo = resolve(algorithm)
    if max_per_job is not None and max_per_job < 0:
        raise ValueError("max_per_job must be >= 0")
    wanted = None if jobs is None else {j if isinstance(j, str) else j.id for j in jobs}
    if wanted is not None:
        for ident in wanted:
            instance.job(ident)
    batch = [j for j in instance.jobs if wanted is None or j.id in wanted]
    free = SlotList(instance.slots, instance.node_index)
    found, complete = _rounds(
        instance, batch, dict.fromkeys((j.id for j in batch), algo), free,
        seed=seed, max_per_job=max_per_job, deadline=deadline,
    )  # fmt: skip
    return Alternatives(tuple(found), tuple(j.id for j in batch), algo.name, complete)


def search_rounds(
    instance: Instance,
    jobs: Sequence[Job],
    algorithms: Mapping[str, Algorithm],
    free: SlotList,
    *,
    seed: int = 0,
    max_per_job: int | None = None,
) -> list[Window]:
    """Run the rounds of the alternatives search on ``free`` (subtracting); return the windows.

    Each job searches with ``algorithms[job.id]`` (one algorithm for the whole
    batch in :func:`find_alternatives`; each job's own criterion in the VO
    flows of docs/vo-flows.md). A first-fit search resumes at its job's
    previous start.
    """
    return _rounds(instance, jobs, algorithms, free, seed=seed, max_per_job=max_per_job)[0]


def _rounds(
    instance: Instance,
    jobs: Sequence[Job],
    algorithms: Mapping[str, Algorithm],
    free: SlotList,
    *,
    seed: int = 0,
    max_per_job: int | None = None,
    deadline: Deadline | None = None,
) -> tuple[list[Window], bool]:
    """Return :func:`search_rounds`'s windows, and False if ``deadline`` stopped it first."""
    found: list[Window] = []
    count = dict.fromkeys((j.id for j in jobs), 0)
    active = [j for j in jobs if max_per_job is None or max_per_job > 0]
    resume: dict[str, int] = {}
    while active:
        still: list[Job] = []
        for job in active:
            if deadline is not None and deadline.passed():
                return found, False
            algo = algorithms[job.id]
            if algo.resumable and job.id in resume:
                slots = list(free.slots_from(resume[job.id]))
            else:
                slots = free.slots()
            window = algo.solve(instance, job, slots=slots, seed=seed)
            if window is None:
                continue
            found.append(window)
            resume[job.id] = window.start
            for p in window.placements:
                free.subtract(p.node, p.start, p.end)
            count[job.id] += 1
            if max_per_job is None or count[job.id] < max_per_job:
                still.append(job)
        active = still
    return found, True
