"""The schedule-gap study's rows as Findings input: extra delayed jobs and makespan gap.

Over the snapshots the solver proved optimal, paired by snapshot. See docs/studies.md,
"Findings".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from validation.study.engine.findings import Parts
from validation.study.engine.observations import Measure, Observation

Row = Mapping[str, Any]


def schedule_gap_study(rows: Sequence[Row], time_limit: float | None = None) -> Parts:
    """Schedule-gap study: extra delayed jobs and makespan gap over the proven snapshots."""
    first = {r["snapshot"]: r["status"] for r in rows}
    proven = [r for r in rows if r["status"] == "optimal"]
    delayed = [Observation("", r["policy"], str(r["snapshot"]),
                           float(r["delayed"] - r["opt_delayed"])) for r in proven]  # fmt: skip
    makespan = [Observation("", r["policy"], str(r["snapshot"]),
                            (r["makespan"] - r["opt_makespan"]) / r["opt_makespan"])
                for r in proven if r["opt_makespan"]]  # fmt: skip
    k = sum(1 for s in first.values() if s == "optimal")
    limit = f" within {time_limit:g} s" if time_limit else ""
    notes = [f"Reference: the exact solver proved {k} of {len(first)} snapshots optimal{limit} "
             "(both criteria); gaps are over those only, the others are unproven and left out."]
    return notes, [(Measure("extra delayed", "jobs"), delayed),
                   (Measure("makespan gap", percent=True), makespan)]  # fmt: skip
