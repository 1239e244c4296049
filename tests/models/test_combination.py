"""Tests of batch combination, problems (6)–(9) of SPEC §8 (seed 003 §2.3)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models import COMBINATION_SOLVERS, PROBLEMS, solve_combination
from models.combination import Table
from planner import Placement, Window

SOLVER_NAMES = tuple(COMBINATION_SOLVERS)


def win(job: str, *tasks: tuple[int, int]) -> Window:
    """Return a window of ``job`` at T = 0, one task per ``(duration, cost)`` on nodes a, b, ..."""
    return Window(
        job,
        0,
        tuple(
            Placement(node=chr(97 + k), start=0, end=d, cost=c, slot_start=0, slot_end=1000)
            for k, (d, c) in enumerate(tasks)
        ),
    )


# Hand-checkable batch: (proc_time, cost) of each alternative.
#   j1: (4, 10), (6, 7), (9, 3)     means: time 19/3 -> ceil 7, cost 20/3
#   j2: (5, 8), (8, 4)              means: time 13/2 -> ceil 7, cost 6
#   j3: none (postponed)
# t* = 7 + 7 = 14; b* = floor(20/3 + 6) = 12.
BATCH = {
    "j1": [win("j1", (4, 10)), win("j1", (6, 7)), win("j1", (9, 3))],
    "j2": [win("j2", (5, 8)), win("j2", (8, 4))],
    "j3": [],
}
# Optimal (objective, choice) per problem under the default limits, by enumeration by hand:
#   (6) max cost, time <= 14: (4,10)+(5,8) time 9 -> 18; (4,10)+(8,4) -> 14; (6,7)+(5,8) -> 15
#   (7) min time, cost <= 12: (6,7)+(8,4) cost 11 time 14; (9,3)+(5,8) cost 11 time 14;
#       (9,3)+(8,4) cost 7 time 17; (4,10)+any cost >= 14 -> 14 (ties: DP takes the lowest index)
#   (8) min cost, time <= 14: (6,7)+(8,4) time 14 -> 11; (9,3)+(5,8) time 14 -> 11
#   (9) max time, time <= 14: 4+8 = 12, 6+5 = 11, 6+8 = 14, 9+5 = 14 -> 14
EXPECTED = {6: 18, 7: 14, 8: 11, 9: 14}


def brute(alternatives: dict, problem: int, limit: int, time: str) -> int | None:
    """Return the optimum of ``problem`` by enumerating every combination (None: infeasible)."""
    p = PROBLEMS[problem]
    jobs = [alts for alts in alternatives.values() if alts]

    def value(w: Window, kind: str) -> int:
        return w.cost if kind == "cost" else getattr(w, time)

    best = None
    for combo in itertools.product(*jobs):
        if sum(value(w, p.constraint) for w in combo) > limit:
            continue
        f = sum(value(w, p.objective) for w in combo)
        if best is None or (f > best if p.sense == "max" else f < best):
            best = f
    return best


def random_batch(seed: int, jobs: int = 5, alts: int = 4) -> dict[str, list[Window]]:
    """Return up to ``jobs`` jobs with 0..``alts`` random alternatives of 1-2 tasks each."""
    rng = np.random.default_rng(seed)
    batch: dict[str, list[Window]] = {}
    for j in range(int(rng.integers(1, jobs + 1))):
        k = int(rng.integers(0, alts + 1))
        batch[f"j{j}"] = [
            win(
                f"j{j}",
                *[
                    (int(rng.integers(1, 20)), int(rng.integers(0, 30)))
                    for _ in range(int(rng.integers(1, 3)))
                ],
            )
            for _ in range(k)
        ]
    return batch


def test_problem_registry_matches_spec_table() -> None:
    """PROBLEMS lists (6)–(9) with SPEC §8's objective, constraint and sense."""
    got = {n: (p.objective, p.constraint, p.sense) for n, p in PROBLEMS.items()}
    assert got == {
        6: ("cost", "time", "max"),
        7: ("time", "cost", "min"),
        8: ("cost", "time", "min"),
        9: ("time", "time", "max"),
    }


def test_default_limits_follow_spec() -> None:
    """t* = Σ ceil(mean time) = 14 and b* = floor(Σ mean cost) = 12 on the hand batch."""
    table = Table.of(BATCH)
    assert table.default_limit("time") == 14
    assert table.default_limit("cost") == 12
    assert table.postponed == ("j3",)


@pytest.mark.parametrize("solver", SOLVER_NAMES)
@pytest.mark.parametrize("problem", sorted(PROBLEMS))
def test_hand_batch_optimum(solver: str, problem: int) -> None:
    """Every method finds the hand-computed optimum, reports j3 postponed and meets the limit."""
    r = solve_combination(BATCH, problem, solver)
    assert r.status == "optimal"
    assert r.objective == EXPECTED[problem] == r.bound
    assert r.info["postponed"] == ["j3"]
    assert [w.job for w in r.windows] == ["j1", "j2"]
    assert r.info["constraint_value"] <= r.info["limit"]
    limit_name = PROBLEMS[problem].limit_name
    assert r.info[limit_name] == r.info["limit"] == {"t_star": 14, "b_star": 12}[limit_name]
    chosen = [BATCH[j][k] for j, k in r.info["choice"].items()]
    assert chosen == list(r.windows)


def test_dp_takes_lowest_index_on_ties() -> None:
    """Problem (7) has three optimal combinations; the recursion (4) keeps the first alternative."""
    r = solve_combination(BATCH, 7, "dp")
    assert r.info["choice"] == {"j1": 1, "j2": 1}


@pytest.mark.parametrize("seed", range(8))
def test_methods_agree_with_brute_force(seed: int) -> None:
    """On random ≤ 5 jobs × ≤ 4 alternatives, dp, cpsat and milp equal enumeration for (6)–(9)."""
    batch = random_batch(seed)
    time = "runtime" if seed % 2 else "proc_time"
    for problem in PROBLEMS:
        results = {s: solve_combination(batch, problem, s, time=time) for s in SOLVER_NAMES}
        limit = results["dp"].info["limit"]
        best = brute(batch, problem, limit, time)
        for solver, r in results.items():
            assert r.status == "optimal", (solver, problem)
            assert r.objective == (0 if best is None else best), (solver, problem)
            assert r.info["limit"] == limit


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("problem", sorted(PROBLEMS))
def test_given_limits_agree_with_brute_force(seed: int, problem: int) -> None:
    """With t*/b* given (some infeasible), every method equals enumeration or says infeasible."""
    batch = random_batch(100 + seed, jobs=4, alts=3)
    default = (
        Table.of(batch).default_limit(PROBLEMS[problem].constraint) if any(batch.values()) else 0
    )
    for limit in (0, default // 2, default + 7):
        best = brute(batch, problem, limit, "proc_time")
        for solver in ("dp", "cpsat"):
            r = solve_combination(batch, problem, solver, t_star=limit, b_star=limit)
            if best is None:
                assert r.status == "infeasible" and r.objective is None and not r.windows
            else:
                assert (r.status, r.objective) == ("optimal", best), (solver, limit)
                assert r.info["constraint_value"] <= limit


@pytest.mark.parametrize("solver", SOLVER_NAMES)
def test_infeasible_limit(solver: str) -> None:
    """t* below every combination's time → ``infeasible`` with no windows and no objective."""
    r = solve_combination(BATCH, 8, solver, t_star=8)
    assert r.status == "infeasible"
    assert r.objective is None and r.windows == () and r.info["choice"] == {}


def test_all_postponed_is_the_empty_combination() -> None:
    """A batch without alternatives places nothing: optimal, objective 0, all postponed."""
    r = solve_combination({"a": [], "b": []}, 6)
    assert (r.status, r.objective, r.windows) == ("optimal", 0, ())
    assert r.info["postponed"] == ["a", "b"]


@pytest.mark.parametrize("limit", [1e-9, 0.01])
@pytest.mark.parametrize("solver", ["cpsat", "milp"])
def test_tight_time_limit_never_claims_false_optimal(solver: str, limit: float) -> None:
    """20 jobs × 50 alternatives with a tiny limit: optimal only if it equals the DP optimum.

    Any bound given, whatever the status, is a true upper bound of problem (6)
    (CP-SAT stopped without a solution reports 0, which is none).
    """
    batch = random_batch_large(seed=3)
    exact = solve_combination(batch, 6, "dp")
    r = solve_combination(batch, 6, solver, time_limit=limit)
    assert r.status in ("optimal", "feasible", "unknown")
    if r.status == "optimal":
        assert r.objective == exact.objective
    if r.status == "feasible":
        assert exact.objective >= r.objective
    assert r.bound is None or r.bound >= exact.objective


def random_batch_large(seed: int) -> dict[str, list[Window]]:
    """Return 20 jobs × 50 one-task alternatives with random (duration, cost)."""
    rng = np.random.default_rng(seed)
    return {
        f"j{j}": [
            win(f"j{j}", (int(rng.integers(1, 200)), int(rng.integers(0, 500)))) for _ in range(50)
        ]
        for j in range(20)
    }


def test_cpsat_is_repeatable() -> None:
    """With the defaults (one worker, fixed seed) the same input gives the same objective."""
    batch = random_batch_large(seed=5)
    first = solve_combination(batch, 7, "cpsat")
    again = solve_combination(batch, 7, "cpsat")
    assert first.objective == again.objective and first.status == again.status


def test_solver_libraries_are_imported_only_when_chosen() -> None:
    """The DP path imports neither OR-Tools nor PuLP (checked in a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys; from models import solve_combination; "
        "from tests.models.test_combination import BATCH; "
        "solve_combination(BATCH, 6, 'dp'); "
        "print(any(m in sys.modules for m in ('ortools', 'pulp')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"problem": 5}, "unknown combination problem"),  # not one of (6)–(9)
        ({"solver": "greedy"}, "unknown combination solver"),  # not a registered method
        ({"time": "finish"}, "time must be one of"),  # only proc_time or runtime are "time"
        ({"t_star": 3.5}, "t_star must be an integer"),  # limits are integers (SPEC §1)
        ({"problem": 7, "b_star": "12"}, "b_star must be an integer"),  # not a number at all
    ],
)
def test_invalid_arguments(kwargs: dict, message: str) -> None:
    """Bad arguments raise one ValueError naming the rule."""
    args = {"problem": 6, **kwargs}
    with pytest.raises(ValueError, match=message):
        solve_combination(BATCH, **args)


def test_default_limit_uses_exact_rationals() -> None:
    """b* = floor of the exact sum of means: 1/3 + 2/3 = 1, not 0.999..."""
    batch = {
        "a": [win("a", (1, 0)), win("a", (1, 0)), win("a", (1, 1))],
        "b": [win("b", (1, 1)), win("b", (1, 1)), win("b", (1, 0))],
    }
    assert Table.of(batch).default_limit("cost") == 1
    assert Table.of(batch).default_limit("time") == 2


def test_milp_time_limit_never_claims_false_infeasible() -> None:
    """CBC stopped on time without a solution is ``unknown`` (PuLP alone says infeasible)."""
    batch = random_batch_large(seed=3)
    statuses = {solve_combination(batch, 6, "milp", time_limit=0.01).status for _ in range(10)}
    assert statuses <= {"optimal", "feasible", "unknown"}


def test_milp_is_exact_where_cbc_preprocessing_fails() -> None:
    """Problem (8) on a batch where CBC 2.10.3's preprocessing fixed variables wrongly.

    With that preprocessing on, CBC reported 171 (every job's first
    alternative) as optimal; the optimum is 156 (models.cbc.CBC_OPTIONS).
    """
    rows = {  # (time, cost) of single-task alternatives; default t* = 13 + 14 + 9 + 8 + 6 = 50
        "j0": [(17, 53), (8, 57)],
        "j1": [(8, 34), (19, 15)],
        "j2": [(9, 58)],
        "j3": [(3, 8), (20, 8), (1, 55)],
        "j4": [(6, 18)],
    }
    batch = {job: [win(job, task) for task in alts] for job, alts in rows.items()}
    limit = 50
    assert brute(batch, 8, limit, "runtime") == 156
    for solver in SOLVER_NAMES:
        res = solve_combination(batch, 8, solver, time="runtime")
        assert res.info["t_star"] == limit
        assert (res.status, res.objective, res.bound) == ("optimal", 156, 156), solver


@pytest.mark.parametrize("problem", [6, 7, 8, 9])
@pytest.mark.parametrize("seed", range(12))
def test_dp_is_exact_past_two_to_the_fifty_three(seed: int, problem: int) -> None:
    """Costs near 10^17 that differ by a unit (doubles round them): the DP, as its table and
    as its step function, returns the brute-force optimum exactly."""
    from models.combination import dp

    rng = np.random.default_rng(seed)
    batch = {f"j{j}": [win(f"j{j}", (int(rng.integers(1, 9)), 10**17 + int(rng.integers(0, 4))))
                       for _ in range(3)] for j in range(3)}
    limits = {"t_star": 14, "b_star": 3 * 10**17 + 5}
    want = brute(batch, problem, limits["b_star" if problem == 7 else "t_star"], "proc_time")
    for cells in (dp.TABLE_CELLS, 0):  # 0: every table too large, so the step function
        old, dp.TABLE_CELLS = dp.TABLE_CELLS, cells
        try:
            r = solve_combination(batch, problem, "dp", **limits)
        finally:
            dp.TABLE_CELLS = old
        assert r.objective == want and (r.status == "optimal") == (want is not None)


def test_dp_does_not_grow_with_t_star() -> None:
    """Durations near 10^11 and t* near 3·10^11 (a table of 10^12 cells): the step function
    answers at once, equal to brute force."""
    def long(job: str, d: int, c: int) -> Window:
        return Window(job, 0, (Placement("a", 0, d, c, 0, 10**12),))

    big = {f"j{j}": [long(f"j{j}", 10**11 + 7 * j + k, 5 + k) for k in range(3)]
           for j in range(3)}
    limit = 3 * 10**11 + 25
    r = solve_combination(big, 8, "dp", t_star=limit)
    assert r.status == "optimal" and r.objective == brute(big, 8, limit, "proc_time")


def test_dp_step_cap_is_a_limit_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its cap of candidate steps the DP stops with a LimitError naming the others."""
    from instances import LimitError
    from models.combination import dp

    monkeypatch.setattr(dp, "MAX_STEPS", 3)
    monkeypatch.setattr(dp, "TABLE_CELLS", 0)
    with pytest.raises(LimitError, match=r"above its limit of 3 .*cpsat or milp"):
        solve_combination(BATCH, 8, "dp")


@pytest.mark.parametrize("solver", SOLVER_NAMES)
def test_a_limit_past_every_sum_is_not_binding(solver: str) -> None:
    """t* = 2^63 (past CP-SAT's 64-bit sums): the same optimum as an unbinding small limit."""
    small = solve_combination(BATCH, 8, solver, t_star=100)
    huge = solve_combination(BATCH, 8, solver, t_star=2**63)
    assert huge.status == "optimal" and huge.objective == small.objective == 7


def test_a_time_limit_past_ten_to_the_nine_is_refused() -> None:
    """time_limit=1e16 (it overflowed the solvers' 64-bit milliseconds): one ValueError."""
    with pytest.raises(ValueError, match="at most 10\\^9 seconds"):
        solve_combination(BATCH, 8, "cpsat", time_limit=1e16)
