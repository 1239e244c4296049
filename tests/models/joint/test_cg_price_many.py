"""The k-best pricing oracle, the flat node prices and the column count per round of the
joint column generation, against brute force and the one-window oracle."""

from __future__ import annotations

import contextlib
import dataclasses

import numpy as np
import pytest

from instances import generate
from models.joint.cg.column import Column, Linear
from models.joint.cg.generate import generate as column_generation
from models.joint.cg.master import Master
from models.joint.cg.pricing import Prices, price, price_many
from models.joint.space import JobSpace
from planner import find_alternatives, make_window
from tests.joint_batch import six_job_batch
from tests.models.joint.test_cg_pricing import priced, random_form, random_prices
from validation import check_window
from validation.joint_brute import all_windows

CASES = [(seed, geometry, free) for seed in range(12) for geometry in ("rough", "square")
         for free in (True, False)]


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES)
def test_price_many_windows_are_exact_sorted_and_at_distinct_starts(
    seed: int, geometry: str, free: bool
) -> None:
    """Every returned window has exactly its stated priced value (brute-force sum) and passes
    the window checker; values are sorted, starts distinct, the first is the least window
    of any start and :func:`price`'s value; over slot starts (AEP) they are the k best
    starts, each with its best window."""
    rng = np.random.default_rng(300 + seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    for job in inst.jobs:
        sp = JobSpace(inst, job)
        windows = all_windows(inst, job, free_start=free)
        form, prices = random_form(rng), random_prices(inst, rng)
        got = price_many(sp, form, prices, 4, free_start=free)
        if not windows:
            assert got == []
            continue
        by_start: dict[int, float] = {}
        for w in windows:
            by_start[w.start] = min(by_start.get(w.start, np.inf), priced(w, form, prices))
        assert 1 <= len(got) <= min(4, len(by_start))
        assert [v for v, _, _ in got] == sorted(v for v, _, _ in got)
        assert len({T for _, T, _ in got}) == len(got)
        assert got[0][0] == pytest.approx(min(by_start.values()), abs=1e-9)
        assert got[0][0] == pytest.approx(price(sp, form, prices, free_start=free)[0], abs=1e-9)
        for v, T, chosen in got:
            col = Column.build(0, sp, T, chosen)
            hosts = sorted((sp.options[k].host for k in col.chosen),
                           key=lambda s: inst.node_index[s.node])
            w = make_window(inst, job, col.T, hosts)
            assert check_window(inst, job, w) == []
            assert priced(w, form, prices) == pytest.approx(v, abs=1e-9)
            if not free:  # every level is evaluated at every slot start
                assert by_start[T] == pytest.approx(v, abs=1e-9)
        if not free:  # AEP: every start is a candidate, so these are the k best starts
            want = sorted(by_start.values())[:4]
            assert [v for v, _, _ in got] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(
    "k",
    [
        0,  # no window asked for
        -2,  # negative count
    ],
)
def test_price_many_rejects_a_count_below_one(k: int) -> None:
    """A count below 1 is a ValueError naming the rule."""
    inst = generate("tiny", 1, jobs=1)
    with pytest.raises(ValueError, match="k >= 1"):
        price_many(JobSpace(inst, inst.jobs[0]), Linear(pt=1.0), Prices({}), k)


def test_flat_prices_sum_each_node_alone() -> None:
    """Prices.covered sums exactly the prices of [start, end) on the asked node (nodes
    without prices sum 0), beyond both ends of every node's times too."""
    prices = Prices({"a": (np.array([0, 3, 7]), np.array([1.0, 2.0, 4.0])),
                     "b": (np.array([-2, 5]), np.array([0.5, 8.0]))})
    rank = prices.flat[0]
    cases = [("a", 0, 4, 3.0), ("a", 1, 7, 2.0), ("a", -50, 50, 7.0), ("b", -2, 5, 0.5),
             ("b", 6, 99, 0.0), ("c", -9, 9, 0.0), ("a", 8, 8, 0.0)]
    ranks = np.array([rank.get(node, len(rank)) for node, _, _, _ in cases])
    got = prices.covered(ranks, np.array([c[1] for c in cases]), np.array([c[2] for c in cases]))
    assert got.tolist() == [c[3] for c in cases]


def test_offset_is_read_at_every_call() -> None:
    """A per-option bonus changed between two calls on the same space object is priced in
    (the option arrays are kept on the space, the bonus is not)."""
    inst = generate("tiny", 2, jobs=1)
    sp = JobSpace(inst, inst.jobs[0])
    form = Linear(pt=1.0)
    first = price(sp, form, Prices({}))
    assert first is not None
    sp.offset = np.zeros(len(sp.options))  # type: ignore[attr-defined]
    sp.offset[list(first[2])] = 5.0  # type: ignore[attr-defined]
    again = price(sp, form, Prices({}))
    assert again is not None and again[0] > first[0]


@pytest.mark.parametrize("columns", [1, 4])
def test_columns_per_round_reach_the_same_lp_bound(columns: int) -> None:
    """Several windows per job and round change the path, not the end: the converged LP
    value equals the one-window run's on a 6-job css2015 batch, Σ finish."""
    spaces, fresh = six_job_batch()
    ends = []
    for k in (1, columns):
        master = fresh()
        gen = column_generation(spaces, master, columns=k)
        assert gen.converged and gen.bound == pytest.approx(gen.lp, rel=1e-7)  # less its margin
        ends.append(gen.lp)
    assert ends[1] == pytest.approx(ends[0], abs=1e-6)


def test_master_solves_the_same_lp_whichever_way_columns_arrive() -> None:
    """Columns entering one by one (a solve after each: new rows and new columns apart)
    and all at once give the same LP value; ``x`` holds one variable per column even
    before a solve, and the parameters a caller sets are kept."""
    from models.joint.cg.master import DUAL, PRIMAL

    inst = generate("css2015", 2)
    jobs = list(inst.jobs[:6])
    spaces = [JobSpace(inst, job) for job in jobs]
    alts = find_alternatives(inst, "amp", jobs=[j.id for j in jobs]).by_job()
    cols = [Column.build(j, spaces[j], w.start,
                         [spaces[j].option_of(p.node, p.start, p.end) for p in w.placements])
            for j, job in enumerate(jobs) for w in alts.get(job.id, [])[:4]]
    count = len({c.j for c in cols})  # AMP's first alternatives are disjoint: feasible
    apart, together = (Master(len(spaces), Linear.of("finish"), count=count) for _ in "ab")
    for col in cols:
        together.add(col)
        apart.add(col)
        with contextlib.suppress(RuntimeError):  # infeasible until every job has a column
            apart.solve()
    assert len(together.x) == len(together.columns) == len(cols)
    assert together.lp.params == PRIMAL
    together.lp.SetSolverSpecificParametersAsString(DUAL)
    assert together.solve() == pytest.approx(apart.solve(), abs=1e-6)
    assert together.lp.params == DUAL
    assert sum(together.values()) == pytest.approx(count, abs=1e-6)
