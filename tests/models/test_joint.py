"""Tests of joint co-allocation of a small batch (SPEC §9) against enumeration and the checker."""

from __future__ import annotations

import dataclasses
import itertools
import math

import pytest

from instances import Instance, Job, Node, Slot, generate
from models import solve_joint
from models.joint import SENSES
from planner import METRICS, Window, make_window
from validation import check_alternatives


def all_windows(inst: Instance, job: Job) -> list[Window]:
    """Return every window of ``job`` at any integer start within its budget (brute force)."""
    pairs = inst.suitable_pairs(job)
    out = []
    budget = job.effective_budget
    for T in range(
        min((c.start for c, _ in pairs), default=0), max((c.end for c, _ in pairs), default=0)
    ):
        alive = [(c, s) for c, s in pairs if c.start <= T < c.end]
        for combo in itertools.combinations(alive, job.nodes):
            try:
                make_window(inst, job, T, [c for c, _ in combo])  # fits the clipped range
            except ValueError:
                continue
            w = make_window(inst, job, T, [s for _, s in combo])  # distances: own edges
            if budget is None or w.cost <= budget:
                out.append(w)
    return out


def clash(a: Window, b: Window) -> bool:
    """Return True when two windows share time on a node."""
    return any(
        p.node == q.node and p.start < q.end and q.start < p.end
        for p in a.placements
        for q in b.placements
    )


def brute_pair(inst: Instance, f, g=None, limit: float = math.inf, sense: str = "min"):
    """Return the lexicographic optimum (placed count, Σ f) of a 2-job batch by enumeration."""
    sign = 1 if sense == "min" else -1
    g = g or (lambda w: 0)
    a_jobs, b_jobs = (all_windows(inst, j) for j in inst.jobs)
    b_sorted = sorted(b_jobs, key=lambda w: sign * f(w))
    best = (0, 0.0)

    def better(key: tuple[int, float]) -> bool:
        return key[0] > best[0] or (key[0] == best[0] and sign * key[1] < sign * best[1] - 1e-9)

    for w in a_jobs + b_jobs:
        if g(w) <= limit and better((1, f(w))):
            best = (1, f(w))
    for a in a_jobs:
        for b in b_sorted:
            if g(a) + g(b) <= limit and not clash(a, b):
                if better((2, f(a) + f(b))):
                    best = (2, f(a) + f(b))
                break
    return best


def tiny(seed: int, geometry: str = "rough") -> Instance:
    """Return a 2-job ``tiny`` instance."""
    inst = generate("tiny", seed, jobs=2)
    return dataclasses.replace(inst, geometry=geometry)


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("seed", range(10))
def test_metric_objectives_match_brute_force(seed: int, geometry: str) -> None:
    """For every SPEC §3 metric, the joint optimum equals enumeration and passes the checker."""
    inst = tiny(seed, geometry)
    for metric in METRICS:
        r = solve_joint(inst, metric)
        assert r.status == "optimal", metric
        assert check_alternatives(inst, r.windows, sequential=False) == []
        want = brute_pair(inst, lambda w, m=metric: w.metric(m), sense=SENSES[metric])
        assert len(r.info["placed"]) == want[0], metric
        assert r.objective == pytest.approx(want[1]), metric
        assert r.bound == pytest.approx(r.objective)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("problem", [6, 7, 8, 9])
def test_problem_objectives_match_brute_force(seed: int, problem: int) -> None:
    """Problems (6)–(9) with a given limit: joint optimum equals enumeration, limit respected."""
    from models import PROBLEMS

    inst = tiny(10 + seed)
    p = PROBLEMS[problem]
    limit = 12 if p.constraint == "time" else 20

    def metric(kind: str):
        return (lambda w: w.cost) if kind == "cost" else (lambda w: w.proc_time)

    r = solve_joint(inst, problem=problem, t_star=limit, b_star=limit)
    want = brute_pair(inst, metric(p.objective), metric(p.constraint), limit, p.sense)
    assert r.status == "optimal"
    assert (len(r.info["placed"]), r.objective) == want
    assert r.info["constraint_value"] <= limit == r.info["limit"]
    assert check_alternatives(inst, r.windows, sequential=False) == []


def line_instance() -> Instance:
    """One node free over [0, 20); two 1-node jobs of volume 10 (duration 10 at p = 1)."""
    return Instance(
        nodes=(Node("a", performance=1.0, price=1.0),),
        slots=(Slot("a", 0, 20),),
        jobs=(Job("j1", nodes=1, volume=10), Job("j2", nodes=1, volume=10)),
    )


def test_free_start_places_a_job_where_another_ends() -> None:
    """Both jobs fit back to back only with j2 starting at 10, which is no slot start."""
    inst = line_instance()
    r = solve_joint(inst, "finish")
    assert r.status == "optimal" and r.info["placed"] == ["j1", "j2"]
    assert sorted(w.start for w in r.windows) == [0, 10] and r.objective == 30
    aep = solve_joint(inst, "finish", free_start=False)
    assert aep.status == "optimal" and len(aep.info["placed"]) == 1


def test_vo_budget_limits_the_total_cost() -> None:
    """A VO budget of 10 affords one of the two 10-cost windows: one placed, one postponed."""
    r = solve_joint(line_instance(), "cost", vo_budget=10)
    assert r.status == "optimal" and len(r.info["placed"]) == 1 and r.objective == 10
    assert len(r.info["postponed"]) == 1


@pytest.mark.parametrize(
    "kwargs",
    [
        {"vo_budget": -1},  # even the empty batch costs 0 > -1
        {"problem": 8, "t_star": -1},  # even the empty batch uses time 0 > -1
    ],
)
def test_infeasible(kwargs: dict) -> None:
    """A limit no placement (not even the empty one) meets → ``infeasible``, no windows."""
    r = solve_joint(line_instance(), **kwargs)
    assert r.status == "infeasible" and r.objective is None and r.windows == ()


def test_hint_is_accepted_and_bad_hint_is_rejected() -> None:
    """A feasible hint gives the same optimum; a hint task outside every slot is a ValueError."""
    inst = line_instance()
    job = inst.jobs[0]
    good = make_window(inst, job, 5, [Slot("a", 0, 20)])
    assert solve_joint(inst, "finish", hint=[good]).objective == 30
    bad = Window(
        "j1", 15, (dataclasses.replace(good.placements[0], start=15, end=25, slot_end=25),)
    )
    with pytest.raises(ValueError, match="fits no suitable slot"):
        solve_joint(inst, "finish", hint=[bad])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"objective": "makespan"}, "unknown objective"),  # not a SPEC §3 metric
        ({"solver": "milp"}, "unknown joint solver"),  # only CP-SAT models the joint problem
        ({"problem": 5, "t_star": 3}, "unknown combination problem"),  # not (6)–(9)
        ({"problem": 6, "time": "finish", "t_star": 3}, "time must be one of"),  # not a time
        ({"jobs": ["j1", "j1"]}, "must not repeat"),  # a job twice in the batch
    ],
)
def test_invalid_arguments(kwargs: dict, message: str) -> None:
    """Bad arguments raise one ValueError naming the rule."""
    with pytest.raises(ValueError, match=message):
        solve_joint(line_instance(), **kwargs)


def test_css2015_batch_is_feasible_and_repeatable() -> None:
    """Four css2015 jobs: windows pass the checker; the same input gives the same objective."""
    inst = generate("css2015", 0)
    jobs = [j.id for j in inst.jobs[:4]]
    first = solve_joint(inst, "finish", jobs=jobs)
    again = solve_joint(inst, "finish", jobs=jobs)
    assert first.status == "optimal"
    assert check_alternatives(inst, first.windows, sequential=False) == []
    assert first.objective == again.objective
    assert {w.job for w in first.windows} <= set(jobs)


def test_tight_time_limit_never_claims_false_optimal() -> None:
    """The 20-job css2015 batch in 0.05 s: optimal only if proven; feasible windows still check."""
    inst = generate("css2015", 0)
    r = solve_joint(inst, "proc_time", time_limit=0.05)
    assert r.status in ("feasible", "unknown", "optimal")
    if r.status == "optimal":
        assert r.info["stage1"] == r.info["stage2"] == "optimal"
    else:
        assert r.info["stage1"] != "optimal" or r.info["stage2"] != "optimal"
    if r.status == "feasible":
        assert check_alternatives(inst, r.windows, sequential=False) == []
        assert r.info["placed_bound"] >= len(r.info["placed"])
        if r.bound is not None:
            assert r.bound <= r.objective


def test_stopped_before_any_solution_claims_no_bound() -> None:
    """Stage 1 stopped at once (``unknown``): no count bound (CP-SAT's 0 is none), no windows."""
    inst = generate("css2015", 0)
    r = solve_joint(inst, "proc_time", time_limit=1e-9)
    if r.info["stage1"] == "unknown":
        assert r.status == "unknown" and r.windows == ()
        assert r.info["placed_bound"] is None and r.bound is None
    else:  # found a solution at once: its count bound is a true one
        assert r.info["placed_bound"] >= len(r.info["placed"])


def two_phase_cases() -> list[tuple[str, Instance, list[str] | None]]:
    """Return small batches: 3-job tiny instances and 5-job css2015 prefixes."""
    cases: list[tuple[str, Instance, list[str] | None]] = [
        (f"tiny-{s}", generate("tiny", s, jobs=3), None) for s in range(6)
    ]
    css = generate("css2015", 1)
    cases.append(("css2015-1", css, [j.id for j in css.jobs[:5]]))
    return cases


@pytest.mark.parametrize(("name", "inst", "jobs"), two_phase_cases(), ids=lambda c: str(c)[:12])
def test_joint_never_worse_than_two_phase(
    name: str, inst: Instance, jobs: list[str] | None
) -> None:
    """Alternatives (AMP) + combination vs the joint model with the same limit, for (6)–(9).

    The two-phase windows are feasible for the joint model (and given as its
    hint), so the joint optimum places at least as many jobs and, placing as
    many, has an objective at least as good.
    """
    from models import PROBLEMS, solve_combination
    from planner import find_alternatives

    alts = find_alternatives(inst, "amp", jobs=jobs).by_job()
    for problem, p in PROBLEMS.items():
        two = solve_combination(alts, problem, "dp")
        assert two.status == "optimal"
        limits = {"t_star": two.info["t_star"], "b_star": two.info["b_star"]}
        joint = solve_joint(inst, problem=problem, jobs=jobs, hint=list(two.windows), **limits)
        assert joint.status == "optimal", (name, problem)
        assert check_alternatives(inst, joint.windows, sequential=False) == []
        assert joint.info["constraint_value"] <= joint.info["limit"] == two.info["limit"]
        placed, placed_two = len(joint.info["placed"]), len(two.windows)
        assert placed >= placed_two, (name, problem)
        if placed == placed_two:
            sign = 1 if p.sense == "max" else -1
            assert sign * joint.objective >= sign * two.objective, (name, problem)


def test_problem_limit_defaults_to_a_two_phase_run() -> None:
    """Without t*, the joint model takes SPEC §8's default t* of the AMP alternatives."""
    from models import solve_combination
    from planner import find_alternatives

    inst = generate("tiny", 2, jobs=3)
    two = solve_combination(find_alternatives(inst, "amp").by_job(), 8)
    joint = solve_joint(inst, problem=8)
    assert joint.info["limit"] == joint.info["t_star"] == two.info["t_star"]


@pytest.mark.parametrize(
    ("q", "optimum"),
    [
        # rounded by 10^6, {c, d} (2.6e-6) reads 1 + 2 = 3 and {a, b} (2.8e-6) 1 + 1 = 2
        ({"a": 1.4e-6, "b": 1.4e-6, "c": 1.0e-6, "d": 1.6e-6}, 2.8e-6),
        # within an absolute 1e-9 of integers: must not count as integers (scale 1)
        ({"a": 1.0e-9, "b": 1.0e-9, "c": 0.5e-9, "d": 0.5e-9}, 2.0e-9),
        ({"c": 1.0e-9, "d": 1.0e-9, "a": 0.5e-9, "b": 0.5e-9}, 2.0e-9),
    ],
)
def test_rounded_q_objective_never_claims_a_false_optimum(q: dict, optimum: float) -> None:
    """Σ q with q that no power of ten up to 10^6 makes integers: {a, b} or {c, d}.

    The model maximises the rounded sum, so its optimum is no proof: the result
    is ``optimal`` only with the true optimum, and its bound is never below it.
    """
    nodes = tuple(Node(k, 1.0, price=1.0, q=v) for k, v in q.items())
    slots = (Slot("a", 0, 10), Slot("b", 0, 10), Slot("c", 20, 30), Slot("d", 20, 30))
    inst = Instance(nodes, slots, (Job("j", nodes=2, volume=10.0),))
    res = solve_joint(inst, "q")
    assert res.status in ("optimal", "feasible") and res.info["placed"] == ["j"]
    if res.status == "optimal":
        assert res.objective == pytest.approx(optimum, rel=1e-12)
    else:
        assert res.bound is not None and res.bound >= optimum * (1 - 1e-12)
