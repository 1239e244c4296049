"""The gap study's rows as Findings input: relative and absolute gaps, and the reference.

:func:`gap_study` returns ``(notes, [(measure, observations), ...])`` for
:func:`validation.study.engine.findings.section`. See docs/studies.md, "Findings".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from validation.study.engine.findings import Parts
from validation.study.engine.observations import Measure, Observation
from validation.study.gap.metrics import absolute_gap, gap_kind, sense_of

Row = Mapping[str, Any]


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


Explain = Callable[[str, Sequence[Row]], str | None]


def gap_study(rows: Sequence[Row], solver: str = "cpsat", time_limit: float | None = None,
              explain: Explain | None = None) -> Parts:  # fmt: skip
    """Slot gap study: relative and absolute gaps per (geometry, criterion), paired by instance.

    ``explain(algorithm, missed_rows)`` may return a sentence saying why an
    algorithm found nothing on every row where a window exists.
    """
    families = len({r["family"] for r in rows}) > 1
    geometries = len({r["geometry"] for r in rows}) > 1
    kinds: dict[str, list[Observation]] = {"relative": [], "absolute": []}
    for r in rows:
        if r["gap"] is None and not (r["exact_found"] and not r["found"]):
            continue  # no window exists, or no proven optimum to measure against
        group = " · ".join([*([r["family"]] if families else []),
                            *([r["geometry"]] if geometries else []), r["criterion"]])
        kind = gap_kind(r["criterion"])
        value = None
        if r["gap"] is not None:
            value = (r["gap"] if kind == "relative" else
                     absolute_gap(r["value"], r["exact_value"], sense_of(r["criterion"])))
        kinds[kind].append(Observation(group, r["algorithm"], f"{r['instance']}:{r['job']}",
                                       value, missed=value is None))  # fmt: skip
    notes = _reference(rows, solver, time_limit)
    for alg in sorted({r["algorithm"] for r in rows}):
        mine = [r for r in rows if r["algorithm"] == alg and r["exact_found"]]
        if mine and not any(r["found"] for r in mine):
            why = explain(alg, mine) if explain else None
            rows_with = "the one row" if len(mine) == 1 else f"any of the {len(mine)} rows"
            notes.append(f"{alg} found no window in {rows_with} where one exists"
                         f"{': ' + why if why else ''}.")  # fmt: skip
    measures = [(Measure("relative gap", percent=True), kinds["relative"]),
                (Measure("absolute gap", "quanta"), kinds["absolute"])]
    return notes, [(m, o) for m, o in measures if o]


def price_cap_reason(params: Mapping[str, Any], limit: int = 200) -> Explain:
    """Return an ``explain`` for :func:`gap_study`: is ALP's price cap below every node's price?

    ALP keeps to the per-slot cap C (``instances.Job.price_cap``, Toporkov et al.
    2011 §3); the rows' instances are regenerated from their family and seed
    (at most ``limit`` of them) and C compared with the cheapest suitable node.
    """

    def explain(algorithm: str, missed: Sequence[Row]) -> str | None:
        if algorithm != "alp":
            return None
        from instances.generators.registry import generate

        below, caps, cheapest = 0, set(), []
        seen = list({(r["family"], r["instance_seed"], r["job"]) for r in missed})[:limit]
        for family, seed, job_id in sorted(seen):
            inst = generate(family, seed, **params)
            job = next(j for j in inst.jobs if j.id == job_id)
            prices = [n.price for n in inst.nodes if job.suits(n)]
            if job.price_cap is None or not prices:
                continue
            caps.add(job.price_cap)
            cheapest.append(min(prices))
            below += job.price_cap < min(prices)
        if not cheapest or below < len(seen):
            return None
        cap = ", ".join(f"{c:g}" for c in sorted(caps))
        return (f"its price cap C = S / (V · n) = {cap} per quantum is below the cheapest "
                f"suitable node's price ({min(cheapest):g}–{max(cheapest):g}) in all "
                f"{len(seen)} (instance, job) pairs checked, so no slot qualifies "
                "(ALP keeps to C alone, Toporkov et al. 2011 §3)")

    return explain


def _reference(rows: Sequence[Row], solver: str, time_limit: float | None) -> list[str]:
    first = {(r["instance"], r["geometry"], r["job"], r["criterion"]): r for r in rows}
    n = len(first)
    status = Counter(r["exact_status"] for r in first.values())
    found = sum(1 for r in first.values() if r["exact_found"])
    limit = f"within {time_limit:g} s" if time_limit else "without a time limit"
    other = n - status["optimal"] - status["infeasible"]
    left = f", and left {other} unproven" if other else ""
    why = " (no window exists there, so no heuristic can find one)" if status["infeasible"] else ""
    return [f"Reference: the exact model ({solver}, {limit}) found a window in {found} of {n} "
            f"(instance, job, criterion) cases ({_pct(found, n)}), proved "
            f"{status['optimal']} optimal and {status['infeasible']} infeasible{why}{left}. "
            "The table's "
            "`exact found` is that share, not the exact model's success rate; a heuristic's "
            "`found` counts only the cases where a window exists, and gaps only the proven "
            "ones.", *_scored_against(rows)]  # fmt: skip


def _scored_against(rows: Sequence[Row]) -> list[str]:
    """Say what each criterion is scored against: the optimum over the slot starts (the AEP
    start space), or, for dep and coord, the free-start optimum (docs/studies.md)."""
    from validation.study.gap.task import FREE_START

    criteria = sorted({r["criterion"] for r in rows})
    free = [c for c in criteria if c in FREE_START]
    aep = [c for c in criteria if c not in FREE_START]
    parts = []
    if aep:
        parts.append(f"{', '.join(aep)} against the exact optimum over the slot starts (the "
                     "AEP start space, where these criteria lose nothing)")  # fmt: skip
    if free:
        parts.append(f"{' and '.join(free)} against the free-start optimum (any integer "
                     "start)")  # fmt: skip
    text = "Scored against: " + "; ".join(parts) + "."
    exact = []
    for c in free:  # DEP and COORD are exact over the slot starts, not over free starts
        mine = [r for r in rows if r["algorithm"] == c and r["criterion"] == c
                and r["match"] is not None]  # fmt: skip
        if mine:
            k = sum(1 for r in mine if r["match"])
            exact.append(f"{c} matches it in {k} of {len(mine)} proven rows ({_pct(k, len(mine))})")
    if exact:
        text += (" DEP and COORD are exact over the slot starts, so their match rate measures "
                 "how often the free-start optimum starts at a slot start, not an error: "
                 + "; ".join(exact) + " (docs/studies.md, \"The reference optimum\").")
    return [text]
