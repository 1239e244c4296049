"""Self-adjusting Wentges smoothing with directional smoothing (models.joint.cg.stabilise):
the update rules on hand-checkable duals, and the stabilised root bound equal to the
unstabilised one."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import Duals
from models.joint.cg.generate import generate
from models.joint.cg.prices import Prices
from models.joint.cg.stabilise import HIGHEST, Smoother, Space
from tests.joint_batch import six_job_batch

SPACE = Space(Linear(), (), None)
"""Node-time prices only: no side rows, the count free."""


def at(*rho: float) -> Duals:
    """Return duals with the prices ``rho`` on node a's unit times 0, 1, … (zeros left out)."""
    items = [(t, r) for t, r in enumerate(rho) if r > 0]
    prices = {"a": (np.array([t for t, _ in items], dtype=np.int64),
                    np.array([r for _, r in items]))} if items else {}
    return Duals(Linear(), Prices(prices), 0.0, [0.0], 0.0)


def rho(d: Duals, n: int) -> list[float]:
    """Return node a's prices at the unit times 0 … n − 1."""
    t, r = d.prices.by_node.get("a", (np.zeros(0, np.int64), np.zeros(0)))
    out = [0.0] * n
    for ti, ri in zip(t.tolist(), r.tolist(), strict=True):
        out[ti] = ri
    return out


def test_wentges_point_is_the_convex_combination() -> None:
    """α = 0.5, centre ρ = 1, LP duals ρ = 3: the smoothed price is 2 (no subgradient yet)."""
    point, exact = Smoother(SPACE).point(at(1.0), at(3.0))
    assert not exact
    assert rho(point, 1) == pytest.approx([2.0])


@pytest.mark.parametrize(
    ("alpha", "k", "want"),
    [
        (0.8, 0, 0.8 * 1 + 0.2 * 3),  # no mispricing yet: α itself (no subgradient given)
        (0.8, 1, 0.6 * 1 + 0.4 * 3),  # ᾱ₁ = 1 − 2·0.2 = 0.6
        (0.8, 3, 0.2 * 1 + 0.8 * 3),  # ᾱ₃ = 1 − 4·0.2 = 0.2
        (0.5, 1, None),  # ᾱ₁ = 1 − 2·0.5 = 0: the LP duals themselves
        (0.8, 4, None),  # ᾱ₄ = 0
    ],
)
def test_mispricing_schedule_moves_to_the_lp_duals(alpha: float, k: int, want: float | None
                                                   ) -> None:
    """After k mispricings the point is ᾱ_k·centre + (1 − ᾱ_k)·LP with ᾱ_k = max(0,
    1 − (k + 1)(1 − α)), and the LP duals themselves once ᾱ_k = 0 (so convergence is
    exact)."""
    s = Smoother(SPACE, alpha=alpha, misprices=k)
    out = at(3.0)
    point, exact = s.point(at(1.0), out)
    if want is None:
        assert exact and point is out
    else:
        assert not exact and rho(point, 1) == pytest.approx([want])


@pytest.mark.parametrize(
    ("g", "want"),
    [
        (1.0, 0.4),  # g·(π_out − π_in) = 2 > 0: the bound rises towards the LP duals, α − 0.1
        (-1.0, 0.55),  # < 0: the smoothed point overshot, α + 0.1·(1 − α)
        (0.0, 0.55),  # = 0 counts as not rising
    ],
)
def test_alpha_adjusts_by_the_subgradient_direction(g: float, want: float) -> None:
    """α's self-adjustment from α = 0.5, centre ρ = 1, LP duals ρ = 3."""
    s = Smoother(SPACE)
    s.adjust({("r", "a", 0): g}, at(1.0), at(3.0))
    assert s.alpha == pytest.approx(want)


def test_alpha_stays_within_its_range() -> None:
    """α never passes :data:`HIGHEST` going up nor 0 going down."""
    s = Smoother(SPACE)
    for _ in range(100):
        s.adjust({("r", "a", 0): -1.0}, at(1.0), at(3.0))
    assert s.alpha == pytest.approx(HIGHEST)
    for _ in range(100):
        s.adjust({("r", "a", 0): 1.0}, at(1.0), at(3.0))
    assert s.alpha == 0.0


def test_directional_point_tilts_towards_the_subgradient() -> None:
    """Centre (1, 1), LP duals (3, 1), subgradient at the centre (1, 1), α = 0.5: β =
    cos 45° = 1/√2, π_g = centre + g·2/√2, ρ = β·π_g + (1 − β)·π_out = centre + (3 − √2, 1),
    and the point lies at (1 − α)·‖π_out − π_in‖ = 1 from the centre along ρ − centre."""
    s = Smoother(SPACE, centre_subgradient={("r", "a", 0): 1.0, ("r", "a", 1): 1.0})
    point, exact = s.point(at(1.0, 1.0), at(3.0, 1.0))
    step = np.array([3.0 - math.sqrt(2.0), 1.0])
    want = np.array([1.0, 1.0]) + step / np.linalg.norm(step)
    assert not exact
    assert rho(point, 2) == pytest.approx(want.tolist())


def test_directional_point_is_wentges_when_the_subgradient_points_away() -> None:
    """A subgradient at an obtuse angle to π_out − π_in gives β = 0: Wentges's point."""
    s = Smoother(SPACE, centre_subgradient={("r", "a", 0): -1.0})
    point, _ = s.point(at(1.0, 1.0), at(3.0, 1.0))
    assert rho(point, 2) == pytest.approx([2.0, 1.0])


def test_points_are_projected_on_valid_signs() -> None:
    """A tilt that would make a price negative is clipped to 0 (the price left out), so the
    point's Lagrangian value stays a valid bound."""
    s = Smoother(SPACE, centre_subgradient={("r", "a", 0): 1.0, ("r", "a", 1): -9.0})
    point, _ = s.point(at(1.0, 0.1), at(3.0, 0.1))
    t, r = point.prices.by_node["a"]
    assert t.tolist() == [0] and r[0] > 1.0


def test_subgradient_counts_the_chosen_windows() -> None:
    """μ = 10, P = 1, a VO budget of 5 on cost with λ = 1, prices at a's times 2 and 5: job 0's
    least window (value 3 < μ, cost 7, covering a's [0, 3)) is chosen, job 1's (12) is not.
    Rows at 0 and 2 are covered once (0), row 5 not at all (−1, its price is positive so it
    is kept), the budget's component is 7 − 5 = 2 and the count's 1 − 1 = 0."""
    space = Space(Linear(), [(Linear(cost=1.0), 5.0)], 1)
    d = space.duals({("r", "a", 2): 1.0, ("r", "a", 5): 0.5, ("s", 0): 1.0, ("m",): 10.0},
                    [0.0, 0.0])
    win = Column(j=0, T=0, chosen=(0,), tasks=(("a", 0, 3),), proc_time=3, cost=7, runtime=3)
    other = Column(j=1, T=9, chosen=(0,), tasks=(("a", 9, 12),), proc_time=3, cost=1,
                   runtime=3)
    g = space.subgradient(d, [(3.0, win), (12.0, other)], {"a": [0, 2, 5]})
    assert g == {("r", "a", 5): -1.0, ("s", 0): 2.0}


def test_space_round_trips_the_master_duals() -> None:
    """The vector of a master's duals rebuilds the same form, fixed part and prices."""
    space = Space(Linear(T=1.0), [(Linear(cost=1.0), 5.0)], 2)
    d = space.duals({("r", "a", 2): 1.5, ("s", 0): 0.5, ("m",): 4.0}, [0.0])
    assert d.form == Linear(T=1.0, cost=0.5)
    assert d.fixed == pytest.approx(4.0 * 2 - 0.5 * 5.0)
    assert space.vector(d) == {("r", "a", 2): 1.5, ("s", 0): 0.5, ("m",): 4.0}


@pytest.mark.parametrize("objective", ["finish", "proc_time", "cost"])
@pytest.mark.parametrize("mode", ["wentges", "directional"])
def test_stabilised_root_bound_equals_the_unstabilised_one(objective: str, mode: str) -> None:
    """On the 6-job css2015 batch (count fixed), the stabilised root converges to the same LP
    value and Lagrangian bound as plain column generation; every round's bound is valid."""
    spaces, fresh = six_job_batch(objective)
    plain = generate(spaces, fresh(), smoothing="off")
    smooth = generate(spaces, fresh(), smoothing=mode)
    assert plain.converged and smooth.converged
    assert smooth.lp == pytest.approx(plain.lp, abs=1e-6)
    assert smooth.bound == pytest.approx(plain.bound, abs=1e-6)
    assert smooth.bound <= plain.lp + 1e-9 * max(1.0, abs(plain.lp))
