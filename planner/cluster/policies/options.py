"""Checks of the policies' keyword options: type, range and finiteness, one-line errors.

Every option that sizes a loop has an upper bound (:mod:`instances.limits`), so no
option value turns a replay into an endless one. The rule text names the policy,
the option and the range, e.g. ``tabu: per_job must be a finite number in [0, 100]``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from instances.limits import num


def count(policy: str, name: str, value: Any, low: int, high: int) -> int:
    """Return ``value`` if it is an integer (not a bool) in ``[low, high]``; else ValueError."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{policy}: {name} must be an integer in [{num(low)}, {num(high)}]")
    return value


def real(policy: str, name: str, value: Any, low: float, high: float) -> float:
    """Return ``value`` as a float if it is a finite number in ``[low, high]``; else ValueError."""
    ok = not isinstance(value, bool) and isinstance(value, (int, float))
    number = float(value) if ok and -1e300 < value < 1e300 else math.nan
    if not (math.isfinite(number) and low <= number <= high):
        raise ValueError(f"{policy}: {name} must be a finite number in [{num(low)}, {num(high)}]")
    return number


def flag(policy: str, name: str, value: Any) -> bool:
    """Return ``value`` as a bool if it is 0, 1, False or True; else ValueError."""
    if not isinstance(value, (bool, int)) or value not in (0, 1):
        raise ValueError(f"{policy}: {name} must be 0 or 1")
    return bool(value)


def reals(
    policy: str, name: str, value: Any, size: int, low: float, high: float
) -> tuple[float, ...]:
    """Return ``value`` as ``size`` floats, each finite in ``[low, high]``; else ValueError."""
    rule = f"{policy}: {name} must be {size} finite numbers in [{num(low)}, {num(high)}]"
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != size:
        raise ValueError(f"{rule}, comma-separated")
    try:
        return tuple(real(policy, name, v, low, high) for v in value)
    except ValueError:
        raise ValueError(rule) from None
