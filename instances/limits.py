"""The representable ranges of problem data: one place, used by every data class.

The exact models compute in 64-bit integers (CP-SAT needs sums within about
2^62) and doubles; these ranges keep every derived number inside them:

- a task lasts ``ceil(V / p) <= 10^9 / 10^-3 = 10^12`` quanta, and a time
  (slot edge, horizon, release, deadline) lies within ``±10^12``;
- a task costs at most ``10^3 · 10^12 = 10^15`` and a window of at most 10^3
  tasks at most ``10^18 < 2^62``; a derived budget ``floor(C · V · n)`` is at
  most ``10^15``, the largest explicit budget;
- ``|q| <= 10^15``, so any sum of q stays far inside the doubles.

Each rule message states its range (``docs/guarantees.md`` lists them all).
"""

from __future__ import annotations

TIME_MAX = 10**12
"""Every time value t satisfies -TIME_MAX <= t <= TIME_MAX (integer quanta)."""
VOLUME_MAX = 10**9
"""0 < volume <= VOLUME_MAX."""
PERFORMANCE_MIN = 1e-3
PERFORMANCE_MAX = 1e6
"""PERFORMANCE_MIN <= performance <= PERFORMANCE_MAX; min_performance <= PERFORMANCE_MAX."""
PRICE_MAX = 10**3
"""0 <= price, slot price, max_price <= PRICE_MAX (money per quantum)."""
BUDGET_MAX = 10**15
"""0 <= budget <= BUDGET_MAX (integer money)."""
NODES_MAX = 10**3
"""1 <= a job's node count <= NODES_MAX."""
Q_MAX = 10**15
"""-Q_MAX <= q <= Q_MAX."""
REAL_MAX = 10**15
"""|priority| and numeric attributes or requirements <= REAL_MAX."""
FILE_MAX = 2**30
"""Largest instance file read, in bytes (1 GiB); only regular files are read."""
TEXT_MAX = 10**4
"""Ids and other strings: at most TEXT_MAX characters of valid Unicode text."""


def span(lo: float, hi: float) -> str:
    """Return ``[lo, hi]`` with powers of ten written as 10^k (for rule messages)."""
    return f"[{num(lo)}, {num(hi)}]"


def num(x: float) -> str:
    """Return ``x`` for a rule message: powers of ten from 10^3 on (and 10^-3 down) as 10^k."""
    for k in range(-9, 19):
        for sign in (1, -1):
            if x == sign * 10.0**k and abs(k) >= 3:
                return f"{'-' if sign < 0 else ''}10^{k}"
    return f"{x:g}" if isinstance(x, float) else str(x)
