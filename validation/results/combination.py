"""Combination files (``planner combine``): the placed windows, their shared time, and the
summary's sums, limit, bound and gap for problems (6)–(9) of Toporkov et al. 2015.

With the alternatives the combination chose from, each placed window must be
its numbered alternative, every job with alternatives is placed, and g* is
the default of docs/exact-models.md (t* = Σ ceil(mean time), b* = floor(Σ
mean cost), exact rationals) unless the limits are given.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from typing import Any

from instances import Instance
from instances.text import plural
from validation.results.alternatives import check_alternatives_file
from validation.results.lines import ResultFile, ResultLine, StatedWindow
from validation.results.report import Report, jobs_of, known_lines, missing
from validation.results.window import PROBLEMS, Violation, check_window

_REL = 1e-9


def check_combination_file(
    instance: Instance,
    results: ResultFile,
    constraint: str,
    alternatives: ResultFile | None,
    limits: dict[str, int],
) -> Report:
    """Check a combination's lines and summary (and against its alternatives, when given)."""
    rep = Report(jobs=len(instance.jobs))
    jobs = jobs_of(instance)
    summary = results.summary or {}
    sline = results.summary_line
    problem = int(summary["problem"])
    f_kind, g_kind, sense = PROBLEMS[problem]
    time_metric = summary.get("time") or "proc_time"
    seen: dict[str, ResultLine] = {}
    placed: list[tuple[ResultLine, dict[str, float] | None]] = []
    busy: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for ln, job in known_lines(rep, results.lines, jobs):
        if ln.job in seen:
            rep.violations.append(Violation("job", "a second line", "one line per job",
                                            f"the first is line {seen[ln.job].number}", ln.job,
                                            ln.number))  # fmt: skip
            continue
        seen[ln.job] = ln
        if ln.window is None:
            continue
        rep.windows += 1
        got = check_window(instance, job, ln.window, constraint=constraint, within=True,
                           line=ln.number, alternative=ln.alternative)  # fmt: skip
        rep.violations.extend(got.violations)
        rep.metrics[ln.number] = got.metrics
        placed.append((ln, got.metrics))
        for i, p in enumerate(ln.window.placements):
            for a, b, other in busy[p.node]:
                if p.start < b and a < p.end:
                    rep.violations.append(Violation(
                        "overlap", (p.start, p.end), f"time not taken by '{other}' [{a}, {b})",
                        "", ln.job, ln.number, i, p.node))  # fmt: skip
            busy[p.node].append((p.start, p.end, ln.job))
    missing(rep, instance, {j: ln.number for j, ln in seen.items()})

    def value(metrics: dict[str, float] | None, kind: str) -> float | None:
        if metrics is None:
            return None
        return metrics["cost"] if kind == "cost" else metrics[time_metric]

    fs = [value(m, f_kind) for _, m in placed]
    gs = [value(m, g_kind) for _, m in placed]
    known = all(v is not None for v in fs + gs)
    f_sum = sum(fs) if known else None  # type: ignore[arg-type]
    g_sum = sum(gs) if known else None  # type: ignore[arg-type]

    def bad(rule: str, stated: Any, expected: Any, detail: str) -> None:
        rep.violations.append(Violation(rule, stated, expected, detail, None, sline))

    status = summary.get("status")
    objective, bound = summary.get("objective"), summary.get("bound")
    if known and objective is not None and not math.isclose(objective, f_sum, rel_tol=_REL):
        bad("objective", objective, f_sum, f"Σ {f_kind} of the placed windows, problem {problem}")
    stated_g = summary.get("constraint")
    if known and stated_g is not None and stated_g != g_sum:
        bad("constraint", stated_g, g_sum, f"Σ {g_kind} of the placed windows")
    limit = summary.get("limit")
    if known and limit is not None and status in ("optimal", "feasible") and g_sum > limit:
        bad("limit", g_sum, f"<= {limit}", f"Σ {g_kind} within g*")
    if objective is not None and bound is not None:
        wrong = objective > bound + 1e-9 if sense == "max" else objective < bound - 1e-9
        if wrong:
            side = ">=" if sense == "max" else "<="
            bad("bound", bound, f"{side} objective {objective}", f"{sense} problem {problem}")
        gap = summary.get("gap")
        if gap is not None:
            want = abs(objective - bound) / max(abs(objective), 1)
            if not math.isclose(gap, want, rel_tol=1e-6, abs_tol=1e-9):
                bad("gap", gap, want, "|objective - bound| / max(|objective|, 1)")
    if alternatives is not None:
        _against_alternatives(rep, instance, seen, alternatives, g_kind, time_metric, limit,
                              limits, status, bad)  # fmt: skip
    return rep


def _against_alternatives(
    rep: Report,
    instance: Instance,
    seen: dict[str, ResultLine],
    alternatives: ResultFile,
    g_kind: str,
    time_metric: str,
    limit: Any,
    limits: dict[str, int],
    status: Any,
    bad: Any,
) -> None:
    """A combination against the alternatives it chose from: windows, placed jobs, default g*."""
    by_job: dict[str, list[StatedWindow]] = defaultdict(list)
    for ln in alternatives.lines:
        if ln.window is not None:
            by_job[ln.job].append(ln.window)
    for job_id, ln in seen.items():
        options = by_job.get(job_id, [])
        if ln.window is None:
            if options and status in ("optimal", "feasible"):
                rep.violations.append(Violation(
                    "status", "postponed", "placed",
                    f"the job has {plural(len(options), 'alternative')}",
                    job_id, ln.number))  # fmt: skip
            continue
        k = ln.alternative
        if k is None:
            continue
        if k > len(options) or options[k - 1].key() != ln.window.key():
            rep.violations.append(Violation(
                "job", f"alternative {k}", "its window as the alternatives file states it",
                f"the job has {plural(len(options), 'alternative')}", job_id, ln.number,
                alternative=k))  # fmt: skip
    check = check_alternatives_file(instance, alternatives, "budget")
    values: dict[str, list[int]] = defaultdict(list)
    for ln in alternatives.lines:
        m = check.metrics.get(ln.number)
        if ln.window is None:
            continue
        if m is None:
            return  # a window on unknown nodes: no default to recompute
        values[ln.job].append(int(m["cost"] if g_kind == "cost" else m[time_metric]))
    means = [Fraction(sum(v), len(v)) for v in values.values()]
    if g_kind == "time":
        default = sum(math.ceil(m) for m in means)
    else:
        default = math.floor(sum(means, Fraction(0)))
    given = limits.get("t_star" if g_kind == "time" else "b_star")
    want = default if given is None else given
    if limit is not None and limit != want:
        how = "given" if given is not None else "the default from the alternatives' means"
        bad("limit", limit, want, f"g* ({how})")
