"""The gap-study report: summary table (text, CSV, Markdown), figures and error instances."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from planner.progress import phase
from validation.study import plots
from validation.study.metrics import SUMMARY_COLUMNS, format_cell, gap_kind, summarise
from validation.study.spec import StudySpec
from validation.study.store import Store
from validation.study.tables import WIDTH, render

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
    "heuristic found one; match: share of the proven rows where it equals the optimum; gap, "
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
    "of the proven rows, the share where the heuristic's value equals the optimum",
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


def markdown_table(
    summary: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None
) -> str:
    """Return the summary as a Markdown table."""
    cols = list(columns or SUMMARY_COLUMNS)
    head = "| " + " | ".join(HEADERS.get(c, c) for c in cols) + " |"
    rule = "| " + " | ".join("---" if c in ("family", "geometry", "algorithm", "criterion")
                             else "---:" for c in cols) + " |"  # fmt: skip
    body = ["| " + " | ".join(format_cell(c, s[c]) for c in cols) + " |" for s in summary]
    return "\n".join([head, rule, *body])


def write_report(store: Store, study: int, out: str | Path,
                 formats: Sequence[str] = plots.DEFAULT_FORMATS,
                 progress: bool | None = None) -> dict[str, Any]:  # fmt: skip
    """Write ``report.md``, ``summary.csv``, ``rows.csv``, the figures and ``errors/`` to ``out``.

    The figures are PNG, plus SVG when ``formats`` holds ``svg``; drawing them
    shows a timed progress line (``progress``: None on a terminal only,
    :mod:`planner.progress`).

    Returns
    -------
    dict
        ``report`` (path), ``summary`` (records), ``errors`` (error rows),
        ``figures`` (file names; empty without matplotlib), ``error_files``,
        ``files`` (the path of every file written).
    """
    import json

    from validation.study.export import export_csv

    out = Path(out)
    info = next(s for s in store.studies() if s["id"] == study)
    check_out(out, info["spec"], info["version"], store.path)
    rows = store.rows(study, info["spec"].algorithms, info["spec"].geometries)
    out.mkdir(parents=True, exist_ok=True)
    ident = identity(info["spec"], info["version"])
    (out / IDENTITY_FILE).write_text(json.dumps(ident, indent=1) + "\n", encoding="utf-8")
    summary = summarise(rows)
    with phase(f"drawing the figures of {out}", enabled=progress if rows else False):
        figures = plots.draw(rows, summary, out, formats)
    _summary_csv(summary, out / "summary.csv")
    export_csv(rows, out / "rows.csv")
    errors = [r for r in rows if r["error"]]
    error_files = []
    if errors:
        (out / "errors").mkdir(exist_ok=True)
        for index, text in store.error_instances(study):
            path = out / "errors" / f"instance-{index}.json"
            path.write_text(text, encoding="utf-8")
            error_files.append(str(path))
    found_md, found_text = findings(rows, info["spec"])
    report = out / "report.md"
    text = _markdown(info, summary, figures, errors, len(rows))
    head, sep, rest = text.partition("Gap = (heuristic − optimum)")
    head2, sep2, rest2 = rest.partition("## Summary")
    report.write_text(head + found_md + "\n" + sep + head2 + _columns_md() + sep2 + rest2,
                      encoding="utf-8")  # fmt: skip
    drawn = [out / f"{Path(f).stem}.{ext}" for f in figures for ext in formats]
    files = [report, out / "summary.csv", out / "rows.csv", out / IDENTITY_FILE, *drawn]
    return {"report": str(report), "summary": summary, "errors": errors,
            "figures": figures, "error_files": error_files, "findings": found_text,
            "files": [str(f) for f in files] + error_files}  # fmt: skip


def findings(rows: Sequence[Mapping[str, Any]], spec: StudySpec) -> tuple[str, str]:
    """Return the study's Findings as (Markdown section, terminal text); docs/studies.md."""
    from validation.study.findings_rows import gap_study, price_cap_reason, section

    parts = gap_study(rows, spec.solver, spec.time_limit,
                      price_cap_reason(spec.params))  # fmt: skip
    return section(parts, seed=spec.seed, reference="the exact model")


def _columns_md() -> str:
    lines = ["## Columns", ""]
    lines += [f"- `{HEADERS[c]}`: {COLUMN_WORDS[c]}." for c in SUMMARY_COLUMNS]
    return "\n".join(lines) + "\n\n"


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
              nrows: int) -> str:  # fmt: skip
    spec: StudySpec = info["spec"]
    params = " ".join(f"{k}={v}" for k, v in sorted(spec.params.items())) or "defaults"
    lines = [
        f"# Gap study: {spec.family}",
        "",
        f"- family `{spec.family}` ({params}), {spec.instances} instances, seed {spec.seed}",
        f"- geometries: {', '.join(spec.geometries) or 'the family default'}",
        f"- exact solver `{spec.solver}`, {spec.threads} thread(s), time limit "
        f"{spec.time_limit if spec.time_limit else 'none'}",
        f"- planner {info['version']}, study {info['id']} created {info['created']}; "
        f"{info['done']} instances, {nrows} rows (instance × job × algorithm)",
        f"- command: `{command(spec)}`",
        "",
        "Gap = (heuristic − optimum) / max(|optimum|, 1), sign-normalised so that 0 is "
        "optimal and positive is worse; `abs mean`/`abs max` are the same difference in the "
        "criterion's own unit (quanta, money, q), the gap to read for min_start, dep and coord, "
        "whose optimum can be 0. Found rate is over rows where the exact model found a window, "
        "match over the `proven` rows, gaps over the `gap n` rows; times are medians per job. "
        "Definitions: docs/studies.md.",
        "",
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
        lines.append("| instance | geometry | job | algorithm | error |")
        lines.append("| ---: | --- | --- | --- | --- |")
        lines += [f"| {r['instance']} | {r['geometry']} | {r['job']} | {r['algorithm']} | "
                  f"{r['error']} |" for r in errors]  # fmt: skip
    return "\n".join(lines) + "\n"


IDENTITY_FILE = "study.json"
"""The file naming the study whose report a directory holds (spec, version, key)."""


def identity(spec: StudySpec, version: str) -> dict[str, Any]:
    """Return the identity of a study's report: a hash of its key, its spec and version."""
    import hashlib

    digest = hashlib.sha256(spec.key(version).encode()).hexdigest()
    return {"key": digest, "spec": spec.to_dict(), "version": version}


def default_dir(base: str | Path, spec: StudySpec, version: str) -> Path:
    """Return the report directory of a study under ``base``: ``FAMILY-HASH`` (one per study)."""
    return Path(base) / f"{spec.family}-{identity(spec, version)['key'][:10]}"


def report_files(out: str | Path) -> list[Path]:
    """Return the files a report writes directly in ``out`` (``errors/`` aside)."""
    out = Path(out)
    names = ["report.md", "summary.csv", "rows.csv", IDENTITY_FILE]
    names += [f"{f}.{ext}" for f in plots.FIGURES for ext in plots.FORMATS]
    return [out / n for n in names]


def check_out(out: str | Path, spec: StudySpec, version: str, db: str | Path | None = None) -> None:
    """Check, before any work, that ``out`` may receive the report of this study.

    Raises
    ------
    StudyError
        One line: ``out`` is a file or lies under one, is not writable, holds the report
        of another study, or one of the report's files is the database ``db``.
    """
    import json
    import os

    from validation.study.spec import StudyError

    out = Path(out)
    probe = out
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise StudyError(f"{out}: cannot write the report there ({probe} is not a directory)")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise StudyError(f"{out}: cannot write the report there ({probe} is not writable)")
    if db is not None and _is_report_file(Path(db), out):
        raise StudyError(f"{db}: the database would be overwritten by the report in {out}; "
                         "use another --out or --db")  # fmt: skip
    marker = out / IDENTITY_FILE
    mine = identity(spec, version)["key"]
    if marker.is_file():
        try:
            theirs = json.loads(marker.read_text(encoding="utf-8")).get("key")
        except (OSError, ValueError, AttributeError):
            theirs = None
        if theirs != mine:
            raise StudyError(f"{out}: holds the report of another study (see {marker}); "
                             "use another --out or remove it")  # fmt: skip
    elif (out / "report.md").exists():
        raise StudyError(f"{out}: holds a report of an unknown study (no {IDENTITY_FILE}); "
                         "use another --out or remove it")  # fmt: skip


def _is_report_file(db: Path, out: Path) -> bool:
    """True when ``db`` is (the same file as) one the report in ``out`` writes."""
    import os

    target = db.resolve()
    errors = (out / "errors").resolve()
    if target.parent == errors:
        return True
    for f in report_files(out):
        if f.resolve() == target:
            return True
        try:
            if db.exists() and f.exists() and os.path.samefile(db, f):
                return True
        except OSError:
            continue
    return False
