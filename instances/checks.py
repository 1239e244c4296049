"""Type and range checks shared by the data classes' ``__post_init__``."""

from __future__ import annotations

import math
from typing import Any

from instances.errors import DataError


def is_int(value: Any) -> bool:
    """Return True for a Python int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(field: str, value: Any, minimum: int | None = None) -> None:
    """Raise unless ``value`` is an integer (>= ``minimum`` when given)."""
    rule = "must be an integer" + (f" >= {minimum}" if minimum is not None else "")
    if not is_int(value) or (minimum is not None and value < minimum):
        raise DataError(field, rule)


def require_real(
    field: str, value: Any, *, positive: bool = False, nonnegative: bool = False
) -> float:
    """Return ``value`` as float; raise unless it is a finite number in range."""
    rule = "must be a finite number"
    if positive:
        rule = "must be a finite number > 0"
    elif nonnegative:
        rule = "must be a finite number >= 0"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DataError(field, rule)
    try:
        number = float(value)  # an int beyond the float range overflows: not finite
    except OverflowError:
        raise DataError(field, rule) from None
    if not math.isfinite(number) or (positive and number <= 0) or (nonnegative and number < 0):
        raise DataError(field, rule)
    return number


def require_id(field: str, value: Any) -> None:
    """Raise unless ``value`` is a non-empty string."""
    if not isinstance(value, str) or not value:
        raise DataError(field, "must be a non-empty string")
