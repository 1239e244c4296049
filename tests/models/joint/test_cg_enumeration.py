"""The listing of every window below a threshold (route enumeration) against brute force."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from instances import generate
from models.joint.cg.column import Linear
from models.joint.cg.enumeration import TooMany, count_below, windows_below
from models.joint.cg.pricing import Prices, price
from models.joint.space import JobSpace
from tests.models.joint.test_cg_pricing import priced, random_form, random_prices
from validation.joint_brute import all_windows

CASES = [(seed, geometry, free) for seed in range(30) for geometry in ("rough", "square")
         for free in (True, False)]


def key_of_window(w) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Return a window's identity: start and (node, end) of every task."""
    return w.start, tuple(sorted((p.node, p.end) for p in w.placements))


def key_of_listed(sp: JobSpace, T: int, chosen: tuple[int, ...]) -> tuple:
    """Return the identity of a listed window in the form of :func:`key_of_window`."""
    return T, tuple(sorted((sp.options[k].node, T + sp.options[k].d) for k in chosen))


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES)
def test_listing_equals_brute_force(seed: int, geometry: str, free: bool) -> None:
    """Random forms (runtime and start weights of either sign) and node-time prices, the
    threshold at a third of the sorted window values: the listing holds exactly the windows
    of priced value at most the threshold, each once, with its brute-force value."""
    rng = np.random.default_rng(700 + seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    for job in inst.jobs:
        sp = JobSpace(inst, job)
        form, prices = random_form(rng), random_prices(inst, rng)
        windows = all_windows(inst, job, free_start=free)
        values = sorted(priced(w, form, prices) for w in windows)
        theta = values[len(values) // 3] if values else 0.0
        want = {key_of_window(w): priced(w, form, prices) for w in windows
                if priced(w, form, prices) <= theta + 1e-9}
        listed = windows_below(sp, form, prices, theta, free_start=free)
        got = {key_of_listed(sp, T, chosen): v for v, T, chosen in listed}
        assert len(got) == len(listed)  # each window once
        assert got.keys() == want.keys()
        for key, v in got.items():
            assert v == pytest.approx(want[key], abs=1e-9)


def test_least_window_is_listed_at_its_value() -> None:
    """At the pricing oracle's least value as threshold the listing holds that window."""
    inst = generate("tiny", 3, jobs=2)
    sp = JobSpace(inst, inst.jobs[0])
    form = Linear.of("finish")
    least = price(sp, form, Prices({}))
    assert least is not None
    listed = windows_below(sp, form, Prices({}), least[0])
    assert listed and all(v == pytest.approx(least[0]) for v, _, _ in listed)
    assert (least[1], least[2]) in {(T, chosen) for _, T, chosen in listed}


def test_a_listing_past_its_limit_raises_and_count_below_returns_none() -> None:
    """More windows than the limit: TooMany, and None from the batch listing."""
    inst = generate("tiny", 1, jobs=2)
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    form = Linear.of("proc_time")
    every = [windows_below(sp, form, Prices({}), 1e9) for sp in spaces]
    total = sum(len(found) for found in every)
    assert total > 2
    with pytest.raises(TooMany):
        windows_below(spaces[0], form, Prices({}), 1e9, limit=len(every[0]) - 1)
    assert count_below(spaces, form, Prices({}), [1e9, 1e9], limit=total - 1) is None
    assert count_below(spaces, form, Prices({}), [1e9, 1e9], limit=total) == every


def test_a_job_without_threshold_gets_no_window() -> None:
    """A None threshold (a job with no window at all) lists nothing for that job."""
    inst = generate("tiny", 1, jobs=2)
    spaces = [JobSpace(inst, job) for job in inst.jobs]
    every = count_below(spaces, Linear.of("cost"), Prices({}), [1e9, 1e9])
    found = count_below(spaces, Linear.of("cost"), Prices({}), [None, 1e9])
    assert every is not None and every[0]
    assert found is not None and found[0] == [] and found[1] == every[1]


def long_slot_space() -> JobSpace:
    """A one-task job of 10 quanta in slots of 10^9 quanta: 10^9 starts of equal cost."""
    from instances import Instance, Job, Node, Slot

    inst = Instance((Node("a", 1.0, price=1.0), Node("b", 1.0, price=2.0)),
                    (Slot("a", 0, 10**9), Slot("b", 0, 10**9)), (Job("j", 1, 10.0),))
    return JobSpace(inst, inst.jobs[0])


def test_a_long_slot_stops_at_the_cap_before_writing_its_starts() -> None:
    """Every one of 2·10^9 windows is within the threshold: the listing raises TooMany at
    its cap of 1,000 without writing a piece's 10^9 starts (it once ran out of memory)."""
    import tracemalloc

    tracemalloc.start()
    with pytest.raises(TooMany):
        windows_below(long_slot_space(), Linear.of("cost"), Prices({}), 1e9, limit=1000)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50 * 2**20


def test_a_passed_deadline_stops_the_listing() -> None:
    """A deadline already passed: TooMany (None from the batch listing), nothing returned."""
    from models.joint.cg import enumeration
    from planner.deadline import Deadline

    sp = long_slot_space()
    gone = Deadline(0.0)
    old = enumeration.CHECK_EVERY
    enumeration.CHECK_EVERY = 1
    try:
        with pytest.raises(TooMany):
            windows_below(sp, Linear.of("cost"), Prices({}), 1e9, deadline=gone)
        assert count_below([sp], Linear.of("cost"), Prices({}), [1e9], deadline=gone) is None
    finally:
        enumeration.CHECK_EVERY = old


@pytest.mark.parametrize("seed", range(200))
def test_the_budget_subset_search_equals_the_dp(seed: int) -> None:
    """models.joint.cg.subsets.search (the pricing oracle's fallback when the DP's table
    would pass its cap) finds a subset of the DP's least value within the budget, with the
    level rule, or None exactly when the DP does."""
    from models.joint.cg.subsets import search
    from models.window.knapsack import select

    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 9)), int(rng.integers(1, 4))
    z = rng.integers(-5, 20, m).astype(float)
    c = rng.integers(0, 10, m)
    budget = int(rng.integers(0, 25))
    exact = rng.random(m) < 0.4 if seed % 2 else None
    want, got = select(z, c, n, budget, exact), search(z, c, n, budget, exact)
    assert (want is None) == (got is None)
    if got is not None:
        assert z[got].sum() == z[want].sum() and c[got].sum() <= budget
        assert len(set(got.tolist())) == n and (exact is None or exact[got].any())
