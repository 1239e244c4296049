"""A result file's windows against the proven optimum of their criterion (``planner check
--exact``).

Each job with a window is solved exactly over the AEP space (docs/exact-models.md).
A feasible window can never be better than a proven optimum over that space unless it
starts elsewhere (a free start, docs/concepts.md) or a solver is wrong: either way it is
reported. Integer criteria are compared exactly; q and the distances within 1e-9.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from instances import CRITERIA, Instance, Job
from validation.results import Report, ResultFile, better
from validation.results.window import job_budget


@dataclass(frozen=True)
class Optimum:
    """One job's proven optimum beside the value of the file's window."""

    job: str
    criterion: str
    status: str
    optimum: float | None
    yours: float | None
    flagged: bool
    text: str

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form."""
        return {"job": self.job, "criterion": self.criterion, "status": self.status,
                "optimum": self.optimum, "yours": self.yours, "flagged": self.flagged,
                "text": self.text}  # fmt: skip


def _num(v: float | None) -> str:
    if v is None:
        return "none"
    return str(int(v)) if float(v).is_integer() else f"{v:.6g}"


def optima(
    instance: Instance,
    results: ResultFile,
    report: Report,
    criterion_of: Callable[[Job, Any], str],
    *,
    solver: str = "cpsat",
    time_limit: float | None = 10.0,
    progress: Callable[[], None] | None = None,
) -> list[Optimum]:
    """Solve each job of ``results`` exactly; return one :class:`Optimum` per job.

    ``report`` is the checker's report on ``results`` (its recomputed metrics);
    ``criterion_of(job, line)`` names the criterion to optimise.
    """
    from models import solve_window

    jobs = {j.id: j for j in instance.jobs}
    bad = {v.job for v in report.violations}
    out = []
    for ln in results.lines:
        job = jobs.get(ln.job)
        if job is None or (ln.alternative or 1) > 1:
            continue
        crit = criterion_of(job, ln)
        res = solve_window(instance, job, crit, solver, time_limit=time_limit)
        if progress is not None:
            progress()
        metrics = report.metrics.get(ln.number)
        yours = None if metrics is None else metrics[CRITERIA[crit].metric]
        budget = job_budget(job)
        within = metrics is not None and (budget is None or metrics["cost"] <= budget)
        flagged = False
        if ln.window is None or job.id in bad:
            text = f"{crit}: proven {res.status}" + (
                f", optimum {_num(res.objective)}" if res.status == "optimal" else "")
        elif res.status == "infeasible" and within:
            flagged = True
            text = (f"{crit}: yours {_num(yours)} is feasible, yet the exact solve proves no "
                    "window exists over the AEP space")  # fmt: skip
        elif res.status == "optimal" and yours is not None:
            flagged = within and better(crit, yours, float(res.objective))
            text = f"{crit}: yours {_num(yours)}, proven optimum {_num(res.objective)}"
            if flagged:
                starts = {s.start for s in instance.suitable_slots(job)}
                where = ("its start is not a suitable slot's start (a free start)"
                         if ln.window.start not in starts else "please report it")  # fmt: skip
                text += f": better than the proven optimum ({where})"
            elif not within:
                text += " (yours exceeds S: not comparable)"
        else:
            text = f"{crit}: yours {_num(yours)}; exact solve {res.status}"
        out.append(Optimum(job.id, crit, res.status,
                           None if res.objective is None else float(res.objective), yours,
                           flagged, text))  # fmt: skip
    return out
