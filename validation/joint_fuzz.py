"""Random joint batches across magnitudes, with near-ties, and their brute-force verdicts
(docs/guarantees.md, "What makes a proof a proof").

:func:`fuzz_case` draws a tiny batch whose durations, prices, budgets and limits span the
representable ranges (task durations 1 to 10^12 quanta, prices 10^-3 to 10^3, so task costs
from 1 to 10^15) with near-ties: nodes whose durations or costs differ by a unit or two at
the top of the range, budgets and limits a unit either side of what the jobs need. Slots
are at most a few units longer than the tasks they hold whenever durations are large, so
:func:`validation.joint_brute.all_windows` stays small. :func:`verdict` compares a
:class:`models.Result` with the brute-force optimum and the independent checker: an
``optimal`` that is not the optimum, a bound past it, or windows that break a rule are
each reported. Neither imports the models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from instances import Instance, Job, Node, Slot, cost, duration
from planner import Window
from validation.check import check_alternatives
from validation.joint_brute import MAX_WINDOWS, all_windows, brute_joint, value

OBJECTIVES: tuple[str | int, ...] = (
    "proc_time", "runtime", "cost", "finish", "start", 6, 7, 8, 9,
    "q", "near_distance", "far_distance",
)
"""Every objective of :func:`models.solve_joint`: its metrics and problems (6)–(9)."""

PROBLEMS: dict[int, tuple[str, str, str]] = {
    6: ("cost", "time", "max"), 7: ("time", "cost", "min"),
    8: ("cost", "time", "min"), 9: ("time", "time", "max"),
}
"""Problem → (objective, constraint, sense) of Toporkov et al. 2015 (6)–(9), restated here
so that the verdict does not read the models."""

SENSES = {"q": "max", "near_distance": "max"}
"""Maximised metrics (the others are minimised)."""


@dataclass(frozen=True)
class FuzzCase:
    """One fuzzed batch: the instance, the objective (metric or problem), start rule, VO
    budget, the limits t* and b* of a problem, its time metric and the duration scale."""

    seed: int
    instance: Instance
    objective: str | int
    free_start: bool
    vo_budget: int | None
    t_star: int | None
    b_star: int | None
    time: str
    scale: int

    def solve_kwargs(self) -> dict[str, Any]:
        """Return the keyword arguments of :func:`models.solve_joint` for this case."""
        kw: dict[str, Any] = {"free_start": self.free_start, "vo_budget": self.vo_budget}
        if isinstance(self.objective, int):
            kw.update(problem=self.objective, t_star=self.t_star, b_star=self.b_star,
                      time=self.time)
        else:
            kw["objective"] = self.objective
        return kw


def _scale(rng: np.random.Generator) -> int:
    exp = int(rng.choice([0, 0, 1, 2, 3, 6, 9, 11, 12]))
    return int(rng.integers(2, 6)) if exp == 0 else 10**exp


def fuzz_case(
    seed: int, objective: str | int | None = None, *, scale: int | None = None,
    price: float | None = None,
) -> FuzzCase:
    """Return the seed's batch (2–3 jobs of 1–3 tasks on 3–6 nodes); ``objective`` None:
    drawn from :data:`OBJECTIVES`; ``scale`` (task durations) and ``price`` (node prices)
    None: drawn."""
    rng = np.random.default_rng(seed)
    D = _scale(rng) if scale is None else scale
    large = D > 40
    p0 = min(1.0, 1e9 / D)  # volumes <= 10^9, performances >= 10^-3
    P = float(rng.choice([1e-3, 0.1, 1.0, 7.3, 1e3])) if price is None else price
    nodes, slots = [], []
    offset = int(rng.choice([0, 0, 10**6, -(10**9)])) if D <= 10**6 else -(D // 2)
    for i in range(int(rng.integers(3, 7))):
        if large:  # durations within a few units of D: near-ties
            perf = p0 * (1.0 + int(rng.integers(0, 4)) / D)
        else:
            perf = p0 * float(rng.choice([1.0, 1.5, 2.0, 3.0]))
        k = int(rng.integers(0, 4))
        price = min(P + k / D, 1e3) if rng.random() < 0.7 else P * float(rng.uniform(0.5, 1.0))
        if price >= 1e3:
            price = 1e3 - k / D
        q = float(rng.choice([0.5, 7.25, 1e6, 1e12 + 0.5, 1e15])) * (1 + int(rng.integers(0, 3)))
        nodes.append(Node(id=f"n{i + 1}", performance=perf, price=price, q=min(q, 1e15)))
        at = offset + int(rng.integers(0, 4))
        for _ in range(int(rng.integers(1, 3)) if D < 10**12 else 1):
            slack = int(rng.integers(0, 4)) if large else int(rng.integers(0, D + 1))
            length = D + 3 + slack if large else D + slack
            slots.append(Slot(f"n{i + 1}", at, at + length))
            at += length + int(rng.integers(0, 3 if large else D))
    jobs = []
    for j in range(int(rng.integers(2, 4))):
        n = int(rng.integers(1, min(3, len(nodes)) + 1))
        if large:
            volume = D * p0 * (1.0 - int(rng.integers(0, 4)) / D)
        else:
            volume = D * p0 * float(rng.choice([0.4, 0.7, 1.0]))
        own = sorted(cost(nd.price, duration(volume, nd.performance)) for nd in nodes)
        need = sum(own[:n])
        budget = None
        if rng.random() < 0.4 and need + 2 <= 10**15:
            budget = max(0, need + int(rng.integers(-1, 3)))
        jobs.append(Job(id=f"j{j + 1}", nodes=n, volume=volume, budget=budget))
    inst = Instance(nodes=tuple(nodes), slots=tuple(slots), jobs=tuple(jobs),
                    name=f"fuzz{seed}", geometry=str(rng.choice(["rough", "square"])))
    free = bool(rng.random() < 0.7)
    if objective is None:
        objective = OBJECTIVES[int(rng.integers(0, len(OBJECTIVES)))]
    time = "runtime" if rng.random() < 0.25 else "proc_time"
    lists = [all_windows(inst, job, free_start=free) for job in inst.jobs]
    vo = None
    if rng.random() < 0.3:
        cheapest = sorted(min((w.cost for w in ws), default=0) for ws in lists)
        vo = max(0, sum(cheapest[: max(1, len(cheapest) - 1)]) + int(rng.integers(-1, 3)))
    t_star = b_star = None
    if isinstance(objective, int):
        def least(metric: str) -> list[int]:
            return sorted(min((value(w, metric) for w in ws), default=0) for ws in lists)
        times, costs = least(time), least("cost")
        # near what all the jobs (or all but one) need, a unit either side
        keep = len(times) - int(rng.integers(0, 2))
        t_star = max(0, sum(times[:keep]) + int(rng.integers(-1, 3)))
        b_star = max(0, sum(costs[:keep]) + int(rng.integers(-1, 3)))
    return FuzzCase(seed, inst, objective, free, vo, t_star, b_star, time, D)


def _decimal(x: float) -> Fraction:
    return Fraction(Decimal(repr(x)))


def exact_value(window: Window, metric: str) -> Fraction:
    """Return the window's ``metric`` exactly: integers, q as the decimals written, the
    DEP/COORD distances as the mean of integer distances."""
    if metric == "q":
        return sum((_decimal(p.q) for p in window.placements), Fraction(0))
    if metric in ("near_distance", "far_distance"):
        near = metric == "near_distance"
        parts = [min(a, b) if near else max(a, b) for a, b in
                 ((p.start - p.slot_start, p.slot_end - p.end) for p in window.placements)]
        return Fraction(sum(parts), len(parts))
    return Fraction(value(window, metric))


def parts(case: FuzzCase) -> tuple[str, str, list[tuple[str, int]]]:
    """Return (objective metric, sense, side rows (metric, limit)) of the case."""
    sides = [("cost", case.vo_budget)] if case.vo_budget is not None else []
    if isinstance(case.objective, int):
        f, g, sense = PROBLEMS[case.objective]
        metric = case.time if f == "time" else "cost"
        gm = case.time if g == "time" else "cost"
        sides.append((gm, case.t_star if g == "time" else case.b_star))
        return metric, sense, sides
    return case.objective, SENSES.get(case.objective, "min"), sides


def optimum(case: FuzzCase) -> tuple[int, Fraction] | None:
    """Return the brute-force lexicographic optimum (placed, exact value); None when a job has
    more windows than :data:`validation.joint_brute.MAX_WINDOWS`."""
    metric, sense, sides = parts(case)
    lists = [all_windows(case.instance, job, free_start=case.free_start)
             for job in case.instance.jobs]
    if any(len(ws) > MAX_WINDOWS for ws in lists):
        return None
    rows: list[tuple[Callable[[Window], int], int]] = [
        (lambda w, m=m: value(w, m), limit) for m, limit in sides]
    if any(limit < 0 for _, limit in rows):
        return None
    placed, best = brute_joint(lists, lambda w: exact_value(w, metric), sense, rows)
    return placed, Fraction(best)


def violations(case: FuzzCase, windows: Sequence[Window]) -> list[str]:
    """Return every rule the windows break: the joint checker, and the side rows (VO budget,
    t*, b*) summed in integers."""
    out = check_alternatives(case.instance, windows, sequential=False)
    if len({w.job for w in windows}) != len(windows):
        out.append("count: a job placed twice")
    _, _, sides = parts(case)
    for metric, limit in sides:
        total = sum(value(w, metric) for w in windows)
        if total > limit:
            out.append(f"side: Σ {metric} = {total} > {limit}")
    return out


def verdict(case: FuzzCase, result: Any, best: tuple[int, Fraction] | None) -> list[str]:
    """Return what is wrong with ``result`` (a :class:`models.Result`) against the checker and
    the brute-force optimum ``best`` (None: unknown): infeasible windows, an ``optimal`` that
    is not the optimum, or a bound past the optimum."""
    out = [f"infeasible: {v}" for v in violations(case, result.windows)]
    if best is None or (not result.windows and result.status not in ("optimal", "infeasible")):
        return out
    metric, sense, _ = parts(case)
    placed = len(result.windows)
    got = sum((exact_value(w, metric) for w in result.windows), Fraction(0))
    sign = 1 if sense == "min" else -1
    if result.status == "infeasible":
        if best[0] > 0 or best[1] != 0:
            out.append(f"false infeasible: the optimum places {best[0]}")
        return out
    if result.status == "optimal" and (placed != best[0] or got != best[1]):
        out.append(f"false optimal: {placed} placed, {got} against the optimum "
                   f"{best[0]} placed, {best[1]}")
    if placed > best[0]:
        out.append(f"more placed than the optimum: {placed} > {best[0]}")
    elif placed == best[0] and sign * got < sign * best[1]:
        out.append(f"better than the optimum: {got} against {best[1]}")
    bound = result.bound
    if bound is not None and placed == best[0]:
        b = Fraction(bound)
        if metric in ("q",) or metric.endswith("distance"):  # reported as floats
            b = Fraction(bound) - sign * Fraction(1, 10**6) * max(1, abs(b))
        if sign * b > sign * best[1]:
            out.append(f"bound past the optimum: {bound} against {best[1]}")
    return out
