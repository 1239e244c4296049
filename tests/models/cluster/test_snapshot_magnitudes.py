"""Snapshot solvers at the magnitudes of real traces (releases near 10^12 s, durations past
2^40 s, 2^31 − 1 CPUs): the minimal cases ``benchmarks/fuzz_snapshot.py`` found, each
against brute force and the independent checker (Klusáček & Rudová 2008's objective)."""

from __future__ import annotations

import warnings

import pytest

from instances.workload import ClusterJob, Machine, Workload
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


@pytest.mark.parametrize("solver", ["cg", "cpsat"])
def test_cpu_seconds_past_int64(solver: str) -> None:
    """2^31 − 1 CPUs × buckets of ~10^11 s overflow int64 (cg's capacity rows once wrapped
    negative): no overflow warning, and the optimum of brute force is proven."""
    wl = Workload((Machine("m", BIG, 1e-3),),
                  (ClusterJob("a", 0, BIG, 5_000_000_000),
                   ClusterJob("b", 0, BIG // 2 + 1, 4_000_000_000, deadline=10**12),
                   ClusterJob("c", 0, BIG // 2 + 1, 1)))  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status, u, u_lb, cmax, c_lb = _checked(wl, solver)
    assert (status, u, cmax) == ("optimal", *brute_snapshot(wl))
    assert (u_lb, c_lb) == (u, cmax)


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
        solve_snapshot(wl, solver="milp", time_limit=5)


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
