"""Counted nouns in printed text: ``1 job``, ``2 jobs``, ``0 jobs``.

The one plural helper of every printed line (CLI output, reports, progress lines,
error messages), kept in the bottom layer so that every package can use it.
"""

from __future__ import annotations


def noun(count: int, one: str, many: str | None = None) -> str:
    """Return the word for ``count`` things: ``one`` for 1 (or -1), else the plural.

    Parameters
    ----------
    count
        How many there are; only 1 and -1 take the singular ("0 jobs", "1 job").
    one
        The word for one, e.g. ``"job"``.
    many
        The word for several when it is not ``one + "s"`` (``"processes"``).
    """
    if abs(count) == 1:
        return one
    return one + "s" if many is None else many


def plural(count: int, one: str, many: str | None = None, *, sep: str = "") -> str:
    """Return the count and its noun, ``"1 job"`` or ``"3 jobs"``.

    ``sep`` separates the count's thousands (``sep=","``: ``"4,561 tests"``).
    """
    return f"{count:,}".replace(",", sep) + " " + noun(count, one, many)
