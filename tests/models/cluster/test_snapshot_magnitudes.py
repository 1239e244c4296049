"""Snapshot solvers at the magnitudes of real traces (releases near 10^12 s, durations past
2^40 s, 2^31 − 1 CPUs): the minimal cases ``benchmarks/fuzz_snapshot.py`` found, each
against brute force and the independent checker (Klusáček & Rudová 2008's objective)."""

from __future__ import annotations

import warnings

import pytest

from instances.workload import ClusterJob, Machine, Workload
from models.cluster import check_snapshot as check_snapshot_rules
from models.cluster import solve_snapshot
from validation.cluster_brute import brute_snapshot
from validation.snapshot_check import check_snapshot

BIG = 2**31 - 1


def _checked(workload: Workload, solver: str) -> tuple[str, int, int, int, int]:
    """Solve; assert the schedule passes the checker; return status, U, U_lb, Cmax, C_lb."""
    r = solve_snapshot(workload, solver=solver, time_limit=20)
    assert r.status in ("optimal", "feasible")
    assert check_snapshot(workload, r.windows, r.objective, r.info["makespan"]) == []
    return r.status, r.objective, r.bound, r.info["makespan"], r.info["makespan_bound"]


@pytest.mark.parametrize("solver", ["cg", "cpsat"])
def test_a_job_without_deadline_is_never_late(solver: str) -> None:
    """A deadline-free job running 1.2·10^13 s (past the 2^40 s cg once took for "no
    deadline") is not counted late: U* = 1 (only b, due at 0, is late), proven, not 2."""
    wl = Workload((Machine("m", 1, 1e-3),),
                  (ClusterJob("a", 0, 1, 12_000_000_000), ClusterJob("b", 0, 1, 1, deadline=0)))
    assert brute_snapshot(wl) == (1, 12_000_000_000_000 + 1000)
    status, u, u_lb, cmax, c_lb = _checked(wl, solver)
    assert (status, u, u_lb, cmax, c_lb) == ("optimal", 1, 1, 12_000_000_001_000,
                                             12_000_000_001_000)


def test_cpu_seconds_past_int64() -> None:
    """2^31 − 1 CPUs × buckets of ~10^11 s overflow int64 (cg's capacity rows once wrapped
    negative): no overflow warning, cg's schedule is brute force's optimum and its bounds do
    not pass it (CP-SAT refuses this machine: its CPUs × horizon pass 2^62)."""
    wl = Workload((Machine("m", BIG, 1e-3),),
                  (ClusterJob("a", 0, BIG, 5_000_000_000),
                   ClusterJob("b", 0, BIG // 2 + 1, 4_000_000_000, deadline=10**12),
                   ClusterJob("c", 0, BIG // 2 + 1, 1)))  # fmt: skip
    optimum = brute_snapshot(wl)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, u, u_lb, cmax, c_lb = _checked(wl, "cg")
    assert (u, cmax) == optimum
    assert u_lb <= optimum[0] and c_lb <= optimum[1]
    with pytest.raises(ValueError, match="must stay below 2\\^62"):
        check_snapshot_rules(wl, "auto")  # auto runs cpsat on 5 jobs
    with pytest.raises(ValueError, match="must stay below 2\\^62"):
        solve_snapshot(wl, solver="cpsat", time_limit=20)
    check_snapshot_rules(wl, "cg")


def test_milp_counts_time_from_the_first_release() -> None:
    """Releases near 9·10^11 s: the MILP (once declared such a snapshot infeasible, its big-M
    and coefficients at the clock's size) proves brute force's optimum (1, 6)."""
    t0 = 892_219_197_412
    wl = Workload((Machine("m", 2, 1.0),),
                  (ClusterJob("a", t0, 2, 3, deadline=t0 + 3),
                   ClusterJob("b", t0 + 1, 1, 2, deadline=t0 + 3),
                   ClusterJob("c", t0 + 1, 1, 3)))  # fmt: skip
    assert brute_snapshot(wl) == (1, 6)
    assert _checked(wl, "milp")[:2] == ("optimal", 1)
    assert _checked(wl, "milp")[3] == 6


@pytest.mark.parametrize(
    ("machine", "work", "rule"),
    [
        (Machine("m", BIG, 1.0), 1, "at most 10,000 CPUs"),  # CBC's tolerances hide a CPU
        (Machine("m", 1, 1e-3), 10**6, "one binary per job, machine and second"),  # 10^9 s
    ],
)
def test_milp_refuses_what_cbc_cannot_prove(machine: Machine, work: int, rule: str) -> None:
    """The MILP refuses, with its rule, machines wider than CBC's tolerances separate and
    horizons of more than its cell cap."""
    wl = Workload((machine,), (ClusterJob("a", 0, 1, work), ClusterJob("b", 0, 1, 1)))
    with pytest.raises(ValueError, match=rule):
        check_snapshot_rules(wl, "milp")
    with pytest.raises(ValueError, match=rule):
        solve_snapshot(wl, solver="milp", time_limit=5)
    check_snapshot_rules(wl, "cg")  # the refusal is the MILP's alone


def test_cpsat_makespan_bound_is_its_integer_bound() -> None:
    """Releases near 10^12 s: CP-SAT's BestObjectiveBound() double is 1000000004342.0001, an
    ulp above its integer bound, whose ceiling once gave a makespan bound of 16788 above the
    proven optimum 16787 (fuzz seed 1445); the integer bound gives 16787."""
    t0 = 999_999_987_555
    wl = Workload((Machine("m0", 4, 2.09837), Machine("m1", 3, 1.78974)),
                  (ClusterJob("j1", t0, 2, 1646, deadline=t0 + 784),
                   ClusterJob("j0", t0 + 12021, 1, 9999)))  # fmt: skip
    assert brute_snapshot(wl) == (1, 16787)
    assert _checked(wl, "cpsat") == ("optimal", 1, 1, 16787, 16787)
    assert _checked(wl, "cg") == ("optimal", 1, 1, 16787, 16787)


def test_cpsat_refuses_cumulatives_past_64_bits() -> None:
    """10^9 CPUs over a 1.8·10^10 s horizon (product past 2^63): CP-SAT's cumulative once
    proved this feasible snapshot infeasible in milliseconds (fuzz seed 2804); ``cpsat`` now
    refuses it with the rule, and ``cg`` (its CP-SAT stage skipped) proves the optimum."""
    half = 500_000_000
    wl = Workload((Machine("m0", 2 * half, 3.95735),),
                  (ClusterJob("j0", 561119318, half, 1584065583, deadline=961403746),
                   ClusterJob("j1", 1068820447, half, 10**10),
                   ClusterJob("j2", 1068820447, 1, 5581868164),
                   ClusterJob("j3", 3730602760, half, 4207418174, deadline=13730602760),
                   ClusterJob("j4", 11610542990, 1, 5258515710, deadline=12939340219)))
    optimum = brute_snapshot(wl)
    assert optimum == (1, 12378220900)
    with pytest.raises(ValueError, match="must stay below 2\\^62"):
        check_snapshot_rules(wl, "auto")  # auto runs cpsat on 5 jobs
    with pytest.raises(ValueError, match="must stay below 2\\^62"):
        solve_snapshot(wl, solver="cpsat", time_limit=20)
    check_snapshot_rules(wl, "cg")
    assert _checked(wl, "cg") == ("optimal", optimum[0], optimum[0], optimum[1], optimum[1])
