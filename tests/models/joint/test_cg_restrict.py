"""Branching rules of the joint branch-and-price and the restricted pricing oracle, against
brute force over every window (docs/exact-models.md, "Column generation")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

from instances import Instance, Job, Node, Slot, generate
from models.joint.cg.column import Column, Linear
from models.joint.cg.pricing import Prices, price
from models.joint.cg.restrict import (
    KINDS,
    Limits,
    Rule,
    compatible,
    gather,
    price_in,
    price_many_in,
    restrict,
)
from models.joint.space import JobSpace
from planner import Window, make_window
from tests.models.joint.test_cg_pricing import priced, random_form, random_prices
from validation import check_window
from validation.joint_brute import all_windows, value


def options_of(sp: JobSpace, w: Window) -> list[int]:
    """Return the whole-space option index of each task of a brute-force window."""
    found = [sp.option_of(p.node, p.start, p.end) for p in w.placements]
    assert None not in found, "every brute-force task sits in an option of the job's space"
    return [int(k) for k in found if k is not None]


def obeys(sp: JobSpace, w: Window, rules: Sequence[Rule]) -> bool:
    """Return True when the window satisfies every rule (read off its tasks, rule by rule)."""
    nodes = {p.node for p in w.placements}
    opts = set(options_of(sp, w))
    for r in rules:
        if r.kind == "placed" and not r.on:
            return False
        if r.kind == "node" and (r.at in nodes) != r.on:
            return False
        if r.kind == "option" and (r.at in opts) != r.on:
            return False
        if r.kind == "start" and not (w.start >= int(r.at) if r.on else w.start <= int(r.at)):
            return False
    return True


def window_of(inst: Instance, job: Job, sp: JobSpace, T: int, chosen: Sequence[int]) -> Window:
    """Return the planner window of the oracle's answer (tasks in node order)."""
    hosts = sorted((sp.options[k].host for k in chosen), key=lambda s: inst.node_index[s.node])
    return make_window(inst, job, T, hosts)


def random_rules(
    j: int, inst: Instance, sp: JobSpace, windows: list[Window], rng: np.random.Generator
) -> list[Rule]:
    """Return 0–4 random rules on job ``j``: most hold for one target window (so that many
    sets are satisfiable yet bite), the others are drawn blindly; sometimes a contradiction
    is added."""
    ids = [node.id for node in inst.nodes]
    horizon = max(s.end for s in inst.slots)
    w = windows[int(rng.integers(len(windows)))] if windows else None
    rules: list[Rule] = []
    for _ in range(int(rng.integers(0, 5))):
        kind = str(rng.choice(["placed", "node", "node", "option", "option", "start", "start"]))
        keep = w is not None and rng.random() < 0.75  # the rule holds for the target window
        on = bool(rng.integers(2))
        if kind == "placed":
            rules.append(Rule(j, kind, keep or bool(rng.random() < 0.7)))
        elif kind == "node":
            at = str(rng.choice(ids))
            on = at in {p.node for p in w.placements} if keep and w else on
            rules.append(Rule(j, kind, on, at))
        elif kind == "option" and sp.options:
            k = int(rng.integers(len(sp.options)))
            on = k in options_of(sp, w) if keep and w else on
            rules.append(Rule(j, kind, on, k))
        elif kind == "start":
            u = int(rng.integers(0, 3))
            t = (w.start - u if on else w.start + u) if keep and w else int(rng.integers(horizon))
            rules.append(Rule(j, kind, on, t))
    if rules and rng.random() < 0.15:
        r = rules[int(rng.integers(len(rules)))]
        if r.kind == "start":  # an empty start range: T >= t + 1 and T <= t
            rules += [Rule(j, "start", True, int(r.at) + 1), Rule(j, "start", False, int(r.at))]
        else:  # the same decision both ways
            rules.append(dataclasses.replace(r, on=not r.on))
    order = rng.permutation(len(rules))
    return [rules[i] for i in order]


def check_job(
    inst: Instance,
    j: int,
    lim: Limits,
    rules: Sequence[Rule],
    form: Linear,
    prices: Prices,
    free: bool,
    rel: float = 1e-9,
) -> bool:
    """Assert that the restricted oracle equals brute force over the windows obeying
    ``rules``, that its k-window form returns obeying windows at distinct starts with
    their own values, least first, and that ``compatible`` agrees with :func:`obeys` on
    every window; return True when some window obeys."""
    job = inst.jobs[j]
    sp = JobSpace(inst, job)
    windows = all_windows(inst, job, free_start=free)
    for w in windows:
        col = Column.build(j, sp, w.start, options_of(sp, w))
        assert compatible(col, sp, lim) == obeys(sp, w, rules), (w, rules)
    good = [priced(w, form, prices) for w in windows if obeys(sp, w, rules)]
    rs = restrict(sp, lim)
    got = None if rs is None else price_in(rs, form, prices, free_start=free)
    many = [] if rs is None else price_many_in(rs, form, prices, 4, free_start=free)
    assert len({T for _, T, _ in many}) == len(many) <= 4
    assert [v for v, _, _ in many] == sorted(v for v, _, _ in many)
    for v, T, chosen in many:
        w = window_of(inst, job, sp, T, chosen)
        assert obeys(sp, w, rules)
        assert priced(w, form, prices) == pytest.approx(v, rel=rel, abs=1e-9)
    if not good:
        assert got is None and not many, (rules, got, many)
        return False
    assert many and many[0][0] == pytest.approx(got[0] if got else None, rel=rel, abs=1e-9)
    want = min(good)
    assert got is not None, rules
    value, T, chosen = got
    assert value == pytest.approx(want, rel=rel, abs=1e-9)
    col = Column.build(j, sp, T, chosen)
    assert compatible(col, sp, lim)
    w = window_of(inst, job, sp, T, chosen)
    assert check_window(inst, job, w) == []
    assert obeys(sp, w, rules)
    assert priced(w, form, prices) == pytest.approx(want, rel=rel, abs=1e-9)
    return True


CASES = [(seed, geometry, free) for seed in range(16) for geometry in ("rough", "square")
         for free in (True, False)]


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES)
def test_restricted_pricing_equals_brute_force(seed: int, geometry: str, free: bool) -> None:
    """Random rules on every job of a batch, gathered together, and random duals: each job's
    restricted oracle returns the least priced window that obeys its own rules (None iff no
    window does), and that window obeys them, has that value and passes the window checker."""
    rng = np.random.default_rng(500 + seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3, nodes=5, slots=10), geometry=geometry)
    for _ in range(2):
        per_job = []
        for j, job in enumerate(inst.jobs):
            sp = JobSpace(inst, job)
            per_job.append(random_rules(j, inst, sp, all_windows(inst, job, free_start=free), rng))
        limits = gather([r for rules in per_job for r in rules], len(inst.jobs))
        for j in range(len(inst.jobs)):
            form, prices = random_form(rng), random_prices(inst, rng)
            check_job(inst, j, limits[j], per_job[j], form, prices, free)


@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_rules_with_a_budget_that_bites(geometry: str) -> None:
    """A budget drawn among the job's window costs and forms rewarding dear or long windows:
    under random rules the restricted oracle still equals brute force."""
    rng = np.random.default_rng(3)
    hit = 0
    for seed in range(12):
        inst = dataclasses.replace(generate("tiny", seed, jobs=3, nodes=5, slots=10),
                                   geometry=geometry)
        for job in inst.jobs:
            windows = all_windows(dataclasses.replace(inst, jobs=(job,)), job)
            costs = sorted({value(w, "cost") for w in windows})
            if len(costs) < 2:
                continue
            budget = costs[int(rng.integers(len(costs) - 1))]
            tight = dataclasses.replace(job, budget=budget, max_price=None)
            one = dataclasses.replace(inst, jobs=(tight,))
            rules = random_rules(0, one, JobSpace(one, tight), all_windows(one, tight), rng)
            for form in (Linear(cost=-1.0), Linear(pt=-1.0, rt=-0.5), random_form(rng)):
                prices = random_prices(one, rng)
                hit += check_job(one, 0, gather(rules, 1)[0], rules, form, prices, True)
    assert hit >= 10


@pytest.mark.parametrize(("geometry", "free"), [(g, f) for g in ("rough", "square")
                                                 for f in (True, False)])
def test_no_rule_prices_like_the_whole_space(geometry: str, free: bool) -> None:
    """With no rule (or only "placed"), the restricted oracle returns exactly the whole job
    space's answer (value, start and options) over many random duals."""
    rng = np.random.default_rng(7)
    for seed in range(12):
        inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
        for job in inst.jobs:
            sp = JobSpace(inst, job)
            for lim in (Limits(), Limits(placed=True)):
                rs = restrict(sp, lim)
                assert rs is not None and list(rs.index) == list(range(len(sp.options)))
                for _ in range(3):
                    form, prices = random_form(rng), random_prices(inst, rng)
                    want = price(sp, form, prices, free_start=free)
                    assert price_in(rs, form, prices, free_start=free) == want


def scaled(prices: Prices, factor: float) -> Prices:
    """Return the prices times ``factor``."""
    return Prices({node: (t, rho * factor) for node, (t, rho) in prices.by_node.items()})


@pytest.mark.parametrize(("geometry", "free"), [(g, f) for g in ("rough", "square")
                                                 for f in (True, False)])
def test_required_nodes_with_large_values(geometry: str, free: bool) -> None:
    """Window values of order 1e4 (so the required nodes' bonus is larger still): the
    restricted oracle still equals brute force to 1e-6 relative."""
    rng = np.random.default_rng(11)
    hit = 0
    for seed in range(10):
        inst = dataclasses.replace(generate("tiny", seed, jobs=3, nodes=5, slots=10),
                                   geometry=geometry)
        for j, job in enumerate(inst.jobs):
            windows = all_windows(inst, job, free_start=free)
            if not windows:
                continue
            w = windows[int(rng.integers(len(windows)))]
            rules = [Rule(j, "node", True, p.node) for p in w.placements[:2]]
            factor = float(rng.uniform(1e3, 1e4))
            form = random_form(rng).scaled(factor)
            prices = scaled(random_prices(inst, rng), factor)
            lim = gather(rules, len(inst.jobs))[j]
            hit += check_job(inst, j, lim, rules, form, prices, free, rel=1e-6)
    assert hit >= 5


def hand() -> Instance:
    """Three nodes; 2-node job ``j`` and 3-node job ``k`` of volume 10 (rough geometry).

    Durations and costs: a 10 (cost 10), b 5 (cost 5), c 5 (cost 5). Slots: a [0, 30),
    b [0, 8) (a task at T ≤ 3), c [2, 9) (T in [2, 4]) and c [12, 30) (T in [12, 25]).
    Under proc_time + start, the best window of ``j`` is {b, c} at T = 2: 10 + 2 = 12.
    """
    nodes = (Node("a", 1.0, 1.0), Node("b", 2.0, 1.0), Node("c", 2.0, 1.0))
    slots = (Slot("a", 0, 30), Slot("b", 0, 8), Slot("c", 2, 9), Slot("c", 12, 30))
    jobs = (Job("j", nodes=2, volume=10.0), Job("k", nodes=3, volume=10.0))
    return Instance(nodes, slots, jobs)


FORM = Linear(pt=1.0, T=1.0)
SECOND_C = (12, 17)
"""A task of job j in node c's second slot; an option rule with ``at="c"`` names its option."""

# (rules on job j as (kind, on, at), free start?, expected (value, start, nodes) or None)
HAND = [
    ((), True, (12, 2, ("b", "c"))),  # no rule: {b, c} at 2
    ((("node", True, "a"),), True, (15, 0, ("a", "b"))),  # a required: {a, b} at 0, worse
    ((("node", False, "c"),), True, (15, 0, ("a", "b"))),  # c banned: the same window
    ((("start", True, 3),), True, (13, 3, ("b", "c"))),  # T >= 3 clips b to [3, 8): T = 3
    ((("start", True, 4),), True, (19, 4, ("a", "c"))),  # T >= 4: b is out, {a, c} at 4
    ((("start", False, 1),), True, (15, 0, ("a", "b"))),  # T <= 1: c is not free yet
    ((("start", True, 3),), False, (27, 12, ("a", "c"))),  # AEP, T >= 3: slot start 12 only
    ((("option", True, "c"),), True, (27, 12, ("a", "c"))),  # c's second slot: {a, c} at 12
    ((("option", False, 0),), True, (12, 2, ("b", "c"))),  # a's option banned: no change
    ((("node", False, "a"), ("node", False, "b")), True, None),  # one node left for n = 2
    ((("node", True, "a"), ("node", True, "b"), ("node", True, "c")), True, None),  # 3 > n
    ((("start", True, 5), ("start", False, 11)), True, None),  # nothing fits T in [5, 11]
    ((("placed", False, 0),), True, None),  # the job is not placed
    ((("node", True, "b"), ("node", False, "b")), True, None),  # b both required and banned
]


def rule(kind: str, on: bool, at: int | str, sp: JobSpace) -> Rule:
    """Return the rule on job 0; an option rule names its option by node and task."""
    if kind == "option" and isinstance(at, str):
        k = sp.option_of(at, *SECOND_C)
        assert k is not None
        return Rule(0, kind, on, k)
    return Rule(0, kind, on, at)


@pytest.mark.parametrize(("spec", "free", "want"), HAND)
def test_hand_checked_rules(
    spec: tuple[tuple[str, bool, int | str], ...],
    free: bool,
    want: tuple[int, int, tuple[str, ...]] | None,
) -> None:
    """The optima of the fixture's docstring under one rule set each, as worked out by hand;
    brute force agrees."""
    inst = hand()
    sp = JobSpace(inst, inst.jobs[0])
    rules = [rule(kind, on, at, sp) for kind, on, at in spec]
    lim = gather(rules, 2)[0]
    rs = restrict(sp, lim)
    got = None if rs is None else price_in(rs, FORM, Prices({}), free_start=free)
    if want is None:
        assert got is None
    else:
        assert got is not None
        nodes = tuple(sorted(sp.options[k].node for k in got[2]))
        assert got[0] == pytest.approx(want[0]) and (got[1], nodes) == want[1:]
    assert check_job(inst, 0, lim, rules, FORM, Prices({}), free) == (want is not None)


def per_unit(rho: float, **at: float) -> dict[int, float]:
    """Return ``rho`` on each unit time of [0, 30), with the prices ``at`` ("t25"=...) over it."""
    out = {t: rho for t in range(30)} if rho else {}
    return out | {int(k[1:]): v for k, v in at.items()}


# (each node's price per unit time, the least window under "a required": value, nodes)
LARGE_DUALS = [
    # a huge price where no task of job j can be (a's slot ends at 30): {a, b} at T <= 3
    ({"a": per_unit(0, t100=1e9), "b": per_unit(0, t3=0.1), "c": per_unit(0.1)},
     (15.1, ("a", "b"))),
    ({"a": per_unit(0, t100=1e12), "b": per_unit(0, t3=0.1), "c": per_unit(0.1)},
     (15.1, ("a", "b"))),
    # b dearer than c by 5e-6 only, next to a huge unreachable price: {a, c}, not {a, b}
    ({"a": per_unit(0, t100=1e12), "b": per_unit(1e-6)}, (15.0, ("a", "c"))),
    # a huge price that only c's second slot can reach: {a, b}, exactly
    ({"b": per_unit(0, t3=0.1), "c": per_unit(0.1, t25=1e9)}, (15.1, ("a", "b"))),
    # every task on a dear (1e4 over 10 units): M must outweigh it, {a, b} still wins
    ({"a": per_unit(1e3), "c": per_unit(0.1)}, (10015.0, ("a", "b"))),
]


@pytest.mark.parametrize(("duals", "want"), LARGE_DUALS)
def test_required_node_beside_huge_duals(
    duals: dict[str, dict[int, float]], want: tuple[float, tuple[str, ...]]
) -> None:
    """Huge duals the least window avoids neither change the window nor blur its value (the
    fixture's job j under proc_time, node a required): value exact to 1e-9."""
    inst = hand()
    sp = JobSpace(inst, inst.jobs[0])
    prices = Prices({node: (np.array(sorted(r), dtype=np.int64),
                            np.array([r[t] for t in sorted(r)])) for node, r in duals.items()})
    rules = [Rule(0, "node", True, "a")]
    rs = restrict(sp, gather(rules, 1)[0])
    got = price_in(rs, Linear(pt=1.0), prices)  # type: ignore[arg-type]
    assert got is not None
    assert got[0] == pytest.approx(want[0], abs=1e-9)
    assert tuple(sorted(sp.options[k].node for k in got[2])) == want[1]
    assert check_job(inst, 0, gather(rules, 1)[0], rules, Linear(pt=1.0), prices, True)


def test_a_banned_node_leaves_the_three_node_job_no_window() -> None:
    """Job k needs all three nodes (a window at T = 2 or 3): banning any one leaves two."""
    inst = hand()
    sp = JobSpace(inst, inst.jobs[1])
    got = price_in(restrict(sp, Limits()), FORM, Prices({}))  # type: ignore[arg-type]
    assert got is not None and got[:2] == (22, 2)
    for node in ("a", "b", "c"):
        rs = restrict(sp, gather([Rule(1, "node", False, node)], 2)[1])
        assert rs is None or price_in(rs, FORM, Prices({})) is None


def test_rules_of_other_jobs_do_not_apply() -> None:
    """gather gives each job only its own rules."""
    lim = gather([Rule(1, "node", False, "a"), Rule(0, "start", True, 4)], 2)
    assert lim[0] == Limits(lo=4) and lim[1] == Limits(banned_nodes={"a"})


@pytest.mark.parametrize(
    "kind",
    [
        "",  # empty
        "Node",  # kinds are lower case
        "nodes",  # plural of a kind
        "time",  # the start rule is called "start"
        "budget",  # no rule on the budget
        " start",  # surrounding space
    ],
)
def test_invalid_rule_kind(kind: str) -> None:
    """A rule of unknown kind raises one ValueError naming the kinds."""
    with pytest.raises(ValueError, match="kind is one of placed, node, option, start"):
        Rule(0, kind, True)
    assert set(KINDS) == {"placed", "node", "option", "start"}


@pytest.mark.parametrize(
    ("j", "kind", "at", "rule"),
    [
        (-1, "placed", 0, "job index j is >= 0"),  # would silently name the last job
        (True, "placed", 0, "job index j is >= 0"),  # a flag, not a job index
        (0, "node", 0, "node rule's at is a node id"),  # the default at=0 is no node id
        (0, "option", "3", "option rule's at is an option index"),  # text, not an index
        (0, "option", -1, "option rule's at is an option index"),  # would name the last option
        (0, "option", True, "option rule's at is an option index"),  # a flag, not an index
        (0, "start", 2.5, "start rule's at is an integer time"),  # times are integer quanta
        (0, "start", "4", "start rule's at is an integer time"),  # text, not a time
    ],
)
def test_invalid_rule_fields(j: int, kind: str, at: object, rule: str) -> None:
    """A rule whose job index or ``at`` cannot mean what its kind says raises one ValueError
    naming the rule (nothing is coerced later by gather or restrict)."""
    with pytest.raises(ValueError, match=rule):
        Rule(j, kind, True, at)  # type: ignore[arg-type]


def test_valid_rule_fields() -> None:
    """numpy integers are integers (indices and times come from numpy arrays)."""
    rules = [Rule(np.int64(1), "option", True, np.int64(2)),  # type: ignore[arg-type]
             Rule(1, "start", False, np.int64(-3)), Rule(1, "node", True, "a")]
    lim = gather(rules, 2)[1]
    assert (lim.required, lim.hi, lim.required_nodes) == ({2}, -3, {"a"})
