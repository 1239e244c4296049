"""The one table printer of the CLI and the study reports: aligned text and Markdown.

Cells are given as text (each report formats its own numbers); ``left`` names
the columns aligned left (an int ``n``: the first ``n``), every other column
is aligned right, as numbers read best.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any


def _lefts(left: int | Collection[int], n: int) -> set[int]:
    return set(range(min(left, n))) if isinstance(left, int) else set(left)


def _cells(headers: Sequence[Any], rows: Sequence[Sequence[Any]]) -> list[list[str]]:
    return [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]


def text(headers: Sequence[Any], rows: Sequence[Sequence[Any]], *,
         left: int | Collection[int] = 1, header_left: bool = False,
         width: int | None = None) -> str:  # fmt: skip
    """Return an aligned plain-text table: header, a rule of dashes, the rows.

    Parameters
    ----------
    headers, rows
        Column titles and rows of cells (``None`` prints as an empty cell).
    left
        The columns aligned left (an int: the first ``left`` columns).
    header_left
        Align every header left (otherwise headers follow their column).
    width
        Fit lines into this many characters by cutting the longest left-aligned
        (text) cells, ending in "…"; numbers are never cut.
    """
    cells = _cells(headers, rows)
    lefts = _lefts(left, len(headers))
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if width is not None:
        _fit(cells, widths, sorted(lefts), width)
    lines = []
    for k, r in enumerate(cells):
        flush = header_left and k == 0
        lines.append("  ".join(c.ljust(w) if flush or i in lefts else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def _fit(cells: list[list[str]], widths: list[int], lefts: list[int], width: int) -> None:
    while lefts and sum(widths) + 2 * (len(widths) - 1) > width:
        col = max(lefts, key=lambda i: widths[i])
        if widths[col] <= 4:
            return
        widths[col] -= 1
        for r in cells:
            if len(r[col]) > widths[col]:
                r[col] = r[col][: widths[col] - 1] + "…"


def markdown(headers: Sequence[Any], rows: Sequence[Sequence[Any]], *,
             left: int | Collection[int] = 1) -> str:  # fmt: skip
    """Return a Markdown (GitHub) table; ``left`` as in :func:`text`."""
    cells = _cells(headers, rows)
    lefts = _lefts(left, len(headers))
    rule = ["---" if i in lefts else "---:" for i in range(len(headers))]
    return "\n".join("| " + " | ".join(r) + " |" for r in [cells[0], rule, *cells[1:]])
