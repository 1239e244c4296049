"""The ``cg`` joint solver against brute force, the compact model and the two-phase heuristic."""

from __future__ import annotations

import dataclasses
import os

import pytest

from instances import Instance, generate
from models import PROBLEMS, Result, solve_combination, solve_joint
from models.joint.cg.solve import round_up
from planner import find_alternatives
from tests.joint_batch import six_job_batch
from validation import check_alternatives
from validation.joint_brute import all_windows, brute_joint, value

CASES = int(os.environ.get("PLANNER_CG_CASES", "240"))
"""Tiny random batches in the suite; ``PLANNER_CG_CASES=5000`` for a long run."""
OBJECTIVES = ["proc_time", "runtime", "cost", "finish", "start", 6, 7, 8, 9]
LIMITS = {"time": 12, "cost": 20}


def windows_of(inst: Instance, free: bool) -> list[list]:
    """Return every window of each job (AEP: at the start of any suitable slot)."""
    return [all_windows(inst, job, free_start=free) for job in inst.jobs]


def case(seed: int) -> tuple[Instance, bool, object, int | None]:
    """Return the seed's tiny 3-job instance, start rule, objective and VO budget (rotated)."""
    geometry = ("rough", "square")[seed % 2]
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    free = (seed // 2) % 2 == 0
    objective = OBJECTIVES[seed % len(OBJECTIVES)]
    vo = 25 if seed % 5 == 0 else None
    return inst, free, objective, vo


def run(inst: Instance, solver: str, objective: object, free: bool, vo: int | None):
    """Solve the case with ``solver`` (problems 6–9 at the fixed limits t* = 12, b* = 20)."""
    if isinstance(objective, int):
        return solve_joint(inst, problem=objective, solver=solver, t_star=LIMITS["time"],
                           b_star=LIMITS["cost"], free_start=free, vo_budget=vo)
    return solve_joint(inst, objective, solver, free_start=free, vo_budget=vo)


def brute(inst: Instance, objective: object, free: bool, vo: int | None) -> tuple[int, int]:
    """Return the brute-force lexicographic optimum (placed, value) of the case."""
    sides = [(lambda w: value(w, "cost"), vo)] if vo is not None else []
    if isinstance(objective, int):
        p = PROBLEMS[objective]
        f = "proc_time" if p.objective == "time" else "cost"
        g = "proc_time" if p.constraint == "time" else "cost"
        sides.append((lambda w, g=g: value(w, g), LIMITS[p.constraint]))
        return brute_joint(windows_of(inst, free), lambda w: value(w, f), p.sense, sides)
    return brute_joint(windows_of(inst, free), lambda w: value(w, objective), "min", sides)


def cg_proves_brute_force(seed: int) -> tuple[Result, int, str]:
    """Solve :func:`case` ``seed`` with cg, assert it proves the brute-force optimum with
    windows that pass the joint checker; return the result, that optimum and its sense."""
    inst, free, objective, vo = case(seed)
    r = run(inst, "cg", objective, free, vo)
    placed, best = brute(inst, objective, free, vo)
    assert r.status == "optimal"
    assert check_alternatives(inst, r.windows, sequential=False) == []
    assert (len(r.info["placed"]), r.objective) == (placed, best)
    return r, best, PROBLEMS[objective].sense if isinstance(objective, int) else "min"


@pytest.mark.parametrize("seed", range(CASES))
def test_cg_optimum_equals_brute_force_and_compact_model(seed: int) -> None:
    """Tiny random batches (both geometries, free and AEP starts, budgets, VO budget, every
    objective and problems 6–9): cg proves the brute-force optimum, its Lagrangian bound
    never passes it, its windows pass the joint checker, and the compact model agrees."""
    r, best, sense = cg_proves_brute_force(seed)
    inst, free, objective, vo = case(seed)
    assert r.bound == r.objective
    lag = r.info["cg"]["lagrangian"]
    if lag is not None:
        assert (lag <= best + 1e-6) if sense == "min" else (lag >= best - 1e-6)
    placed = len(r.info["placed"])
    compact = run(inst, "cpsat", objective, free, vo)
    assert compact.status == "optimal"
    assert (len(compact.info["placed"]), compact.objective) == (placed, best)


@pytest.mark.parametrize("seed", range(12))
def test_cg_never_worse_than_two_phase(seed: int) -> None:
    """The two-phase heuristic (AMP alternatives + combination) under the same limit: cg
    places at least as many jobs and, placing as many, is at least as good (bound ≤ it)."""
    inst = generate("tiny", 100 + seed, jobs=3)
    alts = find_alternatives(inst, "amp").by_job()
    for number, p in PROBLEMS.items():
        two = solve_combination(alts, number, "dp")
        limits = {"t_star": two.info["t_star"], "b_star": two.info["b_star"]}
        r = solve_joint(inst, problem=number, solver="cg", hint=list(two.windows), **limits)
        assert r.status == "optimal"
        assert check_alternatives(inst, r.windows, sequential=False) == []
        assert len(r.info["placed"]) >= len(two.windows)
        if len(r.info["placed"]) == len(two.windows):
            sign = 1 if p.sense == "min" else -1
            assert sign * r.bound <= sign * two.objective


def test_css2015_cg_under_a_tight_limit_never_claims_a_false_optimum() -> None:
    """Eight css2015 jobs, 2 s: windows check; optimal only when the compact model agrees;
    otherwise the bound is on the right side of the objective and of the compact optimum."""
    inst = generate("css2015", 3)
    jobs = [j.id for j in inst.jobs[:8]]
    r = solve_joint(inst, problem=8, solver="cg", jobs=jobs, time_limit=2.0)
    assert r.status in ("optimal", "feasible")
    assert check_alternatives(inst, r.windows, sequential=False) == []
    compact = solve_joint(inst, problem=8, solver="cpsat", jobs=jobs, t_star=r.info["t_star"],
                          time_limit=20.0)
    if r.bound is not None:
        assert r.bound <= r.objective
        if compact.status == "optimal" and len(compact.info["placed"]) == len(r.info["placed"]):
            assert r.bound <= compact.objective
            if r.status == "optimal":
                assert r.objective == compact.objective


@pytest.mark.parametrize(
    "kwargs",
    [
        {"objective": "cost", "vo_budget": -1},  # even the empty batch costs 0 > -1
        {"problem": 8, "t_star": -1},  # even the empty batch uses time 0 > -1
    ],
)
def test_cg_negative_limit_is_infeasible(kwargs: dict) -> None:
    """A side limit no placement (not even the empty one) meets → ``infeasible``, no windows."""
    r = solve_joint(generate("tiny", 1, jobs=2), solver="cg", **kwargs)
    assert r.status == "infeasible" and r.objective is None and r.windows == ()


@pytest.mark.parametrize(
    ("bound", "want"),
    [
        (41.0, 41),  # an exact integer stays
        (41.0000000001, 41),  # float noise above an integer is not a proof of 42
        (41.2, 42),  # a true fraction rounds up
        (-3.0000000001, -3),  # the same below zero
        (-2.5, -2),
    ],
)
def test_round_up_never_overshoots(bound: float, want: int) -> None:
    """Rounding a floating bound up keeps a relative margin, so noise never adds a unit."""
    assert round_up(bound) == want


@pytest.mark.parametrize(
    "kwargs",
    [
        {"objective": "q"},  # not linear over tasks as an integer: the cg solver refuses
        {"objective": "near_distance"},  # a distance: the compact model only
    ],
)
def test_cg_refuses_objectives_it_cannot_bound(kwargs: dict) -> None:
    """``solver='cg'`` with an objective outside CG_METRICS is a ValueError naming them;
    ``auto`` falls back to the compact model."""
    inst = generate("tiny", 1, jobs=2)
    with pytest.raises(ValueError, match="cg joint solver handles"):
        solve_joint(inst, solver="cg", **kwargs)
    assert solve_joint(inst, solver="auto", **kwargs).solver == "cpsat"


@pytest.mark.parametrize("smoothing", ["wentges", "directional"])
def test_smoothed_generation_reaches_the_same_lp_bound(smoothing: str) -> None:
    """Stabilisation changes the path, not the end: the converged LP value (and bound)
    equals plain column generation's on a 6-job css2015 batch, Σ finish at a fixed count."""
    from models.joint.cg.generate import generate as column_generation

    spaces, fresh = six_job_batch()
    ends = []
    for alpha in ("off", smoothing):
        master = fresh()
        gen = column_generation(spaces, master, smoothing=alpha)
        assert gen.converged and gen.bound == pytest.approx(gen.lp, rel=1e-7)  # less its margin
        ends.append(gen.lp)
    assert ends[1] == pytest.approx(ends[0], abs=1e-6)
