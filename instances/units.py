"""The shared unit conversions of docs/concepts.md, in exact decimal arithmetic.

Every part of the project (heuristics, exact models, checker) turns
volumes, performances and prices into integer quanta and money through
these functions and nothing else. A real number of an instance is the
decimal it is written as (:func:`exact`), so ``duration(2.1, 0.7)`` is 3 and
``cost(0.1, 30)`` is 3 exactly, not by a rounding tolerance.

Binary floating point decides a result only when it is far from an integer:
a float product or quotient lies within a relative 1e-15 of the exact
decimal one, so when it is more than a relative 1e-9 away from every
integer its ceiling (or floor) is the exact one; otherwise the result is
recomputed with :class:`fractions.Fraction`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

_MARGIN = 1e-9
"""Relative distance to the nearest integer above which a float result's ceiling/floor is exact."""


@lru_cache(maxsize=4096)
def exact(value: float) -> Fraction:
    """Return the decimal number ``value`` is written as, as an exact fraction.

    A float reads as the shortest decimal that converts back to it (Python's
    ``repr``): the number as written in the file for any number of at most 15
    significant digits (``exact(0.1) == Fraction(1, 10)``, not the binary
    0.1000000000000000055...). Integers are themselves.
    """
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(float(value)))


def _near_integer(x: float) -> bool:
    return not math.isfinite(x) or abs(x - round(x)) <= _MARGIN * max(1.0, abs(x))


@lru_cache(maxsize=65536)
def _ceil_quotient(a: float, b: float) -> int:
    return math.ceil(exact(a) / exact(b))


@lru_cache(maxsize=65536)
def _ceil_product(a: float, b: int) -> int:
    return math.ceil(exact(a) * b)


def duration(volume: float, performance: float) -> int:
    """Return the run time, in integer quanta, of volume V on a node of performance p.

    ``duration(V, p) = ceil(V / p)`` in exact decimals (docs/concepts.md):
    ``duration(2.1, 0.7) == 3`` and ``duration(0.3, 0.1) == 3``. A positive
    volume takes at least one quantum.
    """
    q = volume / performance
    quanta = _ceil_quotient(volume, performance) if _near_integer(q) else math.ceil(q)
    return max(quanta, 1) if volume > 0 else quanta


def cost(price: float, quanta: int) -> int:
    """Return the integer money cost of ``quanta`` quanta at ``price`` per quantum.

    ``cost(price, d) = ceil(price · d)`` in exact decimals (docs/concepts.md):
    0.1 · 30 costs 3, 1.1 · 100 costs 110.
    """
    x = price * quanta
    return _ceil_product(price, quanta) if _near_integer(x) else math.ceil(x)


def budget_from_price(max_price: float, volume: float, nodes: int) -> int:
    """Return the default budget S = floor(C · V · n) of docs/concepts.md in exact decimals.

    Toporkov et al. 2011 §3, "S = CtN": ``budget_from_price(0.29, 100, 1) == 29``.
    """
    x = max_price * volume * nodes
    if _near_integer(x):
        return math.floor(exact(max_price) * exact(volume) * nodes)
    return math.floor(x)


def price_cap(
    max_price: float | None, budget: int | None, volume: float, nodes: int
) -> Fraction | None:
    """Return ALP's per-quantum price cap C as an exact fraction, or None when there is none.

    C is ``max_price`` when given; else the budget shared evenly over the
    job's n tasks of V quanta, C = S / (V · n) (Toporkov et al. 2011 §4: a
    window total of 30 on three nodes is a cap of 10 per slot). A slot
    priced exactly C suits (condition 2°c, ``C(s) ≤ C``): with S = 3, V = 0.8
    and n = 3, C is exactly 1.25, which a float division misses.
    """
    if max_price is not None:
        return exact(max_price)
    if budget is not None:
        return Fraction(budget) / (exact(volume) * nodes)
    return None
