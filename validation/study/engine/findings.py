"""The Findings section of a study report, computed from generic rows.

Every study kind (slot gap study, cluster study, schedule-gap study) turns its
rows into :class:`Observation` records (each kind's ``findings`` module) and
one :class:`Measure`; :func:`findings` returns short statements, each number
with its sample size and a 95% interval: Wilson for rates (flagged below
``SMALL_RATE`` rows), a seeded percentile bootstrap for means (withheld below
``MIN_BOOTSTRAP`` values), an exact sign test (Holm-adjusted over the pairs a report
tests) for differences between subjects on the same units
(``validation.study.engine.findings_pairs``). :func:`markdown` and
:func:`text` render them. Same rows and seed, same text. See docs/studies.md,
"Findings".
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from validation.study.engine.findings_pairs import differences
from validation.study.engine.intervals import SMALL_RATE, wilson
from validation.study.engine.observations import (
    TOLERANCE,
    Measure,
    Observation,
    mean_interval,
    where,
)

__all__ = ["Measure", "Observation", "Parts", "findings", "markdown", "section", "text"]

Parts = tuple[list[str], list[tuple[Measure, list[Observation]]]]
"""A kind's Findings input: notes, and each measure with its observations."""

def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    few = f"; only n = {n}" if n < SMALL_RATE else ""
    return f"({_pct(k / n)}, 95% CI [{100 * lo:.1f}, {100 * hi:.1f}]%, Wilson{few})"


def _rate(k: int, n: int) -> str:
    return f"{k} of {n} {_ci(k, n)}"


def _cells(obs: Sequence[Observation]) -> dict[tuple[str, str], list[Observation]]:
    cells: dict[tuple[str, str], list[Observation]] = {}
    for o in obs:
        cells.setdefault((o.group, o.subject), []).append(o)
    return {k: sorted(v, key=lambda o: (o.unit, o.missed, o.value or 0.0))
            for k, v in sorted(cells.items())}  # row order must not move a bootstrap interval


def _mean(m: Measure, values: list[float], seed: int, *keys: str) -> str:
    mean = sum(values) / len(values)
    return f"{m.name} {m.format(mean)} {mean_interval(m, values, seed, *keys)[0]}"


def findings(obs: Sequence[Observation], measure: Measure, *, seed: int = 0, top: int = 3,
             reference: str = "the reference") -> list[str]:  # fmt: skip
    """Return the statements of a Findings section (plain text, one sentence each).

    ``top`` bounds each list (worst cells, misses, differences); ``reference``
    names what a miss is measured against ("the exact model").
    """
    cells = _cells(obs)
    if not cells:
        return [f"No rows to summarise for {measure.name}."]
    out = _optimal(cells, measure) if measure.optimum else _best(cells, measure, seed, top)
    out += _worst(cells, measure, seed, top)
    out += _misses(cells, reference, top)
    out += differences(cells, measure, seed, top)
    return out


def _optimal(cells: dict[tuple[str, str], list[Observation]], m: Measure) -> list[str]:
    per: dict[str, list[Observation]] = {}
    for (_, subject), rows in cells.items():
        per.setdefault(subject, []).extend(rows)
    always = {s: len(r) for s, r in per.items()
              if all(o.value is not None and abs(o.value) <= TOLERANCE for o in r)}  # fmt: skip
    if not always:
        return [f"No subject is optimal ({m.name} 0) on every row."]
    worst = min(always.values())
    lo = wilson(worst, worst)[0]
    names = ", ".join(f"{s} (n = {n})" for s, n in sorted(always.items()))
    return [f"Optimal ({m.name} 0, nothing missed) on every measured row: {names}. All n of "
            f"n optimal still bounds the optimal rate only from below: 95% CI lower bound "
            f"{_pct(lo)} at the smallest n (Wilson)."]  # fmt: skip


def _best(cells: dict[tuple[str, str], list[Observation]], m: Measure, seed: int,
          top: int) -> list[str]:  # fmt: skip
    groups: dict[str, list[tuple[float, str, list[float]]]] = {}
    for (group, subject), rows in cells.items():
        vals = [o.value for o in rows if o.value is not None]
        if vals:
            groups.setdefault(group, []).append((sum(vals) / len(vals), subject, vals))
    out = []
    for group, entries in list(groups.items())[: max(top, 1) * 2]:
        best, subject, vals = min(entries)
        ties = sorted(e[1] for e in entries if abs(e[0] - best) <= TOLERANCE * max(1, abs(best)))
        if len(ties) > 1:
            out.append(f"Lowest {m.name}{where(group)}: a tie between {', '.join(ties)} "
                       f"({m.format(best)}, n = {len(vals)} each).")  # fmt: skip
            continue
        second = sorted(entries)[1][0] if len(entries) > 1 else None
        runner = f"; next best {m.format(second)}" if second is not None else ""
        out.append(f"Lowest {m.name}{where(group)}: {subject}, "
                   f"{_mean(m, vals, seed, group, subject)}{runner}.")  # fmt: skip
    return out


def _worst(cells: dict[tuple[str, str], list[Observation]], m: Measure, seed: int,
           top: int) -> list[str]:  # fmt: skip
    ranked = []
    for (group, subject), rows in cells.items():
        vals = [o.value for o in rows if o.value is not None]
        if vals and max(vals) > TOLERANCE:
            ranked.append((-sum(vals) / len(vals), group, subject, vals))
    if not ranked or not m.optimum:
        return []
    out = []
    for _, group, subject, vals in sorted(ranked)[:top]:
        opt = sum(1 for v in vals if abs(v) <= TOLERANCE)
        out.append(f"Largest mean {m.name}: {subject}{where(group)}, "
                   f"{_mean(m, vals, seed, group, subject)}, max {m.format(max(vals))}; "
                   f"optimal in {_rate(opt, len(vals))}.")  # fmt: skip
    return out


def _misses(cells: dict[tuple[str, str], list[Observation]], reference: str,
            top: int) -> list[str]:  # fmt: skip
    ranked = []
    for (group, subject), rows in cells.items():
        missed = sum(o.missed for o in rows)
        if missed:
            ranked.append((-missed / len(rows), group, subject, missed, len(rows)))
    out = []
    for _, group, subject, k, n in sorted(ranked)[:top]:
        out.append(f"{subject}{where(group)}: no answer in {k} of {n} rows where {reference} "
                   f"found one {_ci(k, n)}.")  # fmt: skip
    if len(ranked) > top:
        out.append(f"{len(ranked) - top} more (subject, setting) cells miss answers; see the "
                   "table.")  # fmt: skip
    return out


def markdown(statements: Sequence[str], notes: Sequence[str] = ()) -> str:
    """Return a ``## Findings`` Markdown section: notes first, then the statements."""
    lines = ["## Findings", ""]
    lines += [f"- {s}" for s in (*notes, *statements)]
    return "\n".join(lines) + "\n"


def text(statements: Sequence[str], notes: Sequence[str] = (), width: int = 100) -> str:
    """Return the Findings as terminal text wrapped to ``width`` columns."""
    lines = ["Findings:"]
    for s in (*notes, *statements):
        lines += textwrap.wrap(s.replace("`", ""), width, initial_indent="  - ",
                               subsequent_indent="    ")  # fmt: skip
    return "\n".join(lines)


def section(parts: Parts, *, seed: int = 0, reference: str = "the reference") -> tuple[str, str]:
    """Return the Findings as (Markdown section, terminal text)."""
    notes, measures = parts
    statements: list[str] = []
    for measure, obs in measures:
        statements += findings(obs, measure, seed=seed, reference=reference)
    return markdown(statements, notes), text(statements, notes)
