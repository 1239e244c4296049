"""Robust cuts of the joint master (van den Akker, van Hoesel & Savelsbergh 1999): the
separation on a hand-checked case, pricing, fixing and listing under the cuts' charges
against brute force, and the bound with cuts never past the optimum."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import models.joint.cg.solve as cg_solve
from instances import Instance, generate
from models import solve_joint
from models.joint.cg.column import Column, Linear
from models.joint.cg.cuts import Cut, separate
from models.joint.cg.duals import Duals
from models.joint.cg.enumeration import windows_below
from models.joint.cg.fixing import allowed_starts
from models.joint.cg.master import Master
from models.joint.cg.pricing import Prices, price
from models.joint.space import JobSpace
from tests.models.joint.test_cg_joint import cg_proves_brute_force
from tests.models.joint.test_cg_pricing import priced, random_form, random_prices
from validation import check_alternatives
from validation.joint_brute import all_windows


def col(j: int, start: int, end: int, node: str = "k") -> Column:
    """Return a one-task column of job ``j`` on ``node`` over ``[start, end)``."""
    return Column(j, start, (0,), ((node, start, end),), end - start, 0, end - start)


def pinwheel() -> tuple[list[Column], Master]:
    """Job 0's windows [0, 2) and [2, 4) and job 1's [1, 3) on node k, each worth 1: the LP
    takes each at 1/2 (value 1.5) while one window at most fits (integer optimum 1)."""
    cols = [col(0, 0, 2), col(0, 2, 4), col(1, 1, 3)]
    m = Master(2, Linear(one=-1.0), differenced=False)
    for c in cols:
        m.add(c)
    return cols, m


def test_separation_finds_the_written_out_cut() -> None:
    """At x = (1/2, 1/2, 1/2) every node-time row holds (t = 1: [0,2) and [1,3); t = 2:
    [2,4) and [1,3)), but I = [1, 3) with l = job 0 is violated: job 0's tasks both meet
    it (1/2 + 1/2) and job 1's task covers it (1/2), 1.5 > 1. It is the only violated cut
    (job 1's own cut has 1/2)."""
    cols, m = pinwheel()
    assert m.solve() == pytest.approx(-1.5)
    assert m.values() == pytest.approx([0.5, 0.5, 0.5])
    assert separate(cols, m.values()) == [Cut("k", 1, 3, 0)]


def test_the_cut_row_closes_the_lp_to_the_integer_optimum() -> None:
    """With the cut the LP value is −1 (the integer optimum), the cut's dual η is 1, and
    nothing is separated any more."""
    cols, m = pinwheel()
    m.solve()
    m.add_cut(Cut("k", 1, 3, 0))
    assert m.solve() == pytest.approx(-1.0)
    d = m.duals()
    assert sum(eta for *_, eta in d.prices.charges) == pytest.approx(1.0)
    assert separate(cols, m.values()) == []


@pytest.mark.parametrize(
    ("cut", "j", "span", "inside"),
    [
        (Cut("k", 3, 6, 0), 0, (5, 8), True),  # its own job: meets [3, 6)
        (Cut("k", 3, 6, 0), 0, (6, 8), False),  # own job, starts at b: does not meet
        (Cut("k", 3, 6, 0), 0, (1, 4), True),  # own job, ends inside
        (Cut("k", 3, 6, 0), 1, (2, 6), True),  # another job: covers [3, 6)
        (Cut("k", 3, 6, 0), 1, (3, 7), True),  # another job, covers from a
        (Cut("k", 3, 6, 0), 1, (4, 9), False),  # another job, starts inside: no
        (Cut("k", 3, 6, 0), 1, (1, 5), False),  # another job, ends inside: no
    ],
)
def test_a_task_is_in_the_cut_as_written(cut: Cut, j: int, span: tuple, inside: bool) -> None:
    """Job l's tasks meeting I, other jobs' tasks covering I, and nothing else."""
    assert cut.holds(j, *span) is inside
    assert cut.coefficient(col(j, *span)) == int(inside)
    assert cut.coefficient(col(j, *span, node="other")) == 0


@pytest.mark.parametrize(("a", "b"), [(3, 4), (3, 3), (5, 2)])  # b − a < 2: a node row or less
def test_a_cut_needs_an_interval_of_two(a: int, b: int) -> None:
    """An interval shorter than 2 is refused."""
    with pytest.raises(ValueError, match="b − a >= 2"):
        Cut("k", a, b, 0)


def test_prices_with_cuts_refuse_to_price_without_a_job() -> None:
    """The charge depends on the job: pricing a job at prices whose cuts have no job fails
    loudly instead of pricing wrongly."""
    inst = generate("tiny", 1, jobs=3)
    sp = JobSpace(inst, inst.jobs[0])
    prices = Prices({}, (("n1", 0, 40, 1, 1.0),))
    with pytest.raises(ValueError, match=r"prices\.of"):
        price(sp, Linear.of("finish"), prices)
    assert price(sp, Linear.of("finish"), prices.of(0)) is not None


def random_cuts(inst: Instance, rng: np.random.Generator, prices: Prices) -> Prices:
    """Return ``prices`` with a few random cuts (random node, interval, job, η)."""
    horizon = max(s.end for s in inst.slots)
    charges = []
    for _ in range(int(rng.integers(1, 7))):
        a = int(rng.integers(0, horizon))
        b = a + int(rng.integers(2, 12))
        node = inst.nodes[int(rng.integers(len(inst.nodes)))].id
        charges.append((node, a, b, int(rng.integers(0, len(inst.jobs))),
                        float(rng.uniform(0.0, 4.0))))
    return Prices(prices.by_node, tuple(charges))


def charged(window, j: int, prices: Prices) -> float:
    """Return the brute-force value plus the cuts' charges (the inequality as written)."""
    total = 0.0
    for p in window.placements:
        for node, a, b, job, eta in prices.charges:
            if p.node != node:
                continue
            meets = p.start < b and p.end > a
            covers = p.start <= a and p.end >= b
            if (meets if job == j else covers):
                total += eta
    return total


CASES = [(seed, geometry, free) for seed in range(20) for geometry in ("rough", "square")
         for free in (True, False)]


def jobs_with_cuts(seed: int, geometry: str, free: bool):  # type: ignore[no-untyped-def]
    """Yield (j, space, windows, form, prices with cuts, value of each window) of the
    seed's tiny instance under random forms, prices and cuts."""
    rng = np.random.default_rng(3000 + seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    for j, job in enumerate(inst.jobs):
        windows = all_windows(inst, job, free_start=free)
        form = random_form(rng)
        prices = random_cuts(inst, rng, random_prices(inst, rng))
        if windows:
            values = [priced(w, form, prices) + charged(w, j, prices) for w in windows]
            yield j, JobSpace(inst, job), windows, form, prices, values


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES)
def test_pricing_with_cut_charges_equals_brute_force(seed: int, geometry: str, free: bool
                                                     ) -> None:
    """The oracle's least value under node prices and cuts is the least brute-force value
    of any window, and reduced costs of its window agree."""
    for j, sp, _, form, prices, values in jobs_with_cuts(seed, geometry, free):
        got = price(sp, form, prices.of(j), free_start=free)
        assert got is not None and got[0] == pytest.approx(min(values), abs=1e-9)
        c = Column.build(j, sp, got[1], got[2])
        d = Duals(form, prices, 0.0, [0.0] * 3, 0.0)
        assert d.reduced(c) == pytest.approx(got[0], abs=1e-9)


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES[::2])
def test_fixing_and_listing_with_cut_charges_equal_brute_force(
    seed: int, geometry: str, free: bool
) -> None:
    """Reduced-cost fixing keeps exactly the starts with a window within the threshold,
    and the listing exactly the windows within it, under cuts' charges."""
    for j, sp, windows, form, prices, values in jobs_with_cuts(seed, geometry, free):
        theta = sorted(values)[len(values) // 3] + 1e-9
        by_start: dict[int, float] = {}
        for w, v in zip(windows, values, strict=True):
            by_start[w.start] = min(by_start.get(w.start, np.inf), v)
        spans = allowed_starts(sp, form, prices.of(j), theta, free)
        assert {t for lo, hi in spans for t in range(lo, hi + 1)} == {
            t for t, v in by_start.items() if v <= theta}
        listed = windows_below(sp, form, prices.of(j), theta, free_start=free)
        assert sorted(v for v, _, _ in listed) == pytest.approx(
            sorted(v for v in values if v <= theta), abs=1e-9)


@pytest.fixture
def cuts_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the root cuts on, at most 2 per round so that rounds repeat."""
    import models.joint.cg.strengthen as strengthen

    monkeypatch.setattr(cg_solve, "CUTS", True)
    monkeypatch.setattr(strengthen, "PER_ROUND", 2)


@pytest.mark.parametrize("seed", range(40))
def test_cg_with_cuts_proves_the_brute_force_optimum(seed: int, cuts_on: None) -> None:
    """Tiny 3-job batches as in the cg tests, cuts on: cg proves the brute-force optimum
    and its bounds before and after the cuts never pass it."""
    r, best, sense = cg_proves_brute_force(seed)
    cuts = r.info["cg"].get("cuts")
    if cuts is not None:
        for bound in (cuts["before"], cuts["after"]):
            assert (bound <= best + 1e-6) if sense == "min" else (bound >= best - 1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("close", ["enumerate", "branch"])
def test_cuts_raise_the_bound_and_never_past_the_compact_optimum(
    close: str, cuts_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiny 6-job batches (Σ finish, Σ start, Σ proc_time, Σ cost; both geometries), where
    the root is fractional more often: cg with cuts proves the compact model's optimum
    (the gap closed by the listing, or by branch-and-price pricing under the cuts), the
    bound after the cuts never passes it, and cuts are added and raise the bound on some
    batches (4 of these 40 when written)."""
    monkeypatch.setattr(cg_solve, "CLOSE", close)
    raised, tree = six_job_batches_against_compact("added")
    assert raised >= 3
    assert close != "branch" or tree >= 1  # the tree priced under the cuts


def six_job_batches_against_compact(added: str) -> tuple[int, int]:
    """Solve 40 tiny 6-job batches (Σ finish, Σ start, Σ proc_time, Σ cost; both
    geometries) by cg and by the compact model; assert that cg proves the compact optimum
    with a valid set of windows and that the root bound after the cuts lies between the
    one before and the optimum. Return the batches whose cuts (``info["cuts"][added]``)
    raised the bound, and those of them that the tree closed."""
    raised = tree = 0
    for seed in range(40):
        geometry = ("rough", "square")[seed % 2]
        inst = dataclasses.replace(generate("tiny", seed, jobs=6), geometry=geometry)
        objective = ["finish", "start", "proc_time", "cost"][seed % 4]
        r = solve_joint(inst, objective, "cg")
        want = solve_joint(inst, objective, "cpsat")
        assert want.status == r.status == "optimal"
        assert r.objective == want.objective
        assert check_alternatives(inst, r.windows, sequential=False) == []
        cuts = r.info["cg"].get("cuts")
        if cuts is not None:
            assert cuts["before"] <= cuts["after"] <= want.objective + 1e-6
            raised += cuts[added] > 0 and cuts["after"] > cuts["before"] + 1e-6
            tree += cuts[added] > 0 and bool(r.info["cg"].get("nodes"))
    return raised, tree
