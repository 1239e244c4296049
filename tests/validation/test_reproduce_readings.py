"""The alternative readings measured in the amp-vs-alp and aep-criteria sensitivity tables."""

from __future__ import annotations

from itertools import pairwise

import pytest

from instances import Instance, Job, Node, Slot, generate
from planner import search
from validation import check_alternatives, check_window
from validation.study.reproduce.cuts import alternatives_by_job
from validation.study.reproduce.random_window import READINGS, min_proc_time


def _three_nodes() -> Instance:
    """a (p 1, task 10, cost 10), b (p 2, task 5, cost 5), c (p 2, cost 15), all free [0, 20)."""
    nodes = (Node("a", 1.0, price=1.0), Node("b", 2.0, price=1.0), Node("c", 2.0, price=3.0))
    slots = tuple(Slot(k, 0, 20) for k in "abc")
    return Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=2, volume=10.0, budget=1000),))


@pytest.mark.parametrize(
    ("cut", "starts"),
    [
        # {a, b} at 0 leaves a [10, 20), b [5, 20): {b, c} at 5, {a, b} at 10, {b, c} at 15
        ("task", [0, 5, 10, 15]),
        # [0, 10) cut from a and b alike: c alone until 10, then {a, b} at 10 empties them
        ("rectangle", [0, 10]),
        # a and b removed whole: c alone
        ("slot", [0]),
    ],
)
def test_cut_readings_on_a_hand_instance(cut: str, starts: list[int]) -> None:
    """Each cut reading gives the hand-derived AMP alternatives, disjoint in processor time."""
    inst = _three_nodes()
    found = alternatives_by_job(inst, "amp", cut)["j"]
    assert [w.start for w in found] == starts
    assert found[0].nodes == ("a", "b")
    spans = sorted((p.node, p.start, p.end) for w in found for p in w.placements)
    assert all(x[0] != y[0] or x[2] <= y[1] for x, y in pairwise(spans))
    if cut == "task":  # the library's rule: the independent checker replays it
        assert check_alternatives(inst, found) == []


def test_cut_readings_order_the_counts_on_a_generated_instance() -> None:
    """Cutting more time per window never finds more alternatives: task ≥ rectangle ≥ slot."""
    inst = generate("toporkov2012", 1, nodes=20, interval=300, volume=300.0, unit_price=1.0)
    cuts = ("task", "rectangle", "slot")
    counts = [len(alternatives_by_job(inst, "amp", c)["job1"]) for c in cuts]
    assert counts[0] >= counts[1] >= counts[2] >= 1
    with pytest.raises(ValueError, match="unknown cut"):
        alternatives_by_job(inst, "amp", "half")


def test_random_window_readings() -> None:
    """The used reading is the library's min_proc_time; every reading's window fits S."""
    inst = generate("toporkov2012", 2, nodes=20, interval=300, volume=300.0, unit_price=1.0)
    job = inst.jobs[0]
    used = min_proc_time(inst, job, "repair", 7)
    assert used is not None and used == search(inst, job, "min_proc_time", seed=7)
    for reading in READINGS:
        w = min_proc_time(inst, job, reading, 7)
        assert w is not None and check_window(inst, job, w) == []
    last = min_proc_time(inst, job, "last", 7)
    assert last is not None and last.start >= used.start


def test_reproductions_pass_their_readings_not_the_family_defaults() -> None:
    """The readings of docs/families.md's table are passed explicitly, and timing shares aep's.

    The toporkov2011/2012/2018 defaults serve benchmarks and gap studies and
    differ from these readings; a reproduction must not depend on them.
    """
    from instances import FAMILIES
    from validation.study.reproduce import aep_criteria, amp_vs_alp
    from validation.study.reproduce.common import reference

    aep = aep_criteria.READINGS[aep_criteria.DEFAULT_READING]
    assert aep == {"volume": 300.0, "unit_price": 1.0, "price_values": "integer"}
    assert aep == reference("timing")["params"]
    for name in ("maxq", "dep-coord"):
        assert reference(name)["params"]["unit_price"] == pytest.approx(644 / (800 * 7), abs=1e-3)
        assert reference(name)["params"]["performance_values"] == "integer"
        assert reference(name)["params"]["q_values"] == "integer"  # family default: real
    assert amp_vs_alp.DEFAULT_READING == "min_performance"
    assert "price_cap" in FAMILIES["toporkov2011"].defaults  # passed by amp_vs_alp.measure
    assert amp_vs_alp.DEFAULT_PARAMS == {"time_span": "min_performance"}
    assert FAMILIES["toporkov2011"].defaults["time_span"] == "etalon"


def test_evenly_spaced_keeps_the_tasks_and_equalises_the_gaps() -> None:
    """Tasks of 10 and 20 on [0, 100): free 70, three gaps of 23.3 → busy [23, 33), [57, 77)."""
    from instances import Busy
    from validation.study.reproduce.layout import evenly_spaced

    inst = Instance(
        nodes=(Node("a", 1.0, price=1.0),),
        jobs=(Job("j", nodes=1, volume=5.0, budget=100),),
        horizon=(0, 100),
        busy=(Busy("a", 50, 70), Busy("a", 10, 20)),
    )
    even = evenly_spaced(inst)
    assert [(b.start, b.end) for b in even.busy] == [(23, 33), (57, 77)]
    assert [(s.start, s.end) for s in even.slots] == [(0, 23), (33, 57), (77, 100)]
    with pytest.raises(ValueError, match="busy intervals"):
        evenly_spaced(_three_nodes())


def test_swap_readings() -> None:
    """The 2015 test is the library's minRuntime/minFinish; the 2012 test gives feasible windows."""
    from validation.study.reproduce.swap_budget import swap_window

    inst = generate("toporkov2012", 2, nodes=20, interval=300, volume=300.0, unit_price=1.0)
    job = inst.jobs[0]
    for metric, name in (("runtime", "min_runtime"), ("finish", "min_finish")):
        assert swap_window(inst, job, metric, "2015") == search(inst, job, name)
        w = swap_window(inst, job, metric, "2012")
        assert w is not None and check_window(inst, job, w) == []
    with pytest.raises(ValueError, match="unknown reading"):
        swap_window(inst, job, "runtime", "2013")


def test_combination_limit_readings() -> None:
    """``mean`` is the library's default; ``none`` picks the fastest (TM) or cheapest (CM) per job.

    The shared readings pass the other search's default limits, so under its
    own alternatives' limits a search reproduces ``mean``.
    """
    from models import solve_combination
    from validation.study.reproduce.limits import combine

    inst = generate("toporkov2011", 11, price_cap="min_performance")  # a kept cycle, 4 jobs
    found = {a: alternatives_by_job(inst, a) for a in ("alp", "amp")}
    assert all(found["alp"].values()) and all(found["amp"].values())
    for a in ("alp", "amp"):
        for problem in (7, 8):
            mean = combine(found, a, problem, "mean")
            lib = solve_combination(found[a], problem, "dp", time="runtime")
            assert (mean.windows, mean.info) == (lib.windows, lib.info)
            assert combine(found, a, problem, a).windows == mean.windows
        fastest = sum(min(w.runtime for w in ws) for ws in found[a].values())
        cheapest = sum(min(w.cost for w in ws) for ws in found[a].values())
        assert sum(w.runtime for w in combine(found, a, 7, "none").windows) == fastest
        assert sum(w.cost for w in combine(found, a, 8, "none").windows) == cheapest
        cpu, used = combine(found, a, 7, "proc_time"), combine(found, a, 7, "mean")
        assert cpu.info["b_star"] == used.info["b_star"]  # same budget, other time metric
        assert sum(w.proc_time for w in cpu.windows) <= sum(w.proc_time for w in used.windows)
    with pytest.raises(ValueError, match="unknown limits reading"):
        combine(found, "alp", 7, "max")


def test_per_job_average_weights_cycles_by_their_jobs() -> None:
    """Σ totals / Σ jobs differs from the mean of per-cycle ratios: (6 / 2, 2 / 1) → 8/3 vs 2.5."""
    from validation.study.reproduce.amp_vs_alp_measure import _average

    assert _average([(6.0, 2), (2.0, 1)], "job") == pytest.approx(8 / 3)
    assert _average([(6.0, 2), (2.0, 1)], "cycle") == pytest.approx(2.5)
    assert _average([], "job") is None


@pytest.mark.parametrize(
    ("paper", "values", "verdict"),
    [
        (10.0, [9.0, 11.0, 10.0, 10.0], "within 2 SE"),  # mean on the paper's value
        (20.0, [9.0, 11.0, 10.0, 10.0], "beyond 2 SE"),  # 10 away, SE 0.41
        (33.0, [30.0, 30.0, 30.0], "beyond 2 SE"),  # no spread at all, yet a difference
        (30.0, [30.0, 30.0], "within 2 SE"),  # no spread, no difference
        (None, [1.0, 2.0], "-"),  # the paper gives no number
        (5.0, [1.0], "-"),  # one run: no standard error
    ],
)
def test_sampling_rows_judge_the_paper_by_our_standard_error(
    paper: float | None, values: list[float], verdict: str
) -> None:
    """The sampling table's verdict: is the paper within two standard errors of our mean?"""
    from validation.study.reproduce.common import sampling_rows

    ((label, pap, m, se, z, got),) = sampling_rows([("x", paper, values)])
    assert (label, pap, got) == ("x", paper, verdict)
    assert m == pytest.approx(sum(values) / len(values))
    if verdict.endswith("SE") and se:
        assert z == pytest.approx((m - paper) / se)


def test_exact_cost_prices_each_task_at_its_exact_length() -> None:
    """V = 5 on p = 2 at 1.5 per quantum: ceil(2.5) = 3 quanta cost ceil(4.5) = 5; exactly 3.75.

    The second node (p = 1, price 1) runs 5 quanta, 5 either way: window 10, exact 8.75.
    """
    from validation.study.reproduce.amp_vs_alp_measure import _exact_cost

    nodes = (Node("a", 2.0, price=1.5), Node("b", 1.0, price=1.0))
    slots = (Slot("a", 0, 10), Slot("b", 0, 10))
    inst = Instance(nodes=nodes, slots=slots, jobs=(Job("j", nodes=2, volume=5.0, budget=100),))
    w = search(inst, inst.jobs[0], "amp")
    assert w is not None and check_window(inst, inst.jobs[0], w) == []
    assert w.cost == 10
    assert _exact_cost(inst, [w]) == pytest.approx(8.75)


def test_half_open_ranges_never_draw_the_printed_upper_ends() -> None:
    """Read as Java's lo + nextInt(hi - lo), §5's integer ranges lose their upper end: over 40
    batches no job asks for 6 nodes or volume 150, no batch has 7 jobs, no list 150 slots and
    no slot is 300 long; the closed reading (used) reaches 6 nodes and length 300."""
    from instances import FAMILIES, generate
    from validation.study.reproduce.amp_vs_alp_readings import HALF_OPEN, half_open_params

    defaults = FAMILIES["toporkov2011"].defaults
    half = half_open_params()
    seen: dict[str, dict[str, int]] = {"closed": {}, "half": {}}
    for s in range(40):
        for name, params in (("closed", {}), ("half", half)):
            inst = generate("toporkov2011", s, **params)
            top = seen[name]
            for key, value in (("jobs_max", len(inst.jobs)), ("slots_max", len(inst.slots)),
                               ("job_nodes_max", max(j.nodes for j in inst.jobs)),
                               ("volume_max", int(max(j.volume for j in inst.jobs))),
                               ("length_max", max(x.end - x.start for x in inst.slots))):
                top[key] = max(top.get(key, 0), value)  # fmt: skip
    assert all(seen["half"][k] <= half[k] for k in HALF_OPEN)
    assert all(seen["closed"][k] <= defaults[k] for k in HALF_OPEN)
    assert seen["half"]["job_nodes_max"] == 5 and seen["half"]["length_max"] == 299
    assert seen["closed"]["job_nodes_max"] == 6 and seen["closed"]["length_max"] == 300
