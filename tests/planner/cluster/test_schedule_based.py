"""Seed 001 Algorithms 1-4 (EG-EDF, AcceptanceCriterion, Tabu search, MoveJob) and Flexible
backfilling on hand-built schedules, plus random replays through the independent checker."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import simulate
from planner.cluster.cluster import Cluster
from planner.cluster.durations import durations
from planner.cluster.policies import EgEdf, Flex, Tabu
from planner.cluster.schedule import acceptance
from tests.planner.cluster.helpers import run_checked
from tests.planner.cluster.test_invariants import random_workload


def cluster_of(machines: list[Machine], jobs: list[ClusterJob]) -> Cluster:
    """Return the engine's machine state at time 0 with every job submitted."""
    wl = Workload(tuple(machines), tuple(jobs))
    planned, actual = durations(wl)
    c = Cluster(wl, planned, actual)
    c.submitted = len(jobs)
    return c


def j(i: int, cpus: int, work: int, deadline: int | None = None) -> ClusterJob:
    """Job ``j<i>`` submitted at 0."""
    return ClusterJob(f"j{i}", 0, cpus, work, deadline=deadline)


def two_machines() -> tuple[Cluster, EgEdf]:
    """m0 (2 CPUs): j0 (1 CPU) on [0, 10), j1 (2 CPUs) on [10, 20): a 1-CPU gap on [0, 10).

    m1 (2 CPUs) is empty. j2 (1 CPU, 5 s) fits the gap; j3 (2 CPUs, 5 s, deadline 8) does not.
    """
    jobs = [j(0, 1, 10, 100), j(1, 2, 10, 200), j(2, 1, 5), j(3, 2, 5, 8)]
    c = cluster_of([Machine("m0", 2), Machine("m1", 2)], jobs)
    pol = EgEdf(c)
    pol.schedules[0].insert(0, 0)
    pol.schedules[0].insert(1, 1)
    return c, pol


def test_machine_schedule_lists_gaps() -> None:
    """The hand-built m0 plans j0 at 0 and j1 at 10; a 5 s job fits the gap, a 15 s one does not."""
    _, pol = two_machines()
    s = pol.schedules[0]
    assert (s.jobs, s.starts, s.end) == ([0, 1], [0, 10], 20)
    assert s.gap(2) == 0  # 1 CPU free on [0, 10)
    assert s.gap(3) is None  # 2 CPUs are never free before 20
    assert pol.schedules[1].gap(2) is None  # an empty schedule has no gap


def test_egedf_puts_a_job_into_the_earliest_gap() -> None:
    """Algorithm 1, EG: j2 goes into m0's gap at 0; m0's other jobs do not move."""
    _, pol = two_machines()
    pol.add(2)
    s = pol.schedules[0]
    assert (s.jobs, s.starts, s.end) == ([0, 2, 1], [0, 0, 10], 20)
    assert pol.schedules[1].jobs == []


def test_edf_insertion_shifts_later_deadlines() -> None:
    """EDF: j3 (deadline 8) goes before j0 (deadline 100); j0 and j1 shift right by 5 s."""
    _, pol = two_machines()
    s = pol.schedules[0].copy()
    assert s.edf_position(3) == 0
    s.insert(3, s.edf_position(3))
    assert (s.jobs, s.starts, s.end) == ([3, 0, 1], [0, 5, 15], 25)
    assert pol.schedules[0].starts == [0, 10]  # the copy is independent


def test_egedf_accepts_the_better_edf_candidate() -> None:
    """No gap holds j3: m0's EDF candidate (makespan 25) loses to m1's (makespan 20)."""
    _, pol = two_machines()
    pol.add(3)
    assert pol.schedules[0].jobs == [0, 1]
    assert (pol.schedules[1].jobs, pol.schedules[1].starts) == ([3], [0])


def test_egedf_stops_trying_edf_after_a_gap() -> None:
    """Algorithm 1 line 8: m1 is empty (EDF would start j2 at 0) but m0's gap came first."""
    _, pol = two_machines()
    pol.add(2)
    assert 2 in pol.schedules[0].jobs and not pol.schedules[1].jobs


@pytest.mark.parametrize(
    ("best", "new", "accepted"),
    [
        (None, (50, 0), True),  # no schedule yet: always accepted (Algorithm 2 line 1)
        ((10, 5), (10, 5), False),  # equal: weight 0 is not > 0
        ((10, 5), (9, 5), True),  # shorter makespan
        ((10, 5), (11, 5), False),  # longer makespan
        ((10, 5), (11, 6), True),  # -0.1 + 0.2 > 0
        ((10, 2), (12, 3), True),  # -0.2 + 0.5 > 0
        ((10, 5), (13, 6), False),  # -0.3 + 0.2 < 0
        ((10, 0), (10, 1), True),  # zero non-delayed before: a gain counts +1
        ((10, 0), (11, 1), True),  # -0.1 + 1 > 0
        ((10, 0), (10, 0), False),  # 0 / 0 counts 0
        ((0, 3), (5, 3), False),  # zero makespan before, longer now: -5 / 1e-13
        ((0, 0), (0, 0), False),  # both terms 0 / 0
        ((10, 0), (25, 1), True),  # a gain from zero non-delayed outweighs -1.5 (x / 1e-13)
        ((0, 5), (1, 15), False),  # a loss from zero makespan outweighs +2
    ],
)
def test_acceptance_criterion(best: tuple[int, int] | None, new: tuple[int, int],
                              accepted: bool) -> None:  # fmt: skip
    """Algorithm 2 with Alea's zero-division guard: a denominator is at least 1e-13."""
    assert acceptance(best, new) is accepted


def tradeoff(all_jobs: bool) -> EgEdf:
    """m0 plans x (5 s, deadline 1: late) then would run y late at [5, 15) (makespan 30).

    m1 plans z (30 s, no deadline); EDF puts y (10 s, deadline 10) first: on time, but z
    shifts to [10, 40). With all_jobs, 100 started jobs have met their deadlines.
    """
    jobs = [j(0, 1, 5, 1), j(1, 1, 10, 10), j(2, 1, 30)]
    c = cluster_of([Machine("m0", 1), Machine("m1", 1)], jobs)
    pol = EgEdf(c, all_jobs=all_jobs)
    pol.settled = 100 if all_jobs else 0
    pol.schedules[0].insert(0, 0)
    pol.schedules[1].insert(2, 0)
    pol.add(1)
    return pol


def test_nondelayed_count_over_all_jobs_weighs_deadlines_less() -> None:
    """m1's candidate: N 1 -> 2 beats makespan 30 -> 40 over waiting jobs (-1/3 + 1 > 0),
    not over all jobs (-1/3 + 1/101 < 0), so y stays on m0."""
    assert tradeoff(all_jobs=False).schedules[1].jobs == [1, 2]
    assert tradeoff(all_jobs=True).schedules[0].jobs == [0, 1]


def test_settled_counts_started_jobs_meeting_their_deadline() -> None:
    """all_jobs: a started job counts when planned on time; an early end can make it count."""
    jobs = [ClusterJob("a", 0, 1, 4, deadline=5), ClusterJob("b", 0, 1, 4, deadline=5),
            ClusterJob("c", 0, 1, 2, estimate=9, deadline=10), ClusterJob("d", 0, 1, 3)]
    seen: list[tuple[int, int]] = []

    class Audited(EgEdf):
        def schedule(self) -> None:
            super().schedule()
            seen.append((self.cluster.now, self.settled))

    simulate(Workload((Machine("m0", 1),), tuple(jobs)), Audited)
    # 0: a starts, planned [0, 4) on time -> 1; 4: b starts, [4, 8) late; 8: c starts,
    # planned [8, 17) late; 10: c ends early, on time -> 2, and d (no deadline) starts -> 3
    assert seen == [(0, 1), (4, 1), (8, 1), (10, 3), (13, 3)]


def tabu_fixture() -> tuple[Cluster, Tabu]:
    """m0 (1 CPU): j0 [0, 10) deadline 10, j1 [10, 20) deadline 16 (delayed).

    m1 (2 CPUs): j2 (2 CPUs) [0, 5), j3 (1 CPU) [5, 25): one CPU idle on [5, 25).
    """
    jobs = [j(0, 1, 10, 10), j(1, 1, 10, 16), j(2, 2, 5), j(3, 1, 20)]
    c = cluster_of([Machine("m0", 1), Machine("m1", 2)], jobs)
    pol = Tabu(c, tabu_size=1, seed=3)
    for job, m in ((0, 0), (1, 0), (2, 1), (3, 1)):
        s = pol.schedules[m]
        s.insert(job, len(s.jobs))
    return c, pol


def test_tabu_moves_the_last_job_of_the_most_delayed_machine() -> None:
    """Algorithm 3: source m0 (1 delayed), job j1; MoveJob puts it into m1's gap at 5 (on time)."""
    _, pol = tabu_fixture()
    assert (pol.schedules[0].delayed, pol.schedules[1].delayed) == (1, 0)
    pol.trace = []
    assert pol.search(1) == 1
    assert pol.trace == [("moved", 0, 1, None)]
    assert (pol.schedules[0].jobs, pol.schedules[1].jobs) == ([0], [2, 3, 1])  # ties: later
    assert pol.schedules[1].starts == [0, 5, 5]
    assert pol.schedules[0].delayed + pol.schedules[1].delayed == 0


def test_tabu_list_evicts_the_oldest_and_machines_used_resets() -> None:
    """tabu_size 1: the list holds one job; machines with only tabu jobs join machines_used."""
    _, pol = tabu_fixture()
    pol.trace = []
    pol.search(6)
    # 1: j1 moves into m1's gap. 2: source m0 (first of equal counts), j0 stays; j0 enters the
    # list and evicts j1. 3: m0's only job j0 is tabu -> m0 used. 4: source m1, last non-tabu
    # job j1 stays, evicts j0. 5: j1 is tabu, so j3, evicts j1. 6: j1 again, evicts j3.
    assert pol.trace == [
        ("moved", 0, 1, None),
        ("kept", 0, 0, 1),
        ("used", 0),
        ("kept", 1, 1, 0),
        ("kept", 1, 3, 1),
        ("kept", 1, 1, 3),
    ]
    empty = Tabu(cluster_of([Machine("a", 1), Machine("b", 1)], [j(0, 1, 1)]))
    empty.trace = []
    empty.search(4)
    assert empty.trace == [("used", 0), ("used", 1), ("reset",), ("used", 0)]


def test_tabu_tail_option_moves_a_job_to_the_open_end_of_a_list() -> None:
    """m0 (1 CPU): j0 [0, 10), j1 [10, 20) deadline 16 (delayed); m1 is empty, so it has no
    gap. Only with tail may MoveJob put j1 at m1's open end: on time, makespan 20 -> 10."""
    for tail, expected in ((False, ([0, 1], [])), (True, ([0], [1]))):
        jobs = [j(0, 1, 10, 10), j(1, 1, 10, 16)]
        pol = Tabu(cluster_of([Machine("m0", 1), Machine("m1", 1)], jobs), tail=tail)
        for job in (0, 1):
            pol.schedules[0].insert(job, job)
        assert pol.search(1) == int(tail)
        assert (pol.schedules[0].jobs, pol.schedules[1].jobs) == expected
        assert pol.schedules[1].starts == ([0] if tail else [])


def test_tabu_period_and_per_job_set_when_and_how_long_it_runs() -> None:
    """period=300, iterations=1, per_job=2: a run at the first pass 300 s or more after the
    previous run, of 1 + 2 x (waiting jobs) iterations; passes in between do not run."""
    _, pol = tabu_fixture()
    pol.period, pol.iterations, pol.per_job = 300.0, 1, 2.0
    runs: list[tuple[int, int]] = []
    pol.search = lambda n: runs.append((pol.cluster.now, n)) or 0  # type: ignore[method-assign]
    for now in (0, 100, 299, 350, 600, 649, 650):
        pol.cluster.now = now
        pol.optimise()
    assert runs == [(0, 9), (350, 9), (650, 9)]  # 4 waiting jobs: 1 + 8


def test_early_completion_shifts_the_machine_left() -> None:
    """j0 planned 10 s ends at 4: m0's next job moves from 10 to 4 when m0 is re-planned."""
    jobs = [ClusterJob("a", 0, 1, 4, estimate=10), ClusterJob("b", 0, 1, 5)]
    replay = simulate(Workload((Machine("m0", 1),), tuple(jobs)), "egedf")
    assert replay.start == [0, 4]


@pytest.mark.parametrize(
    ("policy", "options"),
    [
        ("flex", {}),
        ("egedf", {}),
        ("egedf", {"all_jobs": 0}),  # N over waiting jobs only
        ("tabu", {}),
        ("tabu", {"tail": 1, "all_jobs": 0}),  # MoveJob onto open list ends
        ("tabu", {"period": 7, "iterations": 0, "per_job": 2}),  # Alea-style periodic runs
    ],
)
def test_random_workloads_pass_the_checker(policy: str, options: dict[str, int],
                                           tmp_path: Path) -> None:  # fmt: skip
    """Random small workloads with deadlines, kills and zero lengths: no checker violation."""
    for seed in range(150):
        wl = random_workload(seed)
        rng = random.Random(seed)
        jobs = tuple(replace(x, deadline=x.submit + rng.randint(0, 40)) if rng.random() < 0.7
                     else x for x in wl.jobs)  # fmt: skip
        run_checked(replace(wl, jobs=jobs), policy, tmp_path, **options)


def test_tabu_is_deterministic_for_a_seed() -> None:
    """Same seed, same starts and machines; the replay uses the seed through MoveJob only."""
    from instances.generators.registry import generate_workload

    wl = generate_workload("klusacek2008", 4, machines=6, jobs=80, interarrival=20.0)
    a = simulate(wl, "tabu", seed=5)
    b = simulate(wl, "tabu", seed=5)
    assert (a.start, a.machine) == (b.start, b.machine)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": -1}, "iterations"),  # negative iteration count
        ({"tabu_size": 0}, "tabu_size"),  # an empty tabu list
        ({"every": 0}, "every"),  # runs every 0 events
        ({"period": -1.0}, "period"),  # a negative period
        ({"per_job": float("inf")}, "per_job"),  # unbounded iterations
        ({"tail": 2}, "tail"),  # a flag that is not 0 or 1
        ({"all_jobs": 2}, "all_jobs"),  # a flag that is not 0 or 1
    ],
)
def test_tabu_rejects_bad_parameters(options: dict[str, float], message: str) -> None:
    """Bad Tabu parameters raise ValueError naming the parameter."""
    c = cluster_of([Machine("m0", 1)], [j(0, 1, 1)])
    with pytest.raises(ValueError, match=message):
        Tabu(c, **options)


def test_flex_orders_by_deadline_wait_and_run_time() -> None:
    """Priorities at t = 10 over three waiting jobs, each term hand-computed."""
    jobs = [
        ClusterJob("old", 0, 1, 100),  # waited 10 s (longest), longest run, no deadline
        ClusterJob("urgent", 5, 1, 50, deadline=70),  # slack 70 - 10 - 50 = 10 (least)
        ClusterJob("short", 10, 1, 10, deadline=200),  # slack 180 (most), shortest run
    ]
    c = cluster_of([Machine("m0", 1)], jobs)
    c.now = 10
    pol = Flex(c)
    # old: D 0, W 1, S 0 -> 1; urgent: D 1, W 0.5, S 50/90 -> 2.0556; short: D 0, W 0, S 1 -> 1
    assert pol.priorities([0, 1, 2]) == pytest.approx([1.0, 1.0 + 0.5 + 50 / 90, 1.0])
    for k in range(3):
        pol.submit(k)
    pol.schedule()
    assert c.start_time[1] == 10 and pol.queue[pol.head:] == [0, 2]  # ties in queue order


@pytest.mark.parametrize("policy", ["egedf", "tabu"])
def test_cli_real_trace_with_synthetic_deadlines(
    policy: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """First 300 jobs of the bundled HPC2N log with swf-workload deadlines: simulate, check."""
    from planner.cli import main

    flow, jobs = tmp_path / "flow.json", tmp_path / "jobs.csv"
    assert main(["generate", "swf-workload", "--seed", "1", "--trace", "hpc2n-alea.swf.gz",
                 "--machines", "hpc2n-alea.swf.machines", "--jobs", "300",
                 "-o", str(flow)]) == 0  # fmt: skip
    assert main(["simulate", str(flow), "--policy", policy, "-o", str(jobs), "--json"]) == 0
    out = capsys.readouterr().out
    assert f'"policy": "{policy}"' in out and '"with_deadline": 210' in out
    assert main(["check-schedule", str(flow), str(jobs), "--policy", policy]) == 0
    assert "300 jobs checked: no violations" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("policy", "option", "message"),
    [
        ("tabu", "iterations=-1", "iterations must be an integer in [0, 10^5]"),  # negative
        ("tabu", "iterations=100001", "iterations must be an integer in [0, 10^5]"),  # too many
        ("tabu", "iterations=x", "not a finite decimal"),  # not numeric
        ("tabu", "iterations=1_000", "not a finite decimal"),  # Python-only digit grouping
        ("tabu", "iterations=\uff11", "not a finite decimal"),  # full-width digit one
        ("tabu", "iterations=\u00b2", "not a finite decimal"),  # superscript two
        ("tabu", "iterations=2.5", "iterations must be an integer"),  # fractional count
        ("tabu", "per_job=1e308", "per_job must be a finite number in [0, 100]"),  # endless run
        ("tabu", "per_job=nan", "not a finite decimal"),  # not a number
        ("tabu", "period=1e13", "period must be a finite number in [0, 10^12]"),  # past the limit
        ("tabu", "tabu_size=0", "tabu_size must be an integer in [1, 10^9]"),  # empty tabu list
        ("tabu", "seed=-1", "seed must be an integer in [0, "),  # seeds are non-negative
        ("tabu", "seed=99999999999999999999", "seed must be an integer"),  # beyond int64
        ("tabu", "tail=2", "tail must be 0 or 1"),  # a flag
        ("tabu", "tail=1,0", "tail must be 0 or 1"),  # a list for a flag
        ("egedf", "all_jobs=0.5", "all_jobs must be 0 or 1"),  # a flag
        ("flex", "weights=1", "weights must be 3 finite numbers in [0, 10^6]"),  # one number
        ("flex", "weights=1,1", "weights must be 3 finite numbers"),  # too few
        ("flex", "weights=inf,1,1", "not a finite decimal"),  # infinite weight
        ("flex", "weights=1e400,1,1", "not a finite decimal"),  # overflows to infinity
        ("flex", "weights=1e7,1,1", "weights must be 3 finite numbers in [0, 10^6]"),  # too big
        ("flex", "weights=-1,1,1", "weights must be 3 finite numbers in [0, 10^6]"),  # negative
        ("tabu", "colour=3", "policy tabu takes iterations=VALUE"),  # unknown key
        ("tabu", "iterations", "policy tabu takes"),  # no '='
        ("easy", "x=1", "policy easy takes no options"),  # EASY has none
    ],
)
def test_cli_bad_policy_option(policy: str, option: str, message: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """A bad --option is one stderr line and exit code 2, for every class of bad value."""
    from instances import write_workload
    from planner.cli import main

    flow = tmp_path / "flow.json"
    write_workload(Workload((Machine("m0", 1),), (j(0, 1, 5),)), flow)
    assert main(["simulate", str(flow), "--policy", policy, "--option", option]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


@pytest.mark.parametrize(
    ("policy", "options"),
    [
        ("flex", {"weights": [1, 2]}),  # a list of the wrong length
        ("flex", {"weights": "1,1,1"}),  # text is not a sequence of numbers
        ("flex", {"weights": (True, 1, 1)}),  # a bool is no weight
        ("tabu", {"per_job": float("inf")}),  # infinite
        ("tabu", {"iterations": 10**30}),  # huge
        ("tabu", {"every": 1.0}),  # a float for a count
    ],
)
def test_api_rejects_bad_options(policy: str, options: dict[str, object]) -> None:
    """simulate() refuses the same values through the Python API with a one-line ValueError."""
    from planner.cluster import simulate

    w = Workload((Machine("m0", 1),), (j(0, 1, 5),))
    with pytest.raises(ValueError, match=f"^{policy}: ") as err:
        simulate(w, policy, **options)
    assert "\n" not in str(err.value)


def test_cli_policy_options_reach_the_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Flex weights from --option: deadline-only runs the urgent long job first, shortness-only
    the short one."""
    from instances import write_workload
    from planner.cli import main

    flow = tmp_path / "flow.json"
    jobs = (ClusterJob("long", 0, 1, 50, deadline=60), ClusterJob("short", 0, 1, 2, deadline=999))
    write_workload(Workload((Machine("m0", 1),), jobs), flow)
    first = {}
    for weights in ("1,0,0", "0,0,1"):
        out = tmp_path / f"{weights}.csv"
        assert main(["simulate", str(flow), "--policy", "flex", "--option", f"weights={weights}",
                     "-o", str(out)]) == 0  # fmt: skip
        lines = out.read_text().splitlines()
        col = lines[0].split(",").index("starting_time")
        starts = {r.split(",")[0]: float(r.split(",")[col]) for r in lines[1:]}
        first[weights] = min(starts, key=starts.__getitem__)
    assert first == {"1,0,0": "long", "0,0,1": "short"}


@pytest.mark.parametrize("options", [{}, {"tail": 1, "period": 5, "iterations": 0, "per_job": 2}])
def test_schedule_bookkeeping_matches_a_recount_at_every_pass(options: dict[str, int]) -> None:
    """After every pass: each machine's delayed count and planned completion equal a recount
    from its list, planned starts are >= now and non-decreasing, and the list holds no started
    job (random workloads with deadlines, early ends and kills)."""

    class Audited(Tabu):
        def schedule(self) -> None:
            super().schedule()
            c = self.cluster
            for s in self.schedules:
                late = sum(t + c.planned[s.m][x] > self.deadline[x]
                           for x, t in zip(s.jobs, s.starts, strict=True))  # fmt: skip
                assert s.delayed == late
                assert all(c.start_time[x] < 0 for x in s.jobs)
                assert s.starts == sorted(s.starts) and all(t >= c.now for t in s.starts)
                ends = [t + max(c.planned[s.m][x], 1) for x, t in zip(s.jobs, s.starts,
                                                                      strict=True)]  # fmt: skip
                running = [self.started_hold[x] for _, x in c.running[s.m]]
                assert s.end == max(ends + running + [0]) or not (ends or running)

    for seed in range(60):
        wl = random_workload(seed)
        rng = random.Random(seed)
        jobs = tuple(replace(x, deadline=x.submit + rng.randint(0, 40)) for x in wl.jobs)
        simulate(replace(wl, jobs=jobs), Audited, **options)
