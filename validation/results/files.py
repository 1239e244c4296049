"""Whole result files checked (docs/verify.md): single-job lines here, alternatives in
:mod:`validation.results.alternatives`, combinations in :mod:`validation.results.combination`.

Every window goes through :func:`validation.results.window.check_window`; the
file checks add what concerns several lines: one line per job, an exact line's
objective and bound.
"""

from __future__ import annotations

import math

from instances import CRITERIA, Instance, Job
from validation.results.alternatives import check_alternatives_file
from validation.results.combination import check_combination_file
from validation.results.lines import ResultFile, ResultLine
from validation.results.report import Report, jobs_of, known_lines, missing
from validation.results.window import Violation, better, check_window, criterion_value

_REL = 1e-9


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
        return check_alternatives_file(instance, results, constraint)
    if results.kind == "combine":
        return check_combination_file(instance, results, constraint, alternatives, limits or {})
    return _check_solve(instance, results, constraint)


def _check_solve(instance: Instance, results: ResultFile, constraint: str) -> Report:
    rep = Report(jobs=len(instance.jobs))
    jobs = jobs_of(instance)
    seen: dict[str, int] = {}
    for ln, job in known_lines(rep, results.lines, jobs):
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
    missing(rep, instance, seen)
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


