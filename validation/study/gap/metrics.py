"""Per-row comparisons (gap, match) and the per-group summary of a gap study.

Relative gap (sign-normalised, 0 = optimal, positive = worse, for min and
max criteria alike)::

    gap = (h - o) / max(|o|, 1)    for a min criterion
    gap = (o - h) / max(|o|, 1)    for a max criterion

with ``h`` the heuristic's criterion value and ``o`` the proven optimum. The
denominator is floored at one unit (a quantum, a money unit, one q unit) so
that an optimum of 0 (e.g. ``min_start`` at T = 0) gives the absolute
shortfall instead of a division by zero. A gap is defined only when the
heuristic found a window and the exact status is ``optimal``.

The absolute gap ``h - o`` (min) or ``o - h`` (max), in the criterion's own
unit, is reported beside it. It is the headline gap of the criteria in
:data:`ABSOLUTE_CRITERIA`: a start time is measured from an arbitrary origin
and a DEP/COORD distance is often 0 or a few quanta, so a relative gap there
reads 1,000% for a ten-quantum shortfall (docs/studies.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

TOLERANCE = 1e-9


def sense_of(criterion: str) -> str:
    """Return ``min`` or ``max`` for a criterion (``instances.CRITERIA``, docs/concepts.md)."""
    from instances import CRITERIA

    return CRITERIA[criterion].sense


def relative_gap(heuristic: float, optimum: float, sense: str) -> float:
    """Return the sign-normalised relative gap of ``heuristic`` to ``optimum`` (see module)."""
    diff = heuristic - optimum if sense == "min" else optimum - heuristic
    if abs(diff) <= TOLERANCE * max(abs(optimum), 1.0):
        return 0.0
    return diff / max(abs(optimum), 1.0)


ABSOLUTE_CRITERIA: tuple[str, ...] = ("min_start", "dep", "coord")
"""Criteria whose optimum can be 0 or has no natural origin: their gap is read in absolute units."""


def gap_kind(criterion: str) -> str:
    """Return ``absolute`` for :data:`ABSOLUTE_CRITERIA`, else ``relative``."""
    return "absolute" if criterion in ABSOLUTE_CRITERIA else "relative"


def absolute_gap(heuristic: float, optimum: float, sense: str) -> float:
    """Return the sign-normalised absolute gap (0 = optimal, positive = worse)."""
    diff = heuristic - optimum if sense == "min" else optimum - heuristic
    return 0.0 if abs(diff) <= TOLERANCE * max(abs(optimum), 1.0) else diff


def matches(heuristic: float, optimum: float) -> bool:
    """Return True when the two values are equal up to floating-point noise."""
    return abs(heuristic - optimum) <= TOLERANCE * max(abs(optimum), 1.0)


GROUP = ("family", "geometry", "algorithm", "criterion")

SUMMARY_COLUMNS: tuple[str, ...] = (
    *GROUP,
    "instances", "jobs", "found_rate", "exact_found_rate", "proven", "exact_match_rate",
    "gap_rows", "gap_mean", "gap_median", "gap_p95", "gap_max", "abs_gap_mean", "abs_gap_max",
    "heuristic_ms", "exact_ms", "speedup", "unproven", "errors",
)  # fmt: skip
"""The summary table's columns (defined in docs/studies.md)."""


def summarise(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return one summary record per (family, geometry, algorithm, criterion), sorted.

    - ``jobs``: rows (instance × job); ``instances``: distinct instances.
    - ``found_rate``: among rows where the exact model found a window, the
      share where the heuristic found one too.
    - ``exact_found_rate``: share of rows where the exact model found a window.
    - ``proven``: rows with a proven optimum (the match rate's denominator).
    - ``exact_match_rate``: among rows with a proven optimum, the share where
      the heuristic's value equals it (not found counts as no match).
    - ``gap_rows``: rows with a gap (found, proven optimum); the relative gap
      statistics and ``abs_gap_mean``/``abs_gap_max`` are over these rows.
    - ``heuristic_ms``/``exact_ms``: median wall-clock milliseconds per job;
      ``speedup`` = exact_ms / heuristic_ms.
    - ``unproven``: rows whose exact status is neither optimal nor infeasible.
    - ``errors``: error rows (infeasible window, better than a proven optimum, ...).
    """
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for row in rows:
        groups.setdefault(tuple(row[k] for k in GROUP), []).append(row)
    return [_summary(key, groups[key]) for key in sorted(groups)]


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def _summary(key: tuple[Any, ...], rows: list[Mapping[str, Any]]) -> dict[str, Any]:
    exact_found = [r for r in rows if r["exact_found"]]
    proven = [r for r in rows if r["exact_status"] == "optimal"]
    gapped = [r for r in rows if r["gap"] is not None]
    gaps = np.array([r["gap"] for r in gapped], dtype=float)
    sense = sense_of(key[GROUP.index("criterion")]) if gapped else "min"
    absolute = np.array([absolute_gap(r["value"], r["exact_value"], sense) for r in gapped],
                        dtype=float)  # fmt: skip
    h_ms = float(np.median([r["heuristic_seconds"] for r in rows])) * 1000.0
    e_ms = float(np.median([r["exact_seconds"] for r in rows])) * 1000.0
    out: dict[str, Any] = dict(zip(GROUP, key, strict=True))
    out.update(
        instances=len({r["instance"] for r in rows}),
        jobs=len(rows),
        found_rate=_rate(sum(1 for r in exact_found if r["found"]), len(exact_found)),
        exact_found_rate=_rate(len(exact_found), len(rows)),
        proven=len(proven),
        exact_match_rate=_rate(sum(1 for r in proven if r["match"]), len(proven)),
        gap_rows=len(gapped),
        gap_mean=float(gaps.mean()) if gaps.size else None,
        gap_median=float(np.median(gaps)) if gaps.size else None,
        gap_p95=float(np.percentile(gaps, 95)) if gaps.size else None,
        gap_max=float(gaps.max()) if gaps.size else None,
        abs_gap_mean=float(absolute.mean()) if absolute.size else None,
        abs_gap_max=float(absolute.max()) if absolute.size else None,
        heuristic_ms=h_ms,
        exact_ms=e_ms,
        speedup=e_ms / h_ms if h_ms > 0 else math.inf,
        unproven=sum(1 for r in rows if r["exact_status"] not in ("optimal", "infeasible")),
        errors=sum(1 for r in rows if r["error"]),
    )
    return out


def format_cell(column: str, value: Any) -> str:
    """Return a table cell: rates in %, gaps with 4 decimals, times in ms."""
    if value is None:
        return "-"
    if column.endswith("_rate"):
        return f"{100 * value:.1f}%"
    if column.startswith("abs_gap_"):
        return f"{value:.2f}"
    if column.startswith("gap_") and column != "gap_rows":
        return f"{value:.4f}"
    if column.endswith("_ms"):
        return f"{value:.2f}"
    if column == "speedup":
        return "inf" if math.isinf(value) else f"{value:.1f}x"
    return str(value)
