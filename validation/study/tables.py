"""Aligned plain-text tables for the terminal, narrow by default (docs/studies.md, "Findings").

Each study report prints a few chosen columns that fit :data:`WIDTH` columns
(``--wide`` prints them all); :func:`render` shortens the longest text cells
with "…" only when the chosen columns still do not fit.
"""

from __future__ import annotations

from collections.abc import Sequence

WIDTH = 100
"""The narrow tables' width, in characters."""


def render(headers: Sequence[str], rows: Sequence[Sequence[str]], *, left: int = 1,
           width: int | None = None) -> str:  # fmt: skip
    """Return an aligned table: the first ``left`` columns left-aligned, the rest right-aligned.

    With ``width``, the longest cell of the left-aligned columns is cut (ending
    in "…") until every line fits; the numbers are never cut.
    """
    cells = [list(headers), *[list(r) for r in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    if width is not None:
        while sum(widths) + 2 * (len(widths) - 1) > width:
            col = max(range(min(left, len(widths))), key=lambda i: widths[i], default=None)
            if col is None or widths[col] <= 4:
                break
            widths[col] -= 1
            for r in cells:
                if len(r[col]) > widths[col]:
                    r[col] = r[col][: widths[col] - 1] + "…"
    lines = []
    for k, r in enumerate(cells):
        pairs = enumerate(zip(r, widths, strict=True))
        lines.append("  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in pairs))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)
