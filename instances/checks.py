"""Type and range checks shared by the data classes' ``__post_init__``.

The ranges themselves live in :mod:`instances.limits`.
"""

from __future__ import annotations

import math
import re
from typing import Any

from instances.errors import DataError
from instances.limits import TEXT_MAX, num


def is_int(value: Any) -> bool:
    """Return True for a Python int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(
    field: str, value: Any, minimum: int | None = None, maximum: int | None = None
) -> None:
    """Raise unless ``value`` is an integer (within ``[minimum, maximum]`` when given)."""
    if maximum is not None and minimum is None:
        minimum = -maximum
    if (
        not is_int(value)
        or (minimum is not None and value < minimum)
        or (maximum is not None and value > maximum)
    ):
        raise DataError(field, _int_rule(minimum, maximum))


def _int_rule(minimum: int | None, maximum: int | None) -> str:
    # Built only on failure: formatting the bounds dominated the cost of valid data.
    if maximum is not None:
        return f"must be an integer >= {num(minimum)} and <= {num(maximum)}"  # type: ignore[arg-type]
    return "must be an integer" + (f" >= {minimum}" if minimum is not None else "")


def require_real(
    field: str,
    value: Any,
    *,
    positive: bool = False,
    nonnegative: bool = False,
    low: float | None = None,
    high: float | None = None,
) -> float:
    """Return ``value`` as float; raise unless it is a finite number in range.

    ``low``/``high`` bound it inclusively (and are stated in the rule);
    ``positive`` excludes 0 when ``low`` is 0 or absent.
    """
    if high is not None:
        low = low if low is not None else (0 if positive or nonnegative else -high)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DataError(field, _real_rule(positive, nonnegative, low, high))
    try:
        number = float(value)  # an int beyond the float range overflows: not finite
    except OverflowError:
        raise DataError(field, _real_rule(positive, nonnegative, low, high)) from None
    if (
        not math.isfinite(number)
        or (positive and number <= 0)
        or (nonnegative and number < 0)
        or (low is not None and number < low)
        or (high is not None and number > high)
    ):
        raise DataError(field, _real_rule(positive, nonnegative, low, high))
    return number


def _real_rule(positive: bool, nonnegative: bool, low: float | None, high: float | None) -> str:
    if high is not None:
        above = "> 0" if positive and not low else f">= {num(low)}"  # type: ignore[arg-type]
        return f"must be a finite number {above} and <= {num(high)}"
    if positive:
        return "must be a finite number > 0"
    if nonnegative:
        return "must be a finite number >= 0"
    return "must be a finite number"


def require_text(field: str, value: Any) -> None:
    """Raise unless ``value`` is valid Unicode text (no lone surrogates) of bounded length."""
    if not isinstance(value, str):
        raise DataError(field, "must be a string")
    if len(value) > TEXT_MAX:
        raise DataError(field, f"must be at most {TEXT_MAX} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise DataError(field, "must be valid Unicode text (no lone surrogates)") from None


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
"""Unicode category Cc: C0 controls, DEL and C1 controls."""


def require_name(field: str, value: Any, *, empty: bool = False) -> None:
    """Raise unless ``value`` is a name of the job-flow layers.

    A name is valid Unicode text (no lone surrogates) of at most ``TEXT_MAX``
    characters without control characters (U+0000-U+001F, U+007F-U+009F), so it
    stays one line in CSV rows, JSON and error messages; ``empty`` allows ``""``.
    """
    if not isinstance(value, str) or not (value or empty):
        raise DataError(field, "must be a string" if empty else "must be a non-empty string")
    require_text(field, value)
    if _CONTROL.search(value):
        raise DataError(field, "must not contain control characters (U+0000-U+001F, U+007F-U+009F)")


def require_id(field: str, value: Any) -> None:
    """Raise unless ``value`` is a non-empty string of valid Unicode text."""
    if not isinstance(value, str) or not value:
        raise DataError(field, "must be a non-empty string")
    require_text(field, value)
