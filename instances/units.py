"""The two shared unit conversions of docs/concepts.md.

Every part of the project (heuristics, exact models, checker) turns
volumes, performances and prices into integer quanta and money through
these two functions and nothing else.
"""

from __future__ import annotations

import math


def duration(volume: float, performance: float) -> int:
    """Return the run time, in integer quanta, of volume V on a node of performance p.

    ``duration(V, p) = ceil(V / p)`` (docs/concepts.md). ``round(..., 9)`` absorbs
    floating-point noise so that ``duration(2.1, 0.7) == 3``; a positive
    volume still takes at least one quantum (the rounding must not make
    ``V / p < 5e-10`` free).
    """
    quanta = math.ceil(round(volume / performance, 9))
    return max(quanta, 1) if volume > 0 else quanta


def cost(price: float, quanta: int) -> int:
    """Return the integer money cost of ``quanta`` quanta at ``price`` per quantum.

    ``cost(price, d) = ceil(round(price * d, 6))`` (docs/concepts.md): 0.1 * 30 costs 3.
    """
    return math.ceil(round(price * quanta, 6))


def budget_from_price(max_price: float, volume: float, nodes: int) -> int:
    """Return the default budget S = floor(C · V · n) of docs/concepts.md (Toporkov et al. 2011, "S
    = CtN")."""
    return math.floor(round(max_price * volume * nodes, 6))
