"""The batch combination problems (6)–(9) of docs/concepts.md (Toporkov et al. 2015 §2.3) as
integer tables.

A combination picks one alternative per job (jobs without alternatives are
postponed) to extremise Σ f_i subject to Σ g_i ≤ g*, where f and g are a
window's cost or time ("time" is proc_time unless the caller picks runtime).
Costs and durations are integers (docs/concepts.md), so every method works on the
integer tables of :class:`Table`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

TIMES: tuple[str, ...] = ("proc_time", "runtime")
"""Window metrics that may stand for "time" in problems (6)–(9)."""


@dataclass(frozen=True)
class Problem:
    """A combination problem: extremise Σ ``objective`` subject to Σ ``constraint`` ≤ limit.

    ``objective`` and ``constraint`` are ``"cost"`` or ``"time"``; the limit is
    t* for a time constraint and b* for a cost constraint (docs/concepts.md).
    """

    number: int
    name: str
    objective: Literal["cost", "time"]
    constraint: Literal["cost", "time"]
    sense: Literal["min", "max"]

    @property
    def limit_name(self) -> str:
        """Return ``t_star`` or ``b_star``: the name of this problem's limit."""
        return "t_star" if self.constraint == "time" else "b_star"


PROBLEMS: dict[int, Problem] = {
    p.number: p
    for p in (
        Problem(6, "owners' profit", "cost", "time", "max"),
        Problem(7, "batch time", "time", "cost", "min"),
        Problem(8, "batch cost", "cost", "time", "min"),
        Problem(9, "idleness", "time", "time", "max"),
    )
}
"""Toporkov et al. 2015 eqs. (6)–(9) by number (docs/concepts.md table)."""


def problem_of(problem: int | Problem) -> Problem:
    """Return the :class:`Problem` for a number 6–9 (ValueError naming the choices otherwise)."""
    if isinstance(problem, Problem):
        return problem
    if problem not in PROBLEMS:
        raise ValueError(f"unknown combination problem {problem!r} (choose from: 6, 7, 8, 9)")
    return PROBLEMS[problem]


def _time_of(time: str) -> str:
    if time not in TIMES:
        raise ValueError(f"time must be one of {', '.join(TIMES)}, not {time!r}")
    return time


@dataclass(frozen=True)
class Table:
    """Integer costs and times of every job's alternatives.

    Attributes
    ----------
    jobs
        Ids of the jobs that have alternatives, in batch order.
    postponed
        Ids of the jobs without alternatives, in batch order (docs/concepts.md).
    windows
        ``windows[i][j]``: alternative j of job i.
    cost, time
        ``cost[i][j]``, ``time[i][j]``: its cost and its time metric.
    """

    jobs: tuple[str, ...]
    postponed: tuple[str, ...]
    windows: tuple[tuple[Any, ...], ...]
    cost: tuple[tuple[int, ...], ...]
    time: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, alternatives: Mapping[str, Sequence[Any]], time: str = "proc_time") -> Table:
        """Tabulate ``alternatives`` (job id → windows, batch order) for ``time``."""
        metric = _time_of(time)
        jobs, postponed, windows = [], [], []
        for job, alts in alternatives.items():
            if alts:
                jobs.append(job)
                windows.append(tuple(alts))
            else:
                postponed.append(job)
        return cls(
            jobs=tuple(jobs),
            postponed=tuple(postponed),
            windows=tuple(windows),
            cost=tuple(tuple(int(w.cost) for w in ws) for ws in windows),
            time=tuple(tuple(int(getattr(w, metric)) for w in ws) for ws in windows),
        )

    def column(self, kind: str) -> tuple[tuple[int, ...], ...]:
        """Return the ``cost`` or ``time`` table."""
        return self.cost if kind == "cost" else self.time

    def default_limit(self, kind: str) -> int:
        """Return docs/concepts.md's default limit for a ``time`` (t*) or ``cost`` (b*) constraint.

        t* = Σ_i ceil(mean time of job i's alternatives) (Toporkov et al. 2015 eq. (5));
        b* = floor(Σ_i mean cost of job i's alternatives). Exact rational arithmetic.
        """
        means = [Fraction(sum(row), len(row)) for row in self.column(kind)]
        if kind == "time":
            return sum(math.ceil(m) for m in means)
        return math.floor(sum(means, Fraction(0)))


def limit_for(
    table: Table, problem: Problem, t_star: int | None, b_star: int | None
) -> tuple[int, int | None, int | None]:
    """Return ``(g*, t*, b*)``: the constraint's limit and both limits as used (None if unused)."""
    given = t_star if problem.constraint == "time" else b_star
    if given is not None and (isinstance(given, bool) or not isinstance(given, int)):
        raise ValueError(f"{problem.limit_name} must be an integer, not {given!r}")
    limit = table.default_limit(problem.constraint) if given is None else given
    if problem.constraint == "time":
        return limit, limit, b_star
    return limit, t_star, limit
