"""The report of a cluster-policy study: summary table (text, CSV, Markdown) and figures.

Rows are averaged over seeds per (workload, estimates, policy). Figures (need
matplotlib; PNG, SVG on request): grouped bars of mean wait, mean and 90th-percentile
bounded slowdown and utilisation, one group per workload, one bar per policy.
"""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from planner import table
from validation.study.cluster.store import COLUMNS
from validation.study.engine.export import export_csv
from validation.study.engine.figures import DEFAULT_FORMATS, available, save
from validation.study.engine.kind import ReportParts

SUMMARY = (
    "workload", "estimates", "policy", "runs", "jobs", "mean_wait", "median_wait", "p90_wait",
    "mean_slowdown", "mean_bounded_slowdown", "p90_bounded_slowdown", "utilisation",
    "weighted_utilisation", "delayed", "us_per_job", "replay_seconds", "violations",
)  # fmt: skip
HEADERS = {
    "runs": "runs", "mean_wait": "wait mean", "median_wait": "wait med", "p90_wait": "wait p90",
    "mean_slowdown": "sld mean", "mean_bounded_slowdown": "bsld mean",
    "p90_bounded_slowdown": "bsld p90", "utilisation": "util", "weighted_utilisation": "w-util",
    "us_per_job": "sched µs/job", "replay_seconds": "replay s", "violations": "violations",
}  # fmt: skip
FIGURES = (("mean_wait", "mean wait (s)"), ("mean_bounded_slowdown", "mean bounded slowdown"),
           ("p90_bounded_slowdown", "90th percentile bounded slowdown"),
           ("utilisation", "utilisation"))  # fmt: skip
TEXT = ("workload", "estimates", "policy", "runs", "jobs", "mean_wait", "median_wait",
        "mean_bounded_slowdown", "p90_bounded_slowdown", "utilisation", "weighted_utilisation",
        "us_per_job", "violations")  # fmt: skip
"""The columns of the printed table (the Markdown and CSV summaries have all of SUMMARY)."""


def summarise(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return one summary row per (workload, estimates, policy), metrics averaged over seeds."""
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[(os.path.basename(r["workload"]), r["estimates"], r["policy"])].append(r)
    from planner.cluster import POLICIES

    rank = {p: k for k, p in enumerate(POLICIES)}
    out = []
    for (w, e, p), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                                 rank.get(kv[0][2], 99))):
        s: dict[str, Any] = {"workload": w, "estimates": e, "policy": p, "runs": len(rs),
                             "jobs": sum(r["jobs"] for r in rs),
                             "delayed": sum(r["delayed"] for r in rs),
                             "violations": sum(r["violations"] for r in rs)}  # fmt: skip
        for c in SUMMARY:
            if c in s or c == "us_per_job":
                continue
            vals = [r[c] for r in rs if r[c] is not None]
            s[c] = sum(vals) / len(vals) if vals else None
        s["us_per_job"] = 1e6 * sum(r["scheduler_seconds"] for r in rs) / max(s["jobs"], 1)
        out.append(s)
    return out


def _cell(col: str, v: Any) -> str:
    if v is None:
        return "-"
    if col in ("utilisation", "weighted_utilisation"):
        return f"{v:.3f}"
    if isinstance(v, float):
        return f"{v:.1f}" if abs(v) >= 100 else f"{v:.2f}"
    return str(v)


NARROW = ("workload", "estimates", "policy", "runs", "mean_wait", "mean_bounded_slowdown",
          "p90_bounded_slowdown", "utilisation", "violations")  # fmt: skip
"""The columns of the default terminal table (``--wide``: all of SUMMARY)."""

COLUMN_WORDS = {
    "workload": "the workload (file or family)", "estimates": "the run-time estimates the "
    "policies see (requested by the user, or the actual run times)", "policy": "the policy",
    "runs": "replays averaged (one per seed)", "jobs": "jobs replayed, summed over the runs",
    "mean_wait": "mean wait (s) from submission to start", "median_wait": "median wait (s)",
    "p90_wait": "90th percentile of the wait (s)", "mean_slowdown": "mean slowdown "
    "(wait + run) / run", "mean_bounded_slowdown": "mean bounded slowdown max(1, (wait + run) "
    "/ max(run, 10 s))", "p90_bounded_slowdown": "90th percentile of the bounded slowdown",
    "utilisation": "used CPU seconds over the CPUs' capacity during the makespan",
    "weighted_utilisation": "the same with each CPU second weighted by its machine's speed",
    "delayed": "jobs finishing after their deadline, summed", "us_per_job": "scheduler time "
    "per job (µs)", "replay_seconds": "wall-clock seconds per replay",
    "violations": "what the independent checker found in the replays (must be 0)",
}  # fmt: skip
"""Every summary column in words (the report's "Columns" section)."""


def text_table(summary: Sequence[Mapping[str, Any]], wide: bool = False) -> str:
    """Return the summary as an aligned plain-text table: narrow (≤ 100 columns) or ``wide``."""
    from validation.study.engine.tables import WIDTH, render

    cols = SUMMARY if wide else NARROW
    cells = [[_cell(c, s[c]) for c in cols] for s in summary]
    return render([HEADERS.get(c, c) for c in cols], cells, left=3,
                  width=None if wide else WIDTH)  # fmt: skip


def findings(rows: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    """Return the study's Findings as (Markdown section, terminal text); docs/studies.md."""
    from validation.study.cluster.findings import cluster_study
    from validation.study.engine.findings import section

    return section(cluster_study(rows))


def markdown_table(summary: Sequence[Mapping[str, Any]]) -> str:
    """Return the summary as a Markdown table."""
    return table.markdown([HEADERS.get(c, c) for c in SUMMARY],
                          [[_cell(c, s[c]) for c in SUMMARY] for s in summary], left=3)


def figures(summary: Sequence[Mapping[str, Any]], out: Path,
            formats: Sequence[str] = DEFAULT_FORMATS) -> list[str]:  # fmt: skip
    """Write the grouped-bar figures (PNG; SVG on request); return their PNG file names ([]
    without matplotlib)."""
    if not available() or not summary:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    labels = list(dict.fromkeys(f"{s['workload']} [{s['estimates']}]" for s in summary))
    policies = list(dict.fromkeys(s["policy"] for s in summary))
    names = []
    for col, title in FIGURES:
        fig, ax = plt.subplots(figsize=(max(5, 1.8 * len(labels) * len(policies) / 2), 3.6),
                               layout="constrained")  # fmt: skip
        x = np.arange(len(labels))
        width = 0.8 / max(len(policies), 1)
        for k, p in enumerate(policies):
            vals = []
            for lab in labels:
                hit = [s[col] for s in summary if s["policy"] == p
                       and f"{s['workload']} [{s['estimates']}]" == lab]  # fmt: skip
                vals.append(hit[0] if hit and hit[0] is not None else np.nan)
            ax.bar(x + k * width, vals, width, label=p)
        ax.set_xticks(x + width * (len(policies) - 1) / 2, labels, fontsize="small")
        ax.set(title=title)
        ax.legend(fontsize="small")
        save(fig, out, col, formats)
        plt.close(fig)
        names.append(f"{col}.png")
    return names


def report_parts(rows: Sequence[Mapping[str, Any]], info: Mapping[str, Any], out: Path,
                 formats: Sequence[str]) -> ReportParts:  # fmt: skip
    """Write ``summary.csv``, ``rows.csv`` and the figures to ``out``; return the rest of the
    report (:class:`~validation.study.engine.kind.ReportParts`). Checker violations are a
    problem (exit 1)."""
    summary = summarise(rows)
    with open(out / "summary.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=SUMMARY, lineterminator="\n")
        w.writeheader()
        w.writerows(summary)
    export_csv(rows, out / "rows.csv", [n for n, _ in COLUMNS])
    figs = figures(summary, out, formats)
    head = ["# Cluster policy study", "", "Command:", "", f"    {info['spec'].command()}", ""]
    lines = ["Metrics are averaged over seeds (Klusáček & Rudová 2008; definitions in "
             "`docs/job-flows.md`). `violations` counts what the independent checker "
             "found in the replays (it must be 0).", "", markdown_table(summary), ""]  # fmt: skip
    lines += ["## Columns", "", *(f"- `{HEADERS.get(c, c)}`: {COLUMN_WORDS[c]}."
                                  for c in SUMMARY), ""]  # fmt: skip
    lines += [f"![{name[:-4]}]({name})" for name in figs]
    bad = sum(r["violations"] for r in rows)
    problems = [f"the checker found {plural(bad, 'violation')}"] if bad else []
    files = [out / "summary.csv", out / "rows.csv"]
    files += [out / f"{Path(f).stem}.{ext}" for f in figs for ext in formats]
    return ReportParts(head, lines, summary, text_table(summary), text_table(summary, wide=True),
                       files, problems)  # fmt: skip
