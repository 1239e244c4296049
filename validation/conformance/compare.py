"""Job-by-job comparison of a program's result lines with planner's, with explanations.

A job's verdict is ``identical`` (same start, same placements), ``tie`` (the
same value of the algorithm's criterion on other nodes), ``differs``,
``infeasible`` (the independent checker found a broken rule), ``missing`` (no
line); the runner adds ``crashed`` and ``timeout``. A difference is explained
in the algorithm's own terms, e.g. "at T = 40 the reference's window n1,n4
costs 38 <= S = 40; yours starts at 55" for a first-fit search
(docs/verify.md).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from instances import CRITERIA, Instance, Job
from planner import Algorithm
from validation.conformance.reference import CAPPED
from validation.results import Report, ResultFile, StatedWindow, Violation, better, check_file
from validation.results.window import job_budget, price_cap

VERDICTS: tuple[str, ...] = (
    "identical", "tie", "differs", "infeasible", "missing", "crashed", "timeout",
)  # fmt: skip
"""Every verdict, in the order the summary lists them."""

AGREE: frozenset[str] = frozenset({"identical", "tie"})

FIRST_FIT: frozenset[str] = frozenset({"amp", "alp"})

WORDS: dict[str, str] = {
    "start": "start", "finish": "finish", "runtime": "runtime", "cost": "cost",
    "proc_time": "processor time", "q": "q", "near_distance": "near distance",
    "far_distance": "far distance",
}  # fmt: skip


@dataclass(frozen=True)
class Outcome:
    """One job's verdict; ``kind`` refines it (a rule, ``worse``, ``better``, ``none``,
    ``extra``) so that distinct disagreements are told apart."""

    job: str
    verdict: str
    explanation: str = ""
    kind: str = ""
    alternative: int | None = None

    @property
    def signature(self) -> tuple[str, str]:
        """Return (verdict, kind): the same signature is the same disagreement."""
        return self.verdict, self.kind

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"job": self.job, "verdict": self.verdict, "kind": self.kind,
                "alternative": self.alternative, "explanation": self.explanation}  # fmt: skip


def _num(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def _nodes(w: StatedWindow) -> str:
    return ",".join(p.node for p in w.placements)


class _Explainer:
    """Explanations for one job under one algorithm."""

    def __init__(self, instance: Instance, job: Job, algorithm: Algorithm) -> None:
        self.instance, self.job, self.algo = instance, job, algorithm
        self.criterion = algorithm.criterion or job.criterion
        self.metric = CRITERIA[self.criterion].metric
        self.word = WORDS[self.metric]
        self.capped = algorithm.name == "alp"

    def fits(self, m: dict[str, float]) -> str:
        if self.capped:
            cap = price_cap(self.job)
            return "takes slots priced within " + (cap[1] if cap else "no cap")
        s = job_budget(self.job)
        return f"costs {_num(m['cost'])}" + (f" <= S = {s}" if s is not None else "")

    def value(self, m: dict[str, float]) -> str:
        """Return "has q 3 and costs 2 <= S = 9" (the criterion's value and the constraint)."""
        if self.metric == "cost" and not self.capped:
            return self.fits(m)
        return f"has {self.word} {_num(m[self.metric])} and {self.fits(m)}"

    def off_grid(self, t: int) -> str:
        starts = {s.start for s in self.instance.suitable_slots(self.job)}
        if t in starts:
            return ""
        return f"; {t} is not the start of a suitable slot (the scan tries slot starts only)"

    def one_sided(self, ref: StatedWindow | None, rm: Any, yours: StatedWindow | None,
                  ym: Any) -> str:  # fmt: skip
        if ref is not None:
            what = f"the reference's window {_nodes(ref)}"
            if self.algo.name in FIRST_FIT:
                return f"at T = {ref.start} {what} {self.fits(rm)}; yours reports none"
            return f"{what} at T = {ref.start} {self.value(rm)}; yours reports none"
        assert yours is not None
        return (f"yours finds {_nodes(yours)} at T = {yours.start} ({self.value(ym)}); "
                "the reference finds no window" + self.off_grid(yours.start))  # fmt: skip

    def both(self, ref: StatedWindow, rm: dict[str, float], yours: StatedWindow,
             ym: dict[str, float], tie: bool) -> str:  # fmt: skip
        rv, yv = rm[self.metric], ym[self.metric]
        if self.algo.name in FIRST_FIT:
            rule = ("the first n alive slots priced within the cap" if self.capped
                    else "the n cheapest alive slots")  # fmt: skip
            if tie:
                return (f"at T = {ref.start} the reference takes {rule}: {_nodes(ref)} "
                        f"(cost {_num(rm['cost'])}); yours {_nodes(yours)} "
                        f"(cost {_num(ym['cost'])})")  # fmt: skip
            if yours.start > ref.start:
                return (f"at T = {ref.start} the reference's window {_nodes(ref)} "
                        f"{self.fits(rm)}; yours starts at {yours.start}")  # fmt: skip
            return (f"yours starts at T = {yours.start} on {_nodes(yours)} ({self.fits(ym)}), "
                    f"before the reference's first fitting step T = {ref.start}"
                    + self.off_grid(yours.start))  # fmt: skip
        head = (f"the reference's window {_nodes(ref)} at T = {ref.start}"
                if not tie else f"the reference's {_nodes(ref)} at T = {ref.start}")  # fmt: skip
        if tie:
            return (f"tie on {self.word} {_num(rv)}: {head}, yours {_nodes(yours)} at "
                    f"T = {yours.start}; the reference keeps the earliest start, then the "
                    "window met first")  # fmt: skip
        text = (f"{self.criterion}: {head} {self.value(rm)}; yours, {_nodes(yours)} at "
                f"T = {yours.start}, has {self.word} {_num(yv)}")  # fmt: skip
        if better(self.criterion, yv, rv):
            text += " — better than the reference" + (
                "'s optimum over the AEP space" if self.algo.exact else "")
            text += self.off_grid(yours.start)
        return text


def _violations_by_job(report: Report) -> dict[str | None, list[Violation]]:
    out: dict[str | None, list[Violation]] = defaultdict(list)
    for v in report.violations:
        out[v.job].append(v)
    return out


def _found(results: ResultFile) -> dict[str, list[tuple[StatedWindow, int]]]:
    out: dict[str, list[tuple[StatedWindow, int]]] = defaultdict(list)
    for ln in results.lines:
        if ln.window is not None:
            out[ln.job].append((ln.window, ln.number))
    return out


def judge(
    instance: Instance,
    yours: ResultFile,
    expected: ResultFile,
    algorithm: Algorithm,
) -> tuple[list[Outcome], Report]:
    """Return each job's :class:`Outcome` (instance order) and the checker's report on
    ``yours``; ``expected`` holds planner's lines for the same instance and mode."""
    constraint = "price_cap" if algorithm.name in CAPPED else "budget"
    mine = check_file(instance, yours, constraint=constraint)
    ref = check_file(instance, expected, constraint=constraint)
    if ref.violations:  # planner's own answer broke a rule: never compare against it
        raise RuntimeError(f"planner's reference breaks a rule: {ref.violations[0].text()}")
    bad = _violations_by_job(mine)
    got, want = _found(yours), _found(expected)
    out = []
    for job in instance.jobs:
        problems = bad.get(job.id, [])
        if any(v.rule == "missing" for v in problems):
            out.append(Outcome(job.id, "missing", f"no line for job '{job.id}'"))
            continue
        if problems:
            first = problems[0]
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            out.append(Outcome(job.id, "infeasible", first.text() + more, first.rule,
                               first.alternative))  # fmt: skip
            continue
        out.append(_compare(instance, job, algorithm, got.get(job.id, []), want.get(job.id, []),
                            mine, ref))  # fmt: skip
    return out, mine


def _compare(
    instance: Instance,
    job: Job,
    algorithm: Algorithm,
    got: list[tuple[StatedWindow, int]],
    want: list[tuple[StatedWindow, int]],
    mine: Report,
    ref: Report,
) -> Outcome:
    ex = _Explainer(instance, job, algorithm)
    metric = ex.metric
    many = max(len(got), len(want)) > 1

    def where(k: int) -> tuple[int | None, str]:
        return (k + 1, f"alternative {k + 1}: ") if many or k else (None, "")

    first_tie = None
    for k in range(max(len(got), len(want))):
        y, r = (got[k] if k < len(got) else None), (want[k] if k < len(want) else None)
        alt, tag = where(k)
        if y is None or r is None:
            ym = mine.metrics.get(y[1]) if y else None
            rm = ref.metrics.get(r[1]) if r else None
            text = ex.one_sided(r[0] if r else None, rm, y[0] if y else None, ym)
            return Outcome(job.id, "differs", tag + text, "none" if y is None else "extra", alt)
        if y[0].key() == r[0].key():
            continue
        ym, rm = mine.metrics[y[1]], ref.metrics[r[1]]
        if better(ex.criterion, ym[metric], rm[metric]):
            kind = "better"
        elif better(ex.criterion, rm[metric], ym[metric]):
            kind = "worse"
        else:
            first_tie = first_tie or (k, r, y, rm, ym)
            continue
        return Outcome(job.id, "differs", tag + ex.both(r[0], rm, y[0], ym, False), kind, alt)
    if first_tie is None:
        return Outcome(job.id, "identical")
    k, r, y, rm, ym = first_tie
    alt, tag = where(k)
    return Outcome(job.id, "tie", tag + ex.both(r[0], rm, y[0], ym, True), "", alt)


def tally(outcomes: list[Outcome]) -> dict[str, int]:
    """Return verdict → number of jobs (every verdict present)."""
    counts = dict.fromkeys(VERDICTS, 0)
    for o in outcomes:
        counts[o.verdict] += 1
    return counts
