"""The unit conversions, the default budget and ALP's cap in exact decimals (instances/units.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from instances import budget_from_price, cost, duration
from instances.units import exact, price_cap


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
        (1.0000000001, 1, 2),  # exact decimals: a hair over one quantum is two
        (4.0000000001, 2, 3),  # likewise after a division
        (0.7, 0.07, 10),  # 0.7/0.07 = 9.999999999999998 in binary: exactly 10
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
        (1e-7, 1, 1),  # exact decimals: any positive cost is at least one unit
        (0.1000001, 10, 2),  # 1.000001 rounds up, however close to 1
        (0.29, 100, 29),  # 28.999999999999996 in binary: exactly 29
    ],
)
def test_cost(price: float, quanta: int, money: int) -> None:
    """cost(price, d) = ceil(price · d) in exact decimals: 0.1 * 30 costs 3."""
    assert cost(price, quanta) == money
    assert isinstance(cost(price, quanta), int)


@pytest.mark.parametrize(
    ("max_price", "volume", "nodes", "budget"),
    [
        (5, 80, 2, 800),  # seed 000: S = C·t·N
        (0.29, 50, 2, 29),  # 0.29*50*2 = 28.999999999999996 in binary: 29, not 28
        (0.6, 8, 2, 9),  # 9.6 floors to 9
        (1.5, 3, 1, 4),  # 4.5 floors to 4
        (0.29, 100, 1, 29),  # 28.999999999999996 in binary: exactly 29
        (0.3333333, 3, 1, 0),  # 0.9999999 floors to 0, however close to 1
        (1.1, 3, 3, 9),  # 9.9 (9.900000000000002 in binary) floors to 9
    ],
)
def test_budget_from_price(max_price: float, volume: float, nodes: int, budget: int) -> None:
    """S = floor(C · V · n) in exact decimals, immune to floating-point noise."""
    assert budget_from_price(max_price, volume, nodes) == budget


@pytest.mark.parametrize(
    ("max_price", "budget", "volume", "nodes", "cap"),
    [
        (1.5, None, 3.0, 1, Fraction(3, 2)),  # C itself
        (1.5, 10, 3.0, 1, Fraction(3, 2)),  # C wins over a budget
        (None, 30, 10.0, 3, Fraction(1)),  # Toporkov et al. 2011 §4: 30 on 3 nodes, 1 per quantum
        (None, 3, 0.8, 3, Fraction(5, 4)),  # 3 / 2.4: exactly 1.25 (1.2499999999999998 in floats)
        (None, None, 3.0, 1, None),  # neither: no cap
    ],
)
def test_price_cap(
    max_price: float | None, budget: int | None, volume: float, nodes: int, cap: Fraction | None
) -> None:
    """ALP's cap C is max_price, else S / (V · n), as an exact fraction."""
    assert price_cap(max_price, budget, volume, nodes) == cap


@pytest.mark.parametrize(
    ("value", "fraction"),
    [
        (0.1, Fraction(1, 10)),  # the decimal as written, not the binary 0.1000000000000000055...
        (2, Fraction(2)),  # integers are themselves
        (1e-7, Fraction(1, 10**7)),  # exponent notation
        (123.456, Fraction(123456, 1000)),
    ],
)
def test_exact_reads_the_written_decimal(value: float, fraction: Fraction) -> None:
    """exact(x) is the shortest decimal that reads back as x."""
    assert exact(value) == fraction
