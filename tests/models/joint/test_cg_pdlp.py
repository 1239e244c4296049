"""PDLP in the joint master (models/joint/cg/pdlp.py, models/joint/cg/master.py): its duals
against GLOP's, the Lagrangian bound of its projected duals never above the LP optimum, and
the cg solver's proven optimum unchanged with PDLP on."""

from __future__ import annotations

import random

import numpy as np
import pytest
from ortools.linear_solver import pywraplp

from models.joint.cg import master as master_module
from models.joint.cg.column import Column, Linear
from models.joint.cg.generate import generate
from models.joint.cg.master import Master
from models.joint.cg.pdlp import TOLERANCE, FirstOrder, Point
from tests.joint_batch import random_column, six_job_batch, solve_gap_case
from validation import check_alternatives


def _hand_lp() -> tuple[pywraplp.Solver, list[pywraplp.Constraint]]:
    """min −3x − 2y + z s.t. x + y ≤ 4, x − y ≤ 2, z − y = 0, x + z ≥ 1, x, y, z ≥ 0:
    optimum (3, 1, 1), value −10, unique duals (−2, −1, 1, 0) by hand."""
    lp = pywraplp.Solver.CreateSolver("GLOP")
    x, y, z = (lp.NumVar(0.0, lp.infinity(), n) for n in "xyz")
    rows = [lp.Add(x + y <= 4), lp.Add(x - y <= 2), lp.Add(z - y == 0), lp.Add(x + z >= 1)]
    lp.Minimize(-3 * x - 2 * y + z)
    return lp, rows


def test_pdlp_duals_match_glop_and_the_hand_duals_on_every_row_sense() -> None:
    """≤, = and ≥ rows of a hand-checked LP: PDLP's value and duals equal GLOP's (and the
    hand values −2, −1, 1, 0) within its tolerance: the same sign convention, duals and not
    row activities (OR-Tools' HiGHS backend returned activities on such LPs)."""
    lp, rows = _hand_lp()
    assert lp.Solve() == pywraplp.Solver.OPTIMAL
    glop = [r.dual_value() for r in rows]
    assert glop == pytest.approx([-2.0, -1.0, 1.0, 0.0], abs=1e-9)
    point = FirstOrder(tolerance=1e-8).solve(lp)
    assert point.objective == pytest.approx(-10.0, abs=1e-6)
    assert point.dual.tolist() == pytest.approx(glop, abs=1e-6)
    assert point.primal.tolist() == pytest.approx([3.0, 1.0, 1.0], abs=1e-6)


def _masters(seed: int, differenced: bool) -> tuple[Master, Master, int]:
    """Return a GLOP master and a PDLP master (every size) over the same random columns."""
    rng = random.Random(seed)
    jobs = 5
    form = Linear.of("finish") if seed % 2 else Linear.of("cost", -1.0)
    count = 3 if seed % 2 else None
    pair = (Master(jobs, form, count=count, differenced=differenced, first_order=False),
            Master(jobs, form, count=count, differenced=differenced, first_order=True))
    columns = [Column(j=j, T=40 * j + 100, chosen=(0,), tasks=(("a", 40 * j + 100,
                      40 * j + 101),), proc_time=1, cost=1, runtime=1) for j in range(jobs)]
    columns += [random_column(rng, rng.randrange(jobs)) for _ in range(rng.randrange(8, 20))]
    for m in pair:
        for col in columns:
            m.add(col)
    return *pair, jobs


def _lagrangian(master: Master, jobs: int) -> float:
    """The Lagrangian bound of the master's projected duals, each job priced over its
    columns in the master: a bound on the master's own LP for any sign-valid duals."""
    duals = master.duals()
    best: list[float | None] = [None] * jobs
    for col in master.columns:
        v = duals.reduced(col) + duals.mu + duals.pi[col.j]  # the priced value
        best[col.j] = v if best[col.j] is None else min(best[col.j], v)
    return duals.lagrangian(best)


@pytest.mark.parametrize("differenced", [True, False])
@pytest.mark.parametrize("seed", range(20))
def test_pdlp_master_value_and_bound_against_glop(
    seed: int, differenced: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random small masters: PDLP solves them (not GLOP), its value is GLOP's within its
    relative tolerance, and the Lagrangian bound of its projected duals is never above
    GLOP's LP optimum and within the tolerance of it (duals as good as GLOP's)."""
    monkeypatch.setattr(master_module, "FIRST_ORDER_ROWS", 0)
    glop, first, jobs = _masters(seed, differenced)
    optimum = glop.solve()
    value = first.solve()
    assert first.point is not None and glop.point is None
    scale = 1.0 + abs(optimum)
    assert value == pytest.approx(optimum, abs=10 * TOLERANCE * scale)
    bound = _lagrangian(first, jobs)
    assert bound <= optimum + 1e-9 * scale
    assert bound >= optimum - 10 * TOLERANCE * scale * len(first.columns)
    assert _lagrangian(glop, jobs) == pytest.approx(optimum, abs=1e-6 * scale)


@pytest.mark.parametrize("seed", range(10))
def test_duals_violating_their_signs_are_projected_before_any_bound(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A point with random duals of either sign on every row (as a first-order method may
    return): the master's duals are sign-valid (ρ ≥ 0, π ≤ 0, side duals ≤ 0) and their
    Lagrangian bound is still ≤ GLOP's LP optimum."""
    monkeypatch.setattr(master_module, "FIRST_ORDER_ROWS", 0)
    glop, first, jobs = _masters(seed, differenced=seed % 2 == 0)
    optimum = glop.solve()
    first.solve()
    assert first.point is not None
    rng = np.random.default_rng(seed)
    p = first.point
    first.point = Point(p.objective, p.primal, rng.normal(0.0, 50.0, len(p.dual)),
                        p.iterations)
    duals = first.duals()  # Prices rejects a negative ρ
    assert all(pi <= 0.0 for pi in duals.pi)
    assert _lagrangian(first, jobs) <= optimum + 1e-9 * (1.0 + abs(optimum))


@pytest.mark.parametrize("objective", ["finish", "cost"])
def test_generation_with_pdlp_ends_at_glops_lp_optimum(
    objective: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six css2015 jobs: column generation with PDLP on every master solve ends converged
    at the same LP value as GLOP alone (GLOP confirms the end), PDLP having solved most
    rounds, and every bound of the way stays below that optimum."""
    monkeypatch.setattr(master_module, "FIRST_ORDER_ROWS", 0)
    spaces, fresh = six_job_batch(objective)
    ends = []
    for on in (False, True):
        monkeypatch.setattr(master_module, "FIRST_ORDER", on)
        master = fresh()
        bounds: list[float] = []
        gen = generate(spaces, master, report=lambda g, b=bounds: b.append(g.bound))
        assert gen.converged and (master.pdlp.solves > 0) == on
        assert master.point is None  # the last solve was GLOP's
        ends.append(gen.lp)
        assert max(bounds) <= gen.lp + 1e-6
    assert ends[1] == pytest.approx(ends[0], abs=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_cg_with_pdlp_proves_the_brute_force_optimum(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 4-job gap cases (every objective kind, free and AEP starts) with PDLP on every
    master LP of the cg solver: the same proven optimum as brute force (and as GLOP alone),
    windows that pass the joint checker, and PDLP used."""
    solves: list[int] = []
    make = Master.__init__

    def spy(self: Master, *args: object, **kwargs: object) -> None:
        make(self, *args, **kwargs)  # type: ignore[arg-type]
        solves.append(0)
        pdlp_solve = self.pdlp.solve

        def counted(*a: object, **k: object) -> Point:
            solves[-1] += 1
            return pdlp_solve(*a, **k)  # type: ignore[arg-type]

        self.pdlp.solve = counted  # type: ignore[method-assign]

    off, _, _, _ = solve_gap_case(seed)
    monkeypatch.setattr(master_module, "FIRST_ORDER", True)
    monkeypatch.setattr(master_module, "FIRST_ORDER_ROWS", 0)
    monkeypatch.setattr(Master, "__init__", spy)
    r, placed, best, inst = solve_gap_case(seed)
    assert r.status == "optimal" and off.status == "optimal"
    assert (len(r.info["placed"]), r.objective) == (placed, best)
    assert (len(off.info["placed"]), off.objective) == (placed, best)
    assert check_alternatives(inst, r.windows, sequential=False) == []
    assert sum(solves) > 0


def test_a_round_without_windows_tightens_pdlp_once_then_hands_over_to_glop() -> None:
    """After PDLP's solve, :meth:`Master.confirm` asks for the round again: first by PDLP at
    the final tolerance (exactly, not a hair above it), then by GLOP for good; after GLOP's
    solve there is nothing to confirm."""
    master = Master(1, Linear(one=-1.0), first_order=True)
    empty = np.zeros(0)
    master.point = Point(0.0, empty, empty, 0)
    assert master.confirm() and master.first_order
    assert master.pdlp.tolerance == master_module.FINAL_TOLERANCE
    master.point = Point(0.0, empty, empty, 0)
    assert master.confirm() and not master.first_order
    assert not master.confirm()
