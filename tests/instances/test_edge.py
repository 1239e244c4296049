"""The ``edge`` family (instances/generators/edge.py) draws the cases it promises.

Each test counts, over the first seeds, the jobs that show one boundary the
family's docstring names, and asserts that some do: a derived limit that
binary floating point gets wrong but that the planted window meets exactly,
the knapsack's Pareto-state form, windows for most jobs.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import pytest

from instances import Instance, generate
from planner import search

SEEDS = range(40)


@pytest.fixture(scope="module")
def corpus() -> list[Instance]:
    """The first 40 edge instances of 16 jobs (the size of the verify corpus's)."""
    return [generate("edge", s, jobs=16) for s in SEEDS]


def _exact(x: float) -> Fraction:
    return Fraction(repr(x))


def test_a_derived_budget_that_floats_get_wrong_is_met_exactly(corpus: list[Instance]) -> None:
    """Some job's S = floor(C·V·n) is one more than the binary product's floor, and its AMP
    window costs exactly S (2.32·12.5 computes to 28.999999999999996)."""
    hits = 0
    for inst in corpus:
        for job in inst.jobs:
            if job.max_price is None or job.budget is not None:
                continue
            s = math.floor(_exact(job.max_price) * _exact(job.volume) * job.nodes)
            if math.floor(job.max_price * job.volume * job.nodes) < s:
                w = search(inst, job, "amp")
                hits += w is not None and w.cost == s
    assert hits >= 3


def test_a_derived_cap_that_floats_get_wrong_holds_alps_window(corpus: list[Instance]) -> None:
    """Some job has only a budget S whose C = S/(V·n) computes below a slot price equal to it
    exactly (3/(0.8·3) gives 1.2499999999999998), and ALP's window uses such a slot."""
    hits = 0
    for inst in corpus:
        for job in inst.jobs:
            if job.budget is None or job.max_price is not None or job.budget == 0:
                continue
            cap = Fraction(job.budget) / (_exact(job.volume) * job.nodes)
            if job.budget / (job.volume * job.nodes) >= cap:
                continue
            w = search(inst, job, "alp")
            prices = {_exact(inst.slot_price(s)) for s in inst.slots
                      if w is not None and any(p.node == s.node and s.start <= p.start < s.end
                                               for p in w.placements)}  # fmt: skip
            hits += cap in prices
    assert hits >= 3


def test_the_knapsack_reaches_its_pareto_form(
    corpus: list[Instance], monkeypatch: pytest.MonkeyPatch
) -> None:
    """MaxQ on some jobs needs the knapsack with a budget axis past 4,096 (scaled prices)."""
    module = sys.modules["planner.heuristics.selectors.knapsack"]
    calls: list[int] = []
    real = module.pareto

    def counting(*args: object) -> object:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(module, "pareto", counting)
    for inst in corpus[:20]:
        for job in inst.jobs:
            search(inst, job, "max_q")
    assert calls


def test_most_jobs_have_a_window(corpus: list[Instance]) -> None:
    """Jobs are redrawn until some start holds their tasks: AMP finds a window for most."""
    found = [search(inst, job, "amp") is not None for inst in corpus for job in inst.jobs]
    assert sum(found) > 0.55 * len(found)
