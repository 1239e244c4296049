"""The exact pricing oracle of the column generation against brute force over every window."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from instances import Instance, generate
from models.joint.cg.column import Column, Linear
from models.joint.cg.fixing import allowed_options, allowed_starts
from models.joint.cg.pricing import Prices, price
from models.joint.space import JobSpace
from planner import make_window
from validation import check_window
from validation.joint_brute import all_windows, value


def random_prices(inst: Instance, rng: np.random.Generator) -> Prices:
    """Return random non-negative prices on a few unit times of each node (some nodes none)."""
    horizon = max(s.end for s in inst.slots)
    out = {}
    for node in inst.nodes:
        k = int(rng.integers(0, 6))
        if k:
            t = np.unique(rng.integers(0, horizon + 1, size=k))
            out[node.id] = (t.astype(np.int64), rng.uniform(0.0, 3.0, size=len(t)))
    return Prices(out)


def random_form(rng: np.random.Generator) -> Linear:
    """Return a random form; runtime and start weights take either sign (maximised metrics)."""
    a = rng.uniform(-1.0, 1.0, size=5)
    a[0:2] = np.abs(a[0:2]) * rng.choice([0.0, 1.0], size=2)
    return Linear(*a)


def priced(window, form: Linear, prices: Prices) -> float:
    """Return form(window) + the prices of the unit times its tasks cover (brute force)."""
    total = sum(form.__getattribute__(k) * value(window, m) for k, m in
                (("pt", "proc_time"), ("cost", "cost"), ("rt", "runtime"), ("T", "start")))
    total += form.one
    for p in window.placements:
        t, rho = prices.by_node.get(p.node, (np.zeros(0), np.zeros(0)))
        total += float(rho[(t >= p.start) & (t < p.end)].sum())
    return total


CASES = [(seed, geometry, free) for seed in range(25) for geometry in ("rough", "square")
         for free in (True, False)]


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES)
def test_pricing_equals_brute_force(seed: int, geometry: str, free: bool) -> None:
    """Every job, random duals: the oracle's value is the least priced value of any window,
    and its window has exactly that value and passes the window checker."""
    rng = np.random.default_rng(seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    for job in inst.jobs:
        sp = JobSpace(inst, job)
        for _ in range(3):
            form, prices = random_form(rng), random_prices(inst, rng)
            got = price(sp, form, prices, free_start=free)
            windows = all_windows(inst, job, free_start=free)
            if not windows:
                assert got is None
                continue
            want = min(priced(w, form, prices) for w in windows)
            assert got is not None and got[0] == pytest.approx(want, abs=1e-9)
            col = Column.build(0, sp, got[1], got[2])
            hosts = sorted((sp.options[k].host for k in col.chosen),
                           key=lambda s: inst.node_index[s.node])
            w = make_window(inst, job, col.T, hosts)
            assert check_window(inst, job, w) == []
            assert priced(w, form, prices) == pytest.approx(want, abs=1e-9)


def test_pricing_with_a_budget_that_bites() -> None:
    """A budget below the cheapest-by-value subset: the oracle still equals brute force."""
    rng = np.random.default_rng(7)
    inst = generate("tiny", 3, jobs=3)
    for job in inst.jobs:
        windows = all_windows(dataclasses.replace(inst, jobs=(job,)), job)
        if len(windows) < 2:
            continue
        costs = sorted({value(w, "cost") for w in windows})
        tight = dataclasses.replace(job, budget=costs[len(costs) // 2])
        inst2 = dataclasses.replace(inst, jobs=(tight,))
        sp = JobSpace(inst2, tight)
        form = Linear(cost=-1.0)  # the most expensive window wins unless the budget stops it
        prices = random_prices(inst2, rng)
        got = price(sp, form, prices)
        want = min(priced(w, form, prices) for w in all_windows(inst2, tight))
        assert got is not None and got[0] == pytest.approx(want, abs=1e-9)


def jobs_under_random_duals(
    rng_seed: int, seed: int, geometry: str, free: bool
) -> Iterator[tuple[JobSpace, list, Linear, Prices]]:
    """Yield each job with windows of the seed's tiny instance: its space, every window, and
    a random form and prices drawn from ``rng_seed``."""
    rng = np.random.default_rng(rng_seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    for job in inst.jobs:
        windows = all_windows(inst, job, free_start=free)
        if windows:
            yield JobSpace(inst, job), windows, random_form(rng), random_prices(inst, rng)


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES[::2])
def test_allowed_starts_equal_brute_force(seed: int, geometry: str, free: bool) -> None:
    """Reduced-cost fixing keeps exactly the starts at which some window's priced value is
    within the threshold (thresholds between the least and the largest value)."""
    for sp, windows, form, prices in jobs_under_random_duals(1000 + seed, seed, geometry, free):
        by_start: dict[int, float] = {}
        for w in windows:
            by_start[w.start] = min(by_start.get(w.start, np.inf), priced(w, form, prices))
        values = sorted(by_start.values())
        threshold = values[len(values) // 3] + 1e-9
        spans = allowed_starts(sp, form, prices, threshold, free)
        got = {t for lo, hi in spans for t in range(lo, hi + 1)}
        assert got == {t for t, v in by_start.items() if v <= threshold}


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES[1::2])
def test_allowed_options_keep_every_option_of_a_cheap_window(
    seed: int, geometry: str, free: bool
) -> None:
    """Option fixing is sound: every option of a window within the threshold stays (the
    rule is a lower bound, so it may keep more)."""
    for sp, windows, form, prices in jobs_under_random_duals(2000 + seed, seed, geometry, free):
        values = sorted(priced(w, form, prices) for w in windows)
        threshold = values[len(values) // 4] + 1e-9
        kept = allowed_options(sp, form, prices, threshold, free)
        for w in windows:
            if priced(w, form, prices) <= threshold:
                used = {sp.option_of(p.node, p.start, p.end) for p in w.placements}
                assert used <= kept
