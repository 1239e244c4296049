"""Subset-row cuts of the joint master (Jepsen, Petersen, Spoorendonk & Pisinger 2008): a
hand-checked cut that lifts the LP, pricing under their charges against brute force over
every window, and cg with them on proving the brute-force optimum."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import models.joint.cg.solve as cg_solve
from instances import Instance, generate
from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals
from models.joint.cg.enumeration import windows_below
from models.joint.cg.fixing import allowed_starts
from models.joint.cg.master import Master
from models.joint.cg.pricing import Prices, price_many
from models.joint.cg.restrict import Limits, price_in, restrict
from models.joint.cg.subset_row import SubsetRow, separate_rows
from models.joint.space import JobSpace
from tests.models.joint.test_cg_cuts import charged, random_cuts
from tests.models.joint.test_cg_joint import cg_proves_brute_force
from tests.models.joint.test_cg_pricing import priced, random_form, random_prices
from validation.joint_brute import all_windows

POINTS = (("a", 1), ("b", 1), ("c", 1))


def two_task(j: int, first: str, second: str) -> Column:
    """Return job ``j``'s window at 0 with tasks [0, 2) on nodes ``first`` and ``second``."""
    return Column(j, 0, (0, 1), ((first, 0, 2), (second, 0, 2)), 4, 0, 2)


def triangle() -> tuple[list[Column], Master]:
    """Three jobs, each with one window worth −1 on two of the nodes a, b, c (a–b, b–c, c–a):
    any two windows share a node, so at most one is placed (integer optimum −1), but every
    node-time row and job row holds at x = ½ each (LP value −1.5)."""
    cols = [two_task(0, "a", "b"), two_task(1, "b", "c"), two_task(2, "a", "c")]
    m = Master(3, Linear(one=-1.0), differenced=False)
    for c in cols:
        m.add(c)
    return cols, m


def test_separation_finds_the_written_out_cut() -> None:
    """At x = ½ each, the candidate points are the tasks' starts (a, 0), (b, 0), (c, 0); each
    is covered by two windows and every window covers two of them: the left side is
    3 · ½ = 1.5 > 1, the one cut found."""
    cols, m = triangle()
    assert m.solve() == pytest.approx(-1.5)
    assert m.values() == pytest.approx([0.5, 0.5, 0.5])
    found = separate_rows(cols, m.values())
    assert found == [SubsetRow((("a", 0), ("b", 0), ("c", 0)))]
    assert sum(found[0].coefficient(col) * 0.5 for col in cols) == pytest.approx(1.5)


def test_the_subset_row_lifts_the_lp_to_the_integer_optimum() -> None:
    """With the cut over (a, 1), (b, 1), (c, 1) every window has coefficient 1, the LP value
    is −1 (the integer optimum), σ = 1 is the row's dual, the Lagrangian bound at those
    duals is −1 and no subset-row cut is violated any more."""
    cols, m = triangle()
    m.solve()
    cut = SubsetRow(POINTS)
    assert [cut.coefficient(c) for c in cols] == [1, 1, 1]
    m.add_subset_row(cut)
    assert m.solve() == pytest.approx(-1.0)
    d = m.duals()
    assert [s for _, s in d.prices.rows] == pytest.approx([1.0])
    assert [d.reduced(c) for c in cols] == pytest.approx([0.0, 0.0, 0.0])
    assert separate_rows(cols, m.values(), known=frozenset({cut})) == []


@pytest.mark.parametrize(
    ("points", "rule"),
    [
        ((("a", 1), ("b", 1)), "three distinct points"),  # two points only
        ((("a", 1), ("a", 1), ("b", 1)), "three distinct points"),  # a point twice
        ((("a", 1), ("a", 2), ("a", 3)), "two nodes"),  # one node: node-time rows already
        ((("b", 1), ("a", 1), ("c", 1)), "sorted"),  # not sorted: two names of one cut
    ],
)
def test_a_subset_row_needs_three_points_on_two_nodes(points: tuple, rule: str) -> None:
    """Malformed cuts are refused with the rule they break."""
    with pytest.raises(ValueError, match=rule):
        SubsetRow(points)


@pytest.mark.parametrize(
    ("tasks", "hits"),
    [
        ((("a", 0, 2), ("b", 0, 2)), 2),  # covers (a, 1) and (b, 1)
        ((("a", 2, 4), ("b", 0, 2)), 1),  # [2, 4) starts after t = 1
        ((("a", 1, 2), ("b", 0, 1), ("c", 1, 9)), 2),  # [0, 1) ends before t = 1
        ((("d", 0, 9),), 0),  # no point on d
    ],
)
def test_hits_count_covered_points(tasks: tuple, hits: int) -> None:
    """A task [s, e) on node k covers (k, t) iff s ≤ t < e; the coefficient is ⌊hits / 2⌋
    and the prices' charge σ times it."""
    cut = SubsetRow(POINTS)
    assert cut.hits(tasks) == hits
    prices = Prices({}, rows=((POINTS, 2.5),))
    assert prices.row_charge(tasks) == 2.5 * (hits // 2)


def random_rows(inst: Instance, rng: np.random.Generator, prices: Prices, windows) -> Prices:  # type: ignore[no-untyped-def]
    """Return ``prices`` with 1–6 random subset-row cuts (σ uniform in [0, 4]) whose points
    are taken inside tasks of random windows (so that windows cover two of them), and a
    few anywhere in the horizon."""
    horizon = max(s.end for s in inst.slots)
    nodes = [n.id for n in inst.nodes]
    rows = []
    for _ in range(int(rng.integers(1, 7))):
        points: set[tuple[str, int]] = set()
        while len(points) < 3:
            if windows and rng.random() < 0.8:
                w = windows[int(rng.integers(len(windows)))]
                p = w.placements[int(rng.integers(len(w.placements)))]
                points.add((p.node, int(rng.integers(p.start, p.end))))
            else:
                points.add((nodes[int(rng.integers(len(nodes)))], int(rng.integers(0, horizon))))
        pts = tuple(sorted(points))
        if len({k for k, _ in pts}) >= 2:
            rows.append((pts, float(rng.uniform(0.0, 4.0))))
    return Prices(prices.by_node, prices.charges, rows=tuple(rows))


def row_charged(window, prices: Prices) -> float:  # type: ignore[no-untyped-def]
    """Return the subset-row charges of a brute-force window (the inequality as written)."""
    return prices.row_charge([(p.node, p.start, p.end) for p in window.placements])


CASES = [(seed, geometry, free) for seed in range(20) for geometry in ("rough", "square")
         for free in (True, False)]


def jobs_with_rows(seed: int, geometry: str, free: bool, robust: bool):  # type: ignore[no-untyped-def]
    """Yield (j, space, windows, form, prices, value of each window) of the seed's tiny
    instance under random forms, node prices, subset-row cuts and (``robust``) robust cuts."""
    rng = np.random.default_rng(7000 + seed)
    inst = dataclasses.replace(generate("tiny", seed, jobs=3), geometry=geometry)
    for j, job in enumerate(inst.jobs):
        windows = all_windows(inst, job, free_start=free)
        form = random_form(rng)
        prices = random_prices(inst, rng)
        if robust:
            prices = random_cuts(inst, rng, prices)
        prices = random_rows(inst, rng, prices, windows)
        if windows:
            values = [priced(w, form, prices) + charged(w, j, prices) + row_charged(w, prices)
                      for w in windows]
            yield j, JobSpace(inst, job), windows, form, prices, values


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES)
def test_pricing_with_subset_row_charges_equals_brute_force(
    seed: int, geometry: str, free: bool
) -> None:
    """The oracle's least value under node prices and subset-row cuts (and robust cuts, the
    second time) is the least brute-force value of any window, its window's reduced cost
    agrees, and each of the k best windows at distinct starts is worth its reduced cost and
    no less than the least brute-force value at its start."""
    for j, sp, windows, form, prices, values in [
            *jobs_with_rows(seed, geometry, free, False),
            *jobs_with_rows(seed, geometry, free, True)]:
        capped: set[int] = set()
        got = price_many(sp, form, prices.of(j), 3, free_start=free, capped=capped)
        assert not capped
        assert got and got[0][0] == pytest.approx(min(values), abs=1e-9)
        d = Duals(form, prices, 0.0, [0.0] * 3, 0.0)
        for value, T, chosen in got:
            c = Column.build(j, sp, T, chosen)
            assert d.reduced(c) == pytest.approx(value, abs=1e-9)
            assert value >= min(v for w, v in zip(windows, values, strict=True)
                                if w.start == T) - 1e-9


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES[::3])
def test_restricted_pricing_with_subset_rows_equals_brute_force(
    seed: int, geometry: str, free: bool
) -> None:
    """Branch-and-price's pricing with a required node (the bonus −M on its options) under
    subset-row charges: the least value over the windows using that node, by brute force."""
    for j, sp, windows, form, prices, values in jobs_with_rows(seed, geometry, free, False):
        node = windows[0].placements[0].node
        rs = restrict(sp, Limits(required_nodes={node}))
        assert rs is not None
        got = price_in(rs, form, prices.of(j), free_start=free)
        want = min(v for w, v in zip(windows, values, strict=True)
                   if node in {p.node for p in w.placements})
        assert got is not None and got[0] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize(("seed", "geometry", "free"), CASES[1::3])
def test_fixing_and_listing_without_the_charges_keep_every_charged_window(
    seed: int, geometry: str, free: bool
) -> None:
    """Reduced-cost fixing and the listing leave the subset-row charges out (they are ≥ 0):
    every start with a window whose charged value meets the threshold is kept, and every
    such window is listed (with its charge-free value, at most the charged one)."""
    for j, sp, windows, form, prices, values in jobs_with_rows(seed, geometry, free, True):
        theta = sorted(values)[len(values) // 3] + 1e-9
        spans = allowed_starts(sp, form, prices.of(j), theta, free)
        kept = {t for lo, hi in spans for t in range(lo, hi + 1)}
        assert {w.start for w, v in zip(windows, values, strict=True) if v <= theta} <= kept
        listed = {(T, frozenset((sp.options[k].node, T, T + sp.options[k].d) for k in chosen)):
                  value for value, T, chosen in windows_below(sp, form, prices.of(j), theta,
                                                              free_start=free)}
        for w, v in zip(windows, values, strict=True):
            if v <= theta:
                key = (w.start, frozenset((p.node, p.start, p.end) for p in w.placements))
                assert key in listed and listed[key] <= v + 1e-9


def test_smoothing_keeps_the_subset_row_multipliers() -> None:
    """The stabiliser's vector holds σ per cut and gives it back; a blend of two duals
    mixes σ as it mixes the other multipliers."""
    from models.joint.cg.stabilise import Space

    d = Duals(Linear.of("finish"), Prices({}, rows=((POINTS, 2.0),)), 0.0, [0.0], 0.0)
    space = Space(Linear.of("finish"), (), None)
    assert space.vector(d) == {("u", POINTS): 2.0}
    assert space.duals(space.vector(d), [0.0]).prices.rows == ((POINTS, 2.0),)
    half = d.blend(Duals(Linear.of("finish"), Prices({}), 0.0, [0.0], 0.0), 0.25)
    assert half.prices.rows == ((POINTS, 0.5),)
    assert half.lagrangian([None]) == pytest.approx(-0.5)


def test_a_capped_search_prices_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the search capped at one branch, every start that needs it is flagged and its
    value is the charge-free value of its window, never above the true least value."""
    import models.joint.cg.rowpricing as rowpricing

    monkeypatch.setattr(rowpricing, "MAX_STATES", 1)
    flagged = 0
    for seed in range(10):
        for j, sp, _, form, prices, values in jobs_with_rows(seed, "rough", True, False):
            capped: set[int] = set()
            got = price_many(sp, form, prices.of(j), 1, capped=capped)
            assert got[0][0] <= min(values) + 1e-9
            flagged += bool(capped)
    assert flagged


@pytest.fixture
def rows_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch the root subset-row cuts on, at most 2 per round so that rounds repeat."""
    import models.joint.cg.strengthen as strengthen

    monkeypatch.setattr(cg_solve, "SUBSET_ROW", True)
    monkeypatch.setattr(strengthen, "ROWS_PER_ROUND", 2)


@pytest.mark.parametrize("seed", range(40))
def test_cg_with_subset_rows_proves_the_brute_force_optimum(seed: int, rows_on: None) -> None:
    """Tiny 3-job batches as in the cg tests, subset-row cuts on: cg proves the brute-force
    optimum and its bounds before and after the cuts never pass it."""
    r, best, sense = cg_proves_brute_force(seed)
    cuts = r.info["cg"].get("cuts")
    if cuts is not None:
        for bound in (cuts["before"], cuts["after"]):
            assert (bound <= best + 1e-6) if sense == "min" else (bound >= best - 1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("close", ["enumerate", "branch"])
def test_subset_rows_raise_the_bound_and_never_past_the_compact_optimum(
    close: str, rows_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tiny 6-job batches (Σ finish, Σ start, Σ proc_time, Σ cost; both geometries), where
    the root is fractional more often: cg with subset-row cuts proves the compact model's
    optimum (the gap closed by the listing, which leaves the charges out, or by
    branch-and-price pricing under them), the bound after the cuts never passes it, and
    cuts are added and raise the bound on some batches."""
    from tests.models.joint.test_cg_cuts import six_job_batches_against_compact

    monkeypatch.setattr(cg_solve, "CLOSE", close)
    raised, _ = six_job_batches_against_compact("subset_row")
    assert raised >= 2
