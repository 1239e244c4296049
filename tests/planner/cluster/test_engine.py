"""The event loop's own checks: a broken policy is stopped; progress; the policy interface."""

from __future__ import annotations

import pytest

from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import InvariantError, Policy, simulate

TWO_JOBS = Workload((Machine("m", 2),), (ClusterJob("a", 0, 2, 5), ClusterJob("b", 3, 1, 5)))


class Greedy(Policy):
    """Starts every job the moment it arrives on machine 0, fitting or not (a bug)."""

    name = "greedy"

    def submit(self, job: int) -> None:
        """Start at once."""
        self.cluster.start(job, 0)

    def schedule(self) -> None:
        """Nothing left to do."""


class Idle(Policy):
    """Never starts anything (a bug)."""

    name = "idle"

    def submit(self, job: int) -> None:
        """Ignore the job."""

    def schedule(self) -> None:
        """Do nothing."""


class Early(Policy):
    """Starts job 1 before it is submitted (a bug)."""

    name = "early"

    def submit(self, job: int) -> None:
        """Try to start the next job too."""
        self.cluster.start(job + 1 if job + 1 < len(self.cluster.cpus) else job, 0)

    def schedule(self) -> None:
        """Do nothing."""


@pytest.mark.parametrize(
    ("policy", "fragment"),
    [
        (Greedy, "needs 1 CPUs on machine m at 3, 0 free"),  # over capacity
        (Idle, "left jobs waiting for ever"),  # starvation
        (Early, "is not waiting"),  # a start before the submission
    ],
)
def test_broken_policies_are_stopped(policy: type[Policy], fragment: str) -> None:
    """The engine checks every start and the end of the replay (InvariantError)."""
    with pytest.raises(InvariantError, match=fragment):
        simulate(TWO_JOBS, policy)


def test_a_policy_class_plugs_in() -> None:
    """A Policy subclass is accepted by simulate() like a registered name."""

    class FirstFit(Policy):
        name = "first-fit"

        def __init__(self, cluster, *, log=None) -> None:  # type: ignore[no-untyped-def]
            super().__init__(cluster, log=log)
            self.waiting: list[int] = []

        def submit(self, job: int) -> None:
            self.waiting.append(job)

        def schedule(self) -> None:
            for job in list(self.waiting):
                m = self.cluster.fits_now(job)
                if m >= 0:
                    self.cluster.start(job, m)
                    self.waiting.remove(job)

    replay = simulate(TWO_JOBS, FirstFit)
    assert [(r.start, r.finish) for r in replay.records] == [(0, 5), (5, 10)]
    assert replay.policy == "first-fit"


def test_progress_every_hundred_completions() -> None:
    """The progress callback sees 100, 200 for 250 jobs."""
    jobs = tuple(ClusterJob(f"j{i}", i, 1, 1) for i in range(250))
    seen: list[int] = []
    simulate(Workload((Machine("m", 1),), jobs), "fcfs", progress=seen.append)
    assert seen == [100, 200]


def test_unknown_policy_name() -> None:
    """A name outside the registry is a DataError naming the choices."""
    from instances import DataError

    with pytest.raises(DataError, match="fcfs, easy, conservative"):
        simulate(TWO_JOBS, "sjf")


def test_cpu_ranges_take_and_give_back() -> None:
    """take() hands out the lowest-numbered CPUs as ranges; give() merges them back (in place)."""
    from planner.cluster.cluster import give, take

    free = [(0, 3), (8, 9)]
    taken = take(free, 5)
    assert taken == ((0, 3), (8, 8)) and free == [(9, 9)]
    give(free, taken)
    assert free == [(0, 3), (8, 9)]
    free = [(5, 9)]
    give(free, ((0, 4),))  # joins the range after it
    assert free == [(0, 9)]
    assert take(free, 10) == ((0, 9),) and free == []
    free = [(0, 1), (6, 7)]
    give(free, ((2, 5),))  # joins both neighbours
    assert free == [(0, 7)]
    free = [(0, 1), (9, 9)]
    give(free, ((3, 4),))  # joins neither
    give(free, ((2, 2),))  # joins the one before and the one after
    assert free == [(0, 4), (9, 9)]


def test_allocation_from_the_event_order() -> None:
    """allocate() replays starts and ends: an end frees CPUs for the next start, in order."""
    from planner.cluster.cluster import allocate

    wl = Workload((Machine("m", 4), Machine("n", 2)), tuple(
        ClusterJob(x, 0, c, 5) for x, c in (("a", 2), ("b", 1), ("c", 2), ("d", 2))))
    # a and b start on m, a ends, c starts on m (CPUs 0-1 again), d on n (CPUs 4-5)
    alloc = allocate(wl, [0, 0, 0, 1], [0, 1, ~0, 2, 3])
    assert alloc == [((0, 1),), ((2, 2),), ((0, 1),), ((4, 5),)]


def test_machine_of_max_cpus_replays_without_per_cpu_memory() -> None:
    """A machine of 2^31 - 1 CPUs (the limit) replays; allocations are ranges."""
    w = Workload((Machine("m", 2**31 - 1),), (ClusterJob("a", 0, 2**31 - 2, 5),
                                             ClusterJob("b", 1, 1, 5)))  # fmt: skip
    rec = {r.id: r for r in simulate(w, "easy").records}
    assert rec["a"].cpu_spans == ((0, 2**31 - 3),) and rec["b"].cpu_spans == ((2**31 - 2,) * 2,)
