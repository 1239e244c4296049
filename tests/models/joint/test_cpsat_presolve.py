"""CP-SAT's presolve on coefficients past 2^31 (docs/guarantees.md, "What makes a proof a
proof"): OR-Tools 9.15 sums an enforced row's Boolean coefficients into a 32-bit int
(google/or-tools#5293), drops the enforcement literal and proves a wrong optimum."""

from __future__ import annotations

import pytest

from models import solve_joint
from models.backends import cpsat_solver
from validation.joint_fuzz import fuzz_case, optimum, verdict


def test_the_project_solver_turns_off_the_inclusion_presolve() -> None:
    """Every CP-SAT solver of the project is built with the faulty presolve step off."""
    assert cpsat_solver(threads=1, seed=0, time_limit=None).parameters \
        .presolve_inclusion_work_limit == 0


@pytest.mark.parametrize("solver", ["cpsat", "cg"])
def test_problem_6_near_1e9_is_proven_at_the_true_optimum(solver: str) -> None:
    """Fuzz seed 2884: problem (6), Σ runtime ≤ t* = 2,999,999,988, square geometry, task
    costs near 7·10^9 (> 2^31). Two of the three jobs fit under t*; the dearest pair is j1 on
    n4 + n6 (7,299,999,993 + 7,299,999,994) and j2 on n2 + n3 (6,819,570,856 +
    5,828,623,488), Σ cost 27,248,194,331 with Σ runtime 999,999,999 + 999,999,996. With the
    presolve step on, both solvers proved 18,476,817,832 (j2 + j3) optimal."""
    case = fuzz_case(2884)
    best = optimum(case)
    assert best == (2, 27248194331)
    r = solve_joint(case.instance, solver=solver, time_limit=60, progress=False,
                    **case.solve_kwargs())
    assert verdict(case, r, best) == []
    assert r.status == "optimal" and r.objective == 27248194331
    assert r.info["placed"] == ["j1", "j2"]
