"""The report of a schedule-gap study: gap and status tables (Markdown, CSV) and a figure.

Per policy, over the snapshots the solver proved optimal: extra delayed jobs
U − U*, makespan gap (C − C*) / C*, lexicographically optimal replays, and
replays that beat a proven optimum (or have fewer delayed jobs than a proven
lower bound), which must be 0 (Klusáček & Rudová 2008's criteria;
``docs/schedule-based.md``, "Gap to the optimum"). A snapshot is called
optimal only when the solver proved both criteria.
"""

from __future__ import annotations

import csv
import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from validation.study.engine.kind import ReportParts
from validation.study.schedule_gap.figure import draw
from validation.study.schedule_gap.markdown import HEADERS, fmt, markdown
from validation.study.schedule_gap.store import COLUMNS, ScheduleGapStore

SUMMARY = ("policy", "proven", "extra_delayed", "max_extra_delayed", "makespan_gap",
           "max_makespan_gap", "optimal", "beats_optimum", "violations")  # fmt: skip
STATUSES = ("optimal", "feasible", "unknown")


def beats(r: Mapping[str, Any]) -> bool:
    """True when a replay is better than what the solver proved (impossible for a valid model).

    Better than a proven optimum; fewer delayed jobs than the proven bound; or,
    with the delayed jobs proven (U* = the bound = the replay's), a shorter
    makespan than the proven makespan bound.
    """
    bound = r["delayed_bound"]
    if bound is not None and r["delayed"] < bound:
        return True
    floor = r["makespan_bound"]
    if bound is not None and r["delayed"] == bound == r["opt_delayed"] and floor is not None:
        return r["makespan"] < floor
    return r["status"] == "optimal" and (r["delayed"], r["makespan"]) < (
        r["opt_delayed"], r["opt_makespan"])  # fmt: skip


def summarise(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per policy, over the snapshots proven optimal: extra delayed jobs and makespan gap."""
    out = []
    for p in dict.fromkeys(r["policy"] for r in rows):
        all_mine = [r for r in rows if r["policy"] == p]
        mine = [r for r in all_mine if r["status"] == "optimal"]
        n = len(mine)
        extra = [r["delayed"] - r["opt_delayed"] for r in mine]
        gaps = [(r["makespan"] - r["opt_makespan"]) / r["opt_makespan"] for r in mine
                if r["opt_makespan"]]  # fmt: skip
        lex = sum((r["delayed"], r["makespan"]) == (r["opt_delayed"], r["opt_makespan"])
                  for r in mine)  # fmt: skip
        out.append({"policy": p, "proven": n,
                    "extra_delayed": sum(extra) / n if n else None,
                    "max_extra_delayed": max(extra, default=None),
                    "makespan_gap": sum(gaps) / len(gaps) if gaps else None,
                    "max_makespan_gap": max(gaps, default=None), "optimal": lex,
                    "beats_optimum": sum(beats(r) for r in all_mine),
                    "violations": sum(r["violations"] for r in all_mine)})  # fmt: skip
    return out


def statuses(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Return the number of snapshots per solver status (optimal, feasible, unknown, ...)."""
    first = {r["snapshot"]: r["status"] for r in rows}
    counts = Counter(first.values())
    return {s: counts.get(s, 0) for s in (*STATUSES, *sorted(set(counts) - set(STATUSES)))}


NARROW_HEADERS = ("policy", "proven", "extra U", "max", "C gap", "max", "lex opt", "beats",
                  "violations")  # fmt: skip
NARROW_LEGEND = ("proven: snapshots the solver proved optimal (the gaps are over these); extra U: "
                 "mean extra delayed jobs U - U*; C gap: mean makespan gap (C - C*) / C*; lex "
                 "opt: replays equal to the lexicographic optimum; beats: replays better than "
                 "a proven optimum or bound (must be 0); violations: checker violations (must "
                 "be 0). --wide prints the long headers.")  # fmt: skip
"""The narrow table's columns in words, printed under it."""


def text_table(summary: Sequence[Mapping[str, Any]], wide: bool = False) -> str:
    """Return the per-policy table for the terminal: narrow (≤ 100 columns) or ``wide``."""
    from validation.study.engine.tables import WIDTH
    from validation.study.engine.tables import render as text

    cells = [[s["policy"], str(s["proven"]), fmt(s["extra_delayed"], ".2f"),
              fmt(s["max_extra_delayed"], "d"), fmt(s["makespan_gap"], ".1%"),
              fmt(s["max_makespan_gap"], ".1%"), str(s["optimal"]), str(s["beats_optimum"]),
              str(s["violations"])] for s in summary]  # fmt: skip
    if wide:
        return text(HEADERS, cells)
    return text(NARROW_HEADERS, cells, width=WIDTH) + "\n" + textwrap.fill(NARROW_LEGEND, WIDTH)


def findings(rows: Sequence[Mapping[str, Any]], time_limit: float | None) -> tuple[str, str]:
    """Return the study's Findings as (Markdown section, terminal text); docs/studies.md."""
    from validation.study.engine.findings import section
    from validation.study.schedule_gap.findings import schedule_gap_study

    return section(schedule_gap_study(rows, time_limit), reference="the exact solver")


def write_csv(rows: Sequence[Mapping[str, Any]], path: str | Path,
              columns: Sequence[str] = tuple(n for n, _ in COLUMNS)) -> None:  # fmt: skip
    """Write rows (default: the store's columns, no run times) as CSV."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.DictWriter(fh, list(columns), lineterminator="\n", extrasaction="ignore")
        out.writeheader()
        out.writerows({k: "" if v is None else v for k, v in r.items()} for r in rows)


def report_parts(store: ScheduleGapStore, info: Mapping[str, Any],
                 rows: Sequence[Mapping[str, Any]], out: Path,
                 formats: Sequence[str] = ("png",)) -> ReportParts:  # fmt: skip
    """Write summary.csv, rows.csv and the figure (PNG, plus SVG when ``formats`` holds
    ``svg``) to ``out``; return the rest of the report
    (:class:`~validation.study.engine.kind.ReportParts`).

    Only the report line starting ``- timing:`` depends on the run (creation time,
    seconds); the rest is a function of the rows. A replay better than a proven optimum
    and a checker violation are problems (exit 1).
    """
    seconds = store.seconds(info["id"])
    summary = summarise(rows)
    write_csv(summary, out / "summary.csv", SUMMARY)
    write_csv(rows, out / "rows.csv")
    figures = draw(summary, out, formats)
    head, body = markdown(info, rows, summary, statuses(rows), figures, seconds)
    problems = []
    beaten = sum(s["beats_optimum"] for s in summary)
    if beaten:
        problems.append(f"{plural(beaten, 'replay')} beat a proven optimum or bound: the model "
                        "or the simulator is wrong")  # fmt: skip
    bad = sum(r["violations"] for r in rows) + sum(
        r["optimum_violations"] for r in {r["snapshot"]: r for r in rows}.values())  # fmt: skip
    if bad:
        problems.append(f"the checkers found {plural(bad, 'violation')}")
    files = [out / "summary.csv", out / "rows.csv"]
    files += [out / f"{Path(f).stem}.{ext}" for f in figures for ext in formats]
    return ReportParts(head, body, summary, text_table(summary), text_table(summary, wide=True),
                       files, problems)  # fmt: skip
