"""Narrow terminal tables of the study reports (docs/studies.md, "Findings").

Each study report prints a few chosen columns that fit :data:`WIDTH` columns
(``--wide`` prints them all); :func:`render` is :func:`planner.table.text`,
which shortens the longest text cells with "…" only when the chosen columns
still do not fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner import table

WIDTH = 100
"""The narrow tables' width, in characters."""


def render(headers: Sequence[str], rows: Sequence[Sequence[str]], *, left: int = 1,
           width: int | None = None) -> str:  # fmt: skip
    """Return an aligned table: the first ``left`` columns left-aligned, the rest right-aligned,
    cut to ``width`` by :func:`planner.table.text`."""
    return table.text(headers, rows, left=left, width=width)
