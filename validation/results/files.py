"""Whole result files checked: single-job lines, alternatives replayed in the order found,
combinations against problems (6)–(9) of Toporkov et al. 2015 (docs/verify.md).

Every window goes through :func:`validation.results.window.check_window`; this
module adds what concerns several lines: one line per job, alternatives'
numbering, rounds and slot subtraction (the alternatives search of
docs/concepts.md), shared node time, a combination's sums, limit, bound and gap.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from instances import CRITERIA, Instance, Job, Slot
from validation.results.lines import ResultFile, ResultLine, StatedWindow
from validation.results.window import (
    PROBLEMS,
    Violation,
    better,
    check_window,
    criterion_value,
    host_slot,
)

_REL = 1e-9


@dataclass
class Report:
    """What :func:`check_file` found: the violations and each line's recomputed metrics."""

    violations: list[Violation] = field(default_factory=list)
    metrics: dict[int, dict[str, float] | None] = field(default_factory=dict)
    windows: int = 0
    jobs: int = 0


def check_file(
    instance: Instance,
    results: ResultFile,
    *,
    constraint: str = "budget",
    alternatives: ResultFile | None = None,
    limits: dict[str, int] | None = None,
) -> Report:
    """Check every line of ``results`` (its kind decides how); return a :class:`Report`.

    Parameters
    ----------
    instance
        The instance the results answer.
    results
        The parsed result file.
    constraint
        ``budget`` or ``price_cap`` (ALP), see :func:`check_window`.
    alternatives
        For a combination: the alternatives it chose from (optional; then each
        placed window must be its numbered alternative and g* the default).
    limits
        For a combination: ``t_star``/``b_star`` given to the solve instead of the defaults.
    """
    if results.kind == "alternatives":
        return _check_alternatives(instance, results, constraint)
    if results.kind == "combine":
        return _check_combination(instance, results, constraint, alternatives, limits or {})
    return _check_solve(instance, results, constraint)


def _jobs(instance: Instance) -> dict[str, Job]:
    return {j.id: j for j in instance.jobs}


def _check_solve(instance: Instance, results: ResultFile, constraint: str) -> Report:
    rep = Report(jobs=len(instance.jobs))
    jobs = _jobs(instance)
    seen: dict[str, int] = {}
    for ln in results.lines:
        job = jobs.get(ln.job)
        if job is None:
            rep.violations.append(Violation("job", ln.job, "a job of the instance", "unknown job",
                                            ln.job, ln.number))  # fmt: skip
            continue
        if ln.job in seen:
            rep.violations.append(Violation("job", f"a second line for '{ln.job}'", "one line",
                                            f"the first is line {seen[ln.job]}", ln.job,
                                            ln.number))  # fmt: skip
            continue
        seen[ln.job] = ln.number
        if ln.window is None:
            continue
        rep.windows += 1
        got = check_window(instance, job, ln.window, constraint=constraint, line=ln.number)
        rep.violations.extend(got.violations)
        rep.metrics[ln.number] = got.metrics
        _objective(rep, ln, job, got.metrics)
    _missing(rep, instance, seen)
    return rep


def _objective(rep: Report, ln: ResultLine, job: Job, metrics: dict[str, float] | None) -> None:
    """Check an exact line's objective and bound against the recomputed window value."""
    crit = ln.criterion if ln.criterion in CRITERIA else job.criterion
    value = criterion_value(metrics, crit)
    if ln.objective is not None and value is not None and not math.isclose(
        ln.objective, value, rel_tol=_REL, abs_tol=_REL
    ):
        rep.violations.append(Violation("objective", ln.objective, value, f"{crit} of the window",
                                        ln.job, ln.number))  # fmt: skip
    if ln.objective is not None and ln.bound is not None and better(crit, ln.objective, ln.bound):
        side = "<=" if CRITERIA[crit].sense == "min" else ">="
        rep.violations.append(Violation("bound", ln.bound, f"{side} {ln.objective}",
                                        f"{crit}: a bound no better than the objective",
                                        ln.job, ln.number))  # fmt: skip


def _missing(rep: Report, instance: Instance, seen: dict[str, int]) -> None:
    for job in instance.jobs:
        if job.id not in seen:
            rep.violations.append(Violation("missing", "no line", "a line", "", job.id))


def _check_alternatives(instance: Instance, results: ResultFile, constraint: str) -> Report:
    rep = Report(jobs=len(instance.jobs))
    jobs = _jobs(instance)
    batch = {j.id: k for k, j in enumerate(instance.jobs)}
    current = list(instance.slots)
    busy: dict[str, list[tuple[int, int, str, int]]] = defaultdict(list)
    count: dict[str, int] = defaultdict(int)
    none_line: dict[str, int] = {}
    rounds: list[set[str]] = [set()]
    last = -1
    for ln in results.lines:
        job = jobs.get(ln.job)
        if job is None:
            rep.violations.append(Violation("job", ln.job, "a job of the instance", "unknown job",
                                            ln.job, ln.number))  # fmt: skip
            continue
        if ln.window is None:
            if ln.job in none_line:
                rep.violations.append(Violation("job", "a second not_found line", "one",
                                                "", ln.job, ln.number))  # fmt: skip
            none_line[ln.job] = ln.number
            continue
        count[ln.job] += 1
        k = count[ln.job]
        if ln.alternative is not None and ln.alternative != k:
            rep.violations.append(Violation("job", ln.alternative, k, "alternative number "
                                            "(from 1 per job, in the order found)", ln.job,
                                            ln.number, alternative=k))  # fmt: skip
        idx = batch[ln.job]
        if idx <= last:
            rounds.append(set())
        last = idx
        if len(rounds) > 1 and ln.job not in rounds[-2]:
            rep.violations.append(Violation(
                "order", f"round {len(rounds)}", f"no alternative after round {len(rounds) - 1}",
                "a job that finds none in a round is not searched again", ln.job, ln.number,
                alternative=k))  # fmt: skip
        rounds[-1].add(ln.job)
        rep.windows += 1
        got = check_window(instance, job, ln.window, slots=current, constraint=constraint,
                           line=ln.number, alternative=k)  # fmt: skip
        rep.violations.extend(got.violations)
        rep.metrics[ln.number] = got.metrics
        for i, p in enumerate(ln.window.placements):
            for a, b, other, kk in busy[p.node]:
                if p.start < b and a < p.end:
                    rep.violations.append(Violation(
                        "overlap", (p.start, p.end), f"time not taken by alternative {kk} of "
                        f"'{other}' [{a}, {b})", "", ln.job, ln.number, i, p.node, k))  # fmt: skip
            host = host_slot(current, p.node, p.start, p.end)
            if host is not None:
                current.remove(host)
                current.extend(_subtract(host, p.start, p.end))
            busy[p.node].append((p.start, p.end, ln.job, k))
    for job_id, number in none_line.items():
        if count[job_id]:
            rep.violations.append(Violation("status", "not_found", "no such line",
                                            f"the job has {count[job_id]} alternatives", job_id,
                                            number))  # fmt: skip
    _missing(rep, instance, {**dict.fromkeys(count), **none_line})
    return rep


def _subtract(slot: Slot, start: int, end: int) -> list[Slot]:
    left = []
    if start > slot.start:
        left.append(Slot(slot.node, slot.start, start, slot.price))
    if slot.end > end:
        left.append(Slot(slot.node, end, slot.end, slot.price))
    return left


def _check_combination(
    instance: Instance,
    results: ResultFile,
    constraint: str,
    alternatives: ResultFile | None,
    limits: dict[str, int],
) -> Report:
    rep = Report(jobs=len(instance.jobs))
    jobs = _jobs(instance)
    summary = results.summary or {}
    sline = results.summary_line
    problem = int(summary["problem"])
    f_kind, g_kind, sense = PROBLEMS[problem]
    time_metric = summary.get("time") or "proc_time"
    seen: dict[str, ResultLine] = {}
    placed: list[tuple[ResultLine, dict[str, float] | None]] = []
    busy: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for ln in results.lines:
        job = jobs.get(ln.job)
        if job is None:
            rep.violations.append(Violation("job", ln.job, "a job of the instance", "unknown job",
                                            ln.job, ln.number))  # fmt: skip
            continue
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
    _missing(rep, instance, {j: ln.number for j, ln in seen.items()})

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
                    "status", "postponed", "placed", f"the job has {len(options)} alternatives",
                    job_id, ln.number))  # fmt: skip
            continue
        k = ln.alternative
        if k is None:
            continue
        if k > len(options) or options[k - 1].key() != ln.window.key():
            rep.violations.append(Violation(
                "job", f"alternative {k}", "its window as the alternatives file states it",
                f"the job has {len(options)} alternatives", job_id, ln.number,
                alternative=k))  # fmt: skip
    check = check_file(instance, alternatives)
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
