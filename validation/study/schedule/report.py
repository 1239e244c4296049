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

from planner import table
from validation.study.schedule.figure import draw
from validation.study.schedule.store import COLUMNS

SUMMARY = ("policy", "proven", "extra_delayed", "max_extra_delayed", "makespan_gap",
           "max_makespan_gap", "optimal", "beats_optimum", "violations")  # fmt: skip
HEADERS = ("policy", "snapshots proven", "mean extra delayed", "max extra delayed",
           "mean makespan gap", "max makespan gap", "lexicographically optimal",
           "beats a proven optimum", "checker violations")  # fmt: skip
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


def _f(x: Any, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def render(summary: Sequence[Mapping[str, Any]]) -> str:
    """Return the per-policy gap table as Markdown."""
    return table.markdown(HEADERS, [
        [s["policy"], s["proven"], _f(s["extra_delayed"], ".2f"),
         _f(s["max_extra_delayed"], "d"), _f(s["makespan_gap"], ".1%"),
         _f(s["max_makespan_gap"], ".1%"), s["optimal"],
         f"{s['beats_optimum']}{' **(!)**' if s['beats_optimum'] else ''}", s["violations"]]
        for s in summary])  # fmt: skip


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
    from validation.study.tables import WIDTH
    from validation.study.tables import render as table

    cells = [[s["policy"], str(s["proven"]), _f(s["extra_delayed"], ".2f"),
              _f(s["max_extra_delayed"], "d"), _f(s["makespan_gap"], ".1%"),
              _f(s["max_makespan_gap"], ".1%"), str(s["optimal"]), str(s["beats_optimum"]),
              str(s["violations"])] for s in summary]  # fmt: skip
    if wide:
        return table(HEADERS, cells)
    return table(NARROW_HEADERS, cells, width=WIDTH) + "\n" + textwrap.fill(NARROW_LEGEND, WIDTH)


def findings(rows: Sequence[Mapping[str, Any]], time_limit: float | None) -> tuple[str, str]:
    """Return the study's Findings as (Markdown section, terminal text); docs/studies.md."""
    from validation.study.findings_rows import schedule_gap_study, section

    return section(schedule_gap_study(rows, time_limit), reference="the exact solver")


def snapshot_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """Return one Markdown line per snapshot: status, optimum (bound) and each policy's U / C.

    The status reads ``optimal`` or ``within x % (bound b)`` (:func:`gap_text`).
    """
    from validation.study.schedule.task import gap_text

    policies = list(dict.fromkeys(r["policy"] for r in rows))
    headers = ["snapshot", "status", "delayed (bound)", "makespan (bound)", "checker",
               *(f"{p} U / C" for p in policies)]  # fmt: skip
    body = []
    for k in dict.fromkeys(r["snapshot"] for r in rows):
        mine = {r["policy"]: r for r in rows if r["snapshot"] == k}
        r = next(iter(mine.values()))
        body.append([k, gap_text(r), f"{_f(r['opt_delayed'], 'd')} ({_f(r['delayed_bound'], 'd')})",
                     f"{_f(r['opt_makespan'], 'd')} ({_f(r['makespan_bound'], 'd')})",
                     r["optimum_violations"],
                     *(f"{mine[p]['delayed']} / {mine[p]['makespan']}" for p in policies)])
    return table.markdown(headers, body, left={1})


def write_csv(rows: Sequence[Mapping[str, Any]], path: str | Path,
              columns: Sequence[str] = tuple(n for n, _ in COLUMNS)) -> None:  # fmt: skip
    """Write rows (default: the store's columns, no run times) as CSV."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        out = csv.DictWriter(fh, list(columns), lineterminator="\n", extrasaction="ignore")
        out.writeheader()
        out.writerows({k: "" if v is None else v for k, v in r.items()} for r in rows)


def write_report(rows: Sequence[Mapping[str, Any]], info: Mapping[str, Any], out: str | Path,
                 seconds: tuple[float, float] = (0.0, 0.0),
                 formats: Sequence[str] = ("png",)) -> dict[str, Any]:  # fmt: skip
    """Write report.md, summary.csv, rows.csv, study.json and the figure (PNG, plus SVG when
    ``formats`` holds ``svg``) to ``out``.

    Only the line starting ``- timing:`` depends on the run (creation time,
    seconds); the rest is a function of the rows.
    """
    from validation.study.document import write_identity, write_markdown
    from validation.study.schedule.markdown import markdown

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_identity(info, out)
    summary = summarise(rows)
    write_csv(summary, out / "summary.csv", SUMMARY)
    write_csv(rows, out / "rows.csv")
    figures = draw(summary, out, formats)
    head, body = markdown(info, rows, summary, statuses(rows), figures, seconds)
    report, found_text = write_markdown(out, "schedule-gap", info, rows, head, body)
    return {"report": str(report), "summary": summary, "figures": figures,
            "beats": sum(s["beats_optimum"] for s in summary),
            "findings": found_text}  # fmt: skip
