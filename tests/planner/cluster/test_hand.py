"""Hand-computed schedules of FCFS, EASY and conservative backfilling (SPEC §10, seed 001).

Every schedule below is worked out in the docstrings, instant by instant, with
the event order of SPEC §10 (completions, then submissions, then one pass).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import ReservationLog, simulate
from tests.planner.cluster.helpers import run_checked, table

M4 = (Machine("m", 4),)

#: One 4-CPU machine.  a: 2 CPUs, 10 s.  b: 4 CPUs, 5 s (wider than the free CPUs at 0).
#: c: 2 CPUs, work 3, estimate 5 (ends early).  d: 1 CPU, work 0 (zero length).
#: e: 1 CPU, work 20, estimate 8 (killed at its estimate).
MIXED = Workload(M4, (
    ClusterJob("a", 0, 2, 10), ClusterJob("b", 0, 4, 5), ClusterJob("c", 1, 2, 3, estimate=5),
    ClusterJob("d", 2, 1, 0), ClusterJob("e", 2, 1, 20, estimate=8),
))  # fmt: skip


def test_fcfs_mixed(tmp_path: Path) -> None:
    """FCFS: a at 0; b waits for 4 CPUs until a ends at 10 and blocks c, d, e behind it.

    At 15 b ends: c takes CPUs 0-1; d (zero length) takes CPU 2 and frees it at
    once; e takes CPU 2 and is killed at 15 + 8 = 23.
    """
    got = table(run_checked(MIXED, "fcfs", tmp_path))
    assert got == {
        "a": (0, 10, "m", (0, 1)), "b": (10, 15, "m", (0, 1, 2, 3)),
        "c": (15, 18, "m", (0, 1)), "d": (15, 15, "m", (2,)), "e": (15, 23, "m", (2,)),
    }  # fmt: skip


def test_easy_mixed(tmp_path: Path) -> None:
    """EASY: head b has shadow time 10 (a's planned end), extra 0.

    At 1, c (planned end 6 <= 10) backfills on CPUs 2-3 and ends at 4. At 2 no
    CPU is free. At 4, d (planned end 4) backfills and ends at once; e (planned
    end 12 > 10, 1 CPU > extra 0) may not. b runs 10-15, then e 15-23 (killed).
    """
    log = ReservationLog()
    got = table(simulate(MIXED, "easy", log=log))
    assert got == {
        "a": (0, 10, "m", (0, 1)), "c": (1, 4, "m", (2, 3)), "d": (4, 4, "m", (2,)),
        "b": (10, 15, "m", (0, 1, 2, 3)), "e": (15, 23, "m", (0,)),
    }  # fmt: skip
    assert log.rows == [
        (0, "b", "easy_head", "m", 10), (1, "b", "easy_head", "m", 10),
        (2, "b", "easy_head", "m", 10), (4, "b", "easy_head", "m", 10),
        (10, "e", "easy_head", "m", 15),
    ]  # fmt: skip
    run_checked(MIXED, "easy", tmp_path)


def test_conservative_mixed(tmp_path: Path) -> None:
    """Conservative: reservations a@0, b@10, c@1, d@6 (one-second hold), e@15.

    c ends at 4, earlier than planned (6): the queue is compressed in queue
    order; b stays at 10, d moves to 4, e stays at 15 (CPUs are taken at 10-15).
    """
    log = ReservationLog()
    got = table(simulate(MIXED, "conservative", log=log))
    assert got == {
        "a": (0, 10, "m", (0, 1)), "c": (1, 4, "m", (2, 3)), "d": (4, 4, "m", (2,)),
        "b": (10, 15, "m", (0, 1, 2, 3)), "e": (15, 23, "m", (0,)),
    }  # fmt: skip
    assert log.rows == [
        (0, "a", "conservative", "m", 0), (0, "b", "conservative", "m", 10),
        (1, "c", "conservative", "m", 1), (2, "d", "conservative", "m", 6),
        (2, "e", "conservative", "m", 15), (4, "d", "conservative", "m", 4),
    ]  # fmt: skip
    run_checked(MIXED, "conservative", tmp_path)


#: x: 3 CPUs, 10 s.  y, z: 2 CPUs, 10 s at 1.  u: 1 CPU, 30 s at 2.
DELAY = Workload(M4, (
    ClusterJob("x", 0, 3, 10), ClusterJob("y", 1, 2, 10), ClusterJob("z", 1, 2, 10),
    ClusterJob("u", 2, 1, 30),
))  # fmt: skip


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        # FCFS: y and z wait for x; u waits behind them until y ends at 20.
        ("fcfs", {"x": (0, 10, "m", (0, 1, 2)), "y": (10, 20, "m", (0, 1)),
                  "z": (10, 20, "m", (2, 3)), "u": (20, 50, "m", (0,))}),
        # EASY: head y's shadow time is 10 with extra 2; u (1 CPU) backfills at 2 into the
        # extra CPUs, which delays z (not the head) from 10 to 20.
        ("easy", {"x": (0, 10, "m", (0, 1, 2)), "u": (2, 32, "m", (3,)),
                  "y": (10, 20, "m", (0, 1)), "z": (20, 30, "m", (0, 1))}),
        # Conservative: y and z are both reserved at 10; u finds no 30 s hole before 20.
        ("conservative", {"x": (0, 10, "m", (0, 1, 2)), "y": (10, 20, "m", (0, 1)),
                          "z": (10, 20, "m", (2, 3)), "u": (20, 50, "m", (0,))}),
    ],
)  # fmt: skip
def test_easy_delays_the_second_job_conservative_does_not(
    policy: str, expected: dict, tmp_path: Path
) -> None:
    """The textbook difference: EASY protects only the head, conservative every job."""
    assert table(run_checked(DELAY, policy, tmp_path)) == expected


#: Machines A (2 CPUs, speed 1) and B (4 CPUs, speed 2; CPUs 2-5).
TWO = Workload((Machine("A", 2), Machine("B", 4, speed=2.0)), (
    ClusterJob("p", 0, 2, 10), ClusterJob("q", 0, 2, 10), ClusterJob("r", 0, 4, 8),
    ClusterJob("s", 1, 2, 4),
))  # fmt: skip


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        # p starts on A (first machine where it fits), q on B (ceil(10/2) = 5 s), r (4 CPUs)
        # fits only B and waits for q; FCFS blocks s behind r until r ends at 9.
        ("fcfs", {"p": (0, 10, "A", (0, 1)), "q": (0, 5, "B", (2, 3)),
                  "r": (5, 9, "B", (2, 3, 4, 5)), "s": (9, 11, "B", (2, 3))}),
        # EASY: r's shadow time is 5 on B; s plans ceil(4/2) = 2 s on B, ends at 3 <= 5.
        ("easy", {"p": (0, 10, "A", (0, 1)), "q": (0, 5, "B", (2, 3)),
                  "r": (5, 9, "B", (2, 3, 4, 5)), "s": (1, 3, "B", (4, 5))}),
        # Conservative: p ties at 0 on A and B (first machine wins); s is reserved on B at 1
        # (A would only give 10).
        ("conservative", {"p": (0, 10, "A", (0, 1)), "q": (0, 5, "B", (2, 3)),
                          "r": (5, 9, "B", (2, 3, 4, 5)), "s": (1, 3, "B", (4, 5))}),
    ],
)  # fmt: skip
def test_two_machines(policy: str, expected: dict, tmp_path: Path) -> None:
    """Machine choice: first fit for starting now, earliest start (ties first) to reserve."""
    assert table(run_checked(TWO, policy, tmp_path)) == expected


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_completions_before_submissions_and_file_order(policy: str, tmp_path: Path) -> None:
    """At 5, a's completion frees the machine before b and c are queued (b first: file order)."""
    w = Workload((Machine("m", 2),), (
        ClusterJob("a", 0, 2, 5), ClusterJob("b", 5, 2, 1), ClusterJob("c", 5, 2, 1),
    ))  # fmt: skip
    got = table(run_checked(w, policy, tmp_path))
    assert got == {"a": (0, 5, "m", (0, 1)), "b": (5, 6, "m", (0, 1)), "c": (6, 7, "m", (0, 1))}


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_killed_at_estimate_on_a_fast_machine(policy: str, tmp_path: Path) -> None:
    """Work 20 with estimate 8 on speed 2: planned = actual = ceil(8/2) = 4, killed."""
    w = Workload((Machine("f", 1, speed=2.0),), (ClusterJob("k", 3, 1, 20, estimate=8),))
    replay = run_checked(w, policy, tmp_path)
    (rec,) = replay.records
    assert (rec.start, rec.finish, rec.killed) == (3, 7, True)


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_perfect_estimates_option(policy: str, tmp_path: Path) -> None:
    """estimates="actual" sets e = w: the 20 s job is no longer killed."""
    w = Workload((Machine("m", 1),), (ClusterJob("k", 0, 1, 20, estimate=8),))
    (rec,) = run_checked(w, policy, tmp_path, estimates="actual").records
    assert (rec.finish, rec.killed, rec.requested) == (20, False, 20)


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_zero_length_jobs_need_free_cpus(policy: str, tmp_path: Path) -> None:
    """A zero-length job waits for a free CPU (the machine is full until 4), then ends at once."""
    w = Workload((Machine("m", 1),), (ClusterJob("a", 0, 1, 4), ClusterJob("z", 1, 1, 0)))
    assert table(run_checked(w, policy, tmp_path)) == {
        "a": (0, 4, "m", (0,)), "z": (4, 4, "m", (0,)),
    }  # fmt: skip


#: Machines A (3 CPUs: 0-2) and B (3 CPUs: 3-5). r (3 CPUs) must wait; s (1 CPU, 20 s)
#: fits now on A, the head's machine, and on B.
REFUSED = Workload((Machine("A", 3), Machine("B", 3)), (
    ClusterJob("p", 0, 2, 10), ClusterJob("q", 0, 2, 10), ClusterJob("r", 1, 3, 5),
    ClusterJob("s", 2, 1, 20),
))  # fmt: skip


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        # FCFS: s waits behind r; at 10 r takes A, s the first fit B.
        ("fcfs", {"p": (0, 10, "A", (0, 1)), "q": (0, 10, "B", (3, 4)),
                  "r": (10, 15, "A", (0, 1, 2)), "s": (10, 30, "B", (3,))}),
        # EASY: r's shadow time is 10 on A and on B: the tie goes to A. s may not use A
        # (ends at 22 > 10, 1 CPU > extra 0), so it starts on B.
        ("easy", {"p": (0, 10, "A", (0, 1)), "q": (0, 10, "B", (3, 4)),
                  "r": (10, 15, "A", (0, 1, 2)), "s": (2, 22, "B", (5,))}),
        # Conservative: r reserved on A at 10 (tie with B); s on B at 2 (A only at 15).
        ("conservative", {"p": (0, 10, "A", (0, 1)), "q": (0, 10, "B", (3, 4)),
                          "r": (10, 15, "A", (0, 1, 2)), "s": (2, 22, "B", (5,))}),
    ],
)  # fmt: skip
def test_refused_on_the_heads_machine_starts_on_the_next(
    policy: str, expected: dict, tmp_path: Path
) -> None:
    """EASY's restriction holds on the head's machine only; other machines are tried next."""
    assert table(run_checked(REFUSED, policy, tmp_path)) == expected


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_the_log_does_not_change_the_schedule(policy: str) -> None:
    """Recording reservations (EASY computes the shadow at every pass then) changes nothing."""
    for w in (MIXED, DELAY, TWO, REFUSED):
        assert table(simulate(w, policy)) == table(simulate(w, policy, log=ReservationLog()))
