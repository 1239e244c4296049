"""The two SPEC §1 unit conversions and the default budget (instances/units.py)."""

from __future__ import annotations

import pytest

from instances import budget_from_price, cost, duration


@pytest.mark.parametrize(
    ("volume", "performance", "quanta"),
    [
        (80, 1, 80),  # etalon node: V quanta
        (80, 2, 40),  # exact division
        (81, 2, 41),  # ceil(40.5)
        (1, 4, 1),  # a fraction of a quantum still takes one
        (150, 1.5, 100),  # ratio of reals
        (70, 0.7, 100),  # the brief's example: must be 100
        (2.1, 0.7, 3),  # 2.1/0.7 = 3.0000000000000004 in binary: noise, not 4
        (10, 3, 4),  # 3.33.. -> 4
        (0.3, 0.1, 3),  # 0.3/0.1 = 2.9999999999999996 -> 3
        (1e-10, 1, 1),  # a positive volume takes a quantum even below the rounding precision
        (1, 1e10, 1),  # likewise for a very fast node
    ],
)
def test_duration(volume: float, performance: float, quanta: int) -> None:
    """duration(V, p) = ceil(V / p), immune to binary floating-point noise."""
    assert duration(volume, performance) == quanta
    assert isinstance(duration(volume, performance), int)


@pytest.mark.parametrize(
    ("price", "quanta", "money"),
    [
        (1, 10, 10),  # integer price
        (0.1, 30, 3),  # SPEC §1's example: 0.1 * 30 costs 3
        (1.1, 100, 110),  # 1.1 * 100 = 110.00000000000001 in binary: noise, not 111
        (0.2, 7, 2),  # 1.4000000000000001 -> 2 (a real fraction still rounds up)
        (1.25, 3, 4),  # 3.75 -> 4
        (0.5, 1, 1),  # half a unit rounds up
        (0, 100, 0),  # free node
        (2.5, 2, 5),  # exact
    ],
)
def test_cost(price: float, quanta: int, money: int) -> None:
    """cost(price, d) = ceil(round(price * d, 6)): 0.1 * 30 costs 3."""
    assert cost(price, quanta) == money
    assert isinstance(cost(price, quanta), int)


@pytest.mark.parametrize(
    ("max_price", "volume", "nodes", "budget"),
    [
        (5, 80, 2, 800),  # seed 000: S = C·t·N
        (0.29, 50, 2, 29),  # 0.29*50*2 = 28.999999999999996 in binary: 29, not 28
        (0.6, 8, 2, 9),  # 9.6 floors to 9
        (1.5, 3, 1, 4),  # 4.5 floors to 4
    ],
)
def test_budget_from_price(max_price: float, volume: float, nodes: int, budget: int) -> None:
    """S = floor(C · V · n) (SPEC §2), also immune to floating-point noise."""
    assert budget_from_price(max_price, volume, nodes) == budget
