"""The gap-study report: summary table (text, CSV, Markdown), figures and error instances."""

from __future__ import annotations

import csv
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from planner import table
from validation.study.engine.export import export_csv
from validation.study.engine.findings import section
from validation.study.engine.kind import ReportParts
from validation.study.engine.tables import WIDTH, render
from validation.study.gap import plots
from validation.study.gap.findings import gap_study, price_cap_reason
from validation.study.gap.metrics import SUMMARY_COLUMNS, format_cell, gap_kind, summarise
from validation.study.gap.spec import StudySpec
from validation.study.gap.store import COLUMNS, Store

HEADERS: dict[str, str] = {
    "family": "family", "geometry": "geometry", "algorithm": "algorithm",
    "criterion": "criterion", "instances": "inst", "jobs": "jobs", "found_rate": "found",
    "exact_found_rate": "exact found", "proven": "proven", "exact_match_rate": "match",
    "gap_rows": "gap n", "gap_mean": "gap mean", "gap_median": "gap med", "gap_p95": "gap p95",
    "gap_max": "gap max", "abs_gap_mean": "abs mean", "abs_gap_max": "abs max",
    "heuristic_ms": "heur ms", "exact_ms": "exact ms", "speedup": "exact/heur",
    "unproven": "unproven", "errors": "errors",
}  # fmt: skip


def _columns(summary: Sequence[Mapping[str, Any]]) -> list[str]:
    """Drop family/geometry/unproven when they are constant or zero (they go in the title)."""
    cols = list(SUMMARY_COLUMNS)
    for c in ("family", "geometry"):
        if len({s[c] for s in summary}) <= 1:
            cols.remove(c)
    if not any(s["unproven"] for s in summary):
        cols.remove("unproven")
    return cols


def text_table(summary: Sequence[Mapping[str, Any]], wide: bool = False) -> str:
    """Return the summary as an aligned plain-text table: narrow (≤ 100 columns) or ``wide``."""
    if wide:
        cols = _columns(summary)
        cells = [[format_cell(c, s[c]) for c in cols] for s in summary]
        return render([HEADERS[c] for c in cols], cells, left=2)
    keys = [c for c in ("family", "geometry") if len({s[c] for s in summary}) > 1]
    keys += ["algorithm", "criterion"]
    rows = []
    for s in summary:
        absolute = gap_kind(s["criterion"]) == "absolute"
        mean, top = ("abs_gap_mean", "abs_gap_max") if absolute else ("gap_mean", "gap_max")
        rows.append([*(str(s[c]) for c in keys), str(s["gap_rows"]),
                     format_cell("found_rate", s["found_rate"]),
                     format_cell("exact_match_rate", s["exact_match_rate"]),
                     _headline(s[mean], absolute), _headline(s[top], absolute),
                     format_cell("heuristic_ms", s["heuristic_ms"]), str(s["errors"])])  # fmt: skip
    head = [*(HEADERS[c] for c in keys), "n", "found", "match", "gap", "max gap", "ms", "err"]
    return render(head, rows, left=len(keys), width=WIDTH)


def _headline(value: float | None, absolute: bool) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if absolute else f"{100 * value:.1f}%"


NARROW_LEGEND = (
    "n: rows with a gap (the heuristic found a window, the optimum is proven); found: share "
    "of rows with a window (one exists) where the "
    "heuristic found one; match: share of the proven rows where it equals the optimum (over "
    "the slot starts; for dep and coord, the free-start optimum); gap, "
    "max gap: mean and largest gap to the optimum, in % of it, or in quanta for min_start, dep "
    "and coord; ms: median heuristic milliseconds per job; err: error rows (must be 0). "
    "--wide prints every column."
)
"""The narrow table's columns in words, printed under it."""

COLUMN_WORDS: dict[str, str] = {
    "family": "the instance family", "geometry": "the geometry the instances are read in",
    "algorithm": "the heuristic", "criterion": "the criterion it is scored on",
    "instances": "instances with a row", "jobs": "rows (instance × job)",
    "found_rate": "of the rows where a window exists, the share where the heuristic found one",
    "exact_found_rate": "share of rows where a window exists at all (the exact model found "
    "one); the rest are proven infeasible, so this is a property of the instances, not a "
    "success rate",
    "proven": "rows whose optimum the exact model proved", "exact_match_rate":
    "of the proven rows, the share where the heuristic's value equals the optimum (the optimum "
    "over the slot starts; for dep and coord the free-start optimum, see Findings)",
    "gap_rows": "rows with a gap (heuristic found a window, optimum proven)",
    "gap_mean": "mean relative gap (0 optimal, positive worse)",
    "gap_median": "median relative gap",
    "gap_p95": "95th percentile of the relative gap", "gap_max": "largest relative gap",
    "abs_gap_mean": "mean absolute gap in the criterion's unit (the gap to read for min_start, "
    "dep and coord)", "abs_gap_max": "largest absolute gap",
    "heuristic_ms": "median heuristic milliseconds per job",
    "exact_ms": "median exact-solver milliseconds per job", "speedup": "exact ms / heur ms",
    "unproven": "rows the exact model left unproven (time limit)",
    "errors": "error rows: a window the checker rejects or one better than a proven optimum "
    "(must be 0)",
}  # fmt: skip
"""Every summary column in words (the report's "Columns" section)."""


_TEXT_COLUMNS = ("family", "geometry", "algorithm", "criterion")


def markdown_table(
    summary: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None
) -> str:
    """Return the summary as a Markdown table."""
    cols = list(columns or SUMMARY_COLUMNS)
    return table.markdown([HEADERS.get(c, c) for c in cols],
                          [[format_cell(c, s[c]) for c in cols] for s in summary],
                          left=[i for i, c in enumerate(cols) if c in _TEXT_COLUMNS])


def report_parts(store: Store, info: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                 out: Path, formats: Sequence[str],
                 progress: bool | None) -> ReportParts:  # fmt: skip
    """Write ``summary.csv``, ``rows.csv``, the figures and ``errors/`` to ``out``; return the
    rest of the report (:class:`~validation.study.engine.kind.ReportParts`).

    The figures are PNG, plus SVG when ``formats`` holds ``svg``. An error row is a problem
    (exit 1); its instance is saved in ``errors/``.
    """
    summary = summarise(rows)
    figures = plots.draw(rows, summary, out, formats)
    _summary_csv(summary, out / "summary.csv")
    export_csv(rows, out / "rows.csv", [n for n, _ in COLUMNS])
    errors = [r for r in rows if r["error"]]
    files = [out / "summary.csv", out / "rows.csv"]
    files += [out / f"{Path(f).stem}.{ext}" for f in figures for ext in formats]
    if errors:
        (out / "errors").mkdir(exist_ok=True)
        for index, text in store.error_instances(info["id"]):
            path = out / "errors" / f"instance-{index}.json"
            path.write_text(text, encoding="utf-8")
            files.append(path)
    head, body = _markdown(info, summary, figures, errors, len(rows))
    problems = [f"{plural(len(errors), 'error row')} (see the report); instances saved in "
                f"{out / 'errors'}"] if errors else []  # fmt: skip
    table = text_table(summary) + "\n" + textwrap.fill(NARROW_LEGEND, WIDTH)
    return ReportParts(head, body, summary, table, text_table(summary, wide=True), files,
                       problems)  # fmt: skip


def findings(rows: Sequence[Mapping[str, Any]], spec: StudySpec) -> tuple[str, str]:
    """Return the study's Findings as (Markdown section, terminal text); docs/studies.md."""
    parts = gap_study(rows, spec.solver, spec.time_limit,
                      price_cap_reason(spec.params))  # fmt: skip
    return section(parts, seed=spec.seed, reference="the exact model")


def _columns_md() -> str:
    lines = ["## Columns", ""]
    lines += [f"- `{HEADERS[c]}`: {COLUMN_WORDS[c]}." for c in SUMMARY_COLUMNS]
    return "\n".join(lines) + "\n"


def command(spec: StudySpec) -> str:
    """Return the ``planner study gap`` command line that reruns (or resumes) ``spec``."""
    import json

    parts = ["planner study gap", f"--family {spec.family}"]
    parts += [f"--{k.replace('_', '-')} {json.dumps(v) if not isinstance(v, str) else v}"
              for k, v in sorted(spec.params.items())]  # fmt: skip
    parts += [f"--instances {spec.instances}", f"--seed {spec.seed}", f"--solver {spec.solver}"]
    if spec.algorithms:
        parts.append("--algorithms " + " ".join(spec.algorithms))
    if spec.time_limit:
        parts.append(f"--time-limit {spec.time_limit}")
    if spec.threads != 1:
        parts.append(f"--threads {spec.threads}")
    if spec.geometries:
        parts.append("--geometry " + " ".join(spec.geometries))
    return " ".join(parts)


def _summary_csv(summary: Sequence[Mapping[str, Any]], path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(SUMMARY_COLUMNS))
        w.writeheader()
        for s in summary:
            w.writerow({k: "" if v is None else v for k, v in s.items()})


def _markdown(info: Mapping[str, Any], summary: Any, figures: list[str], errors: list[Any],
              nrows: int) -> tuple[list[str], list[str]]:  # fmt: skip
    """Return report.md's head (title, setting, command) and body (after the Findings)."""
    spec: StudySpec = info["spec"]
    params = " ".join(f"{k}={v}" for k, v in sorted(spec.params.items())) or "defaults"
    head = [
        f"# Gap study: {spec.family}",
        "",
        f"- family `{spec.family}` ({params}), {plural(spec.instances, 'instance')}, "
        f"seed {spec.seed}",
        f"- geometries: {', '.join(spec.geometries) or 'the family default'}",
        f"- exact solver `{spec.solver}`, {plural(spec.threads, 'thread')}, time limit "
        f"{spec.time_limit if spec.time_limit else 'none'}",
        f"- planner {info['version']}, study {info['id']} created {info['created']}; "
        f"{info['done']} instances, {nrows} rows (instance × job × algorithm)",
        f"- command: `{command(spec)}`",
        "",
    ]
    lines = [
        "Gap = (heuristic − optimum) / max(|optimum|, 1), sign-normalised so that 0 is "
        "optimal and positive is worse; `abs mean`/`abs max` are the same difference in the "
        "criterion's own unit (quanta, money, q), the gap to read for min_start, dep and coord, "
        "whose optimum can be 0. The optimum is the exact one over the slot starts (the AEP "
        "start space), and for dep and coord the free-start optimum (any integer start). "
        "Found rate is over rows where the exact model found a window, "
        "match over the `proven` rows, gaps over the `gap n` rows; times are medians per job. "
        "Definitions: docs/studies.md.",
        "",
        _columns_md(),
        "## Summary",
        "",
        markdown_table(summary),
        "",
    ]
    if figures:
        lines += ["## Figures", ""]
        lines += [f"![{f[:-4]}]({f})" + "\n" for f in figures]
    else:
        lines += ["Figures need matplotlib: `pip install 'planner[plot]'`, then "
                  "`planner study report --db FILE`.", ""]  # fmt: skip
    lines += ["## Errors", ""]
    if not errors:
        lines.append(
            "None: every window passed the checker and no heuristic beat a proven optimum."
        )
    else:
        lines.append("Instances are saved in `errors/instance-INDEX.json`.")
        lines.append("")
        lines.append(table.markdown(["instance", "geometry", "job", "algorithm", "error"],
                                    [[r["instance"], r["geometry"], r["job"], r["algorithm"],
                                      r["error"]] for r in errors], left={1, 2, 3, 4}))  # fmt: skip
    return head, lines
