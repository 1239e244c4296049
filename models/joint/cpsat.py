"""Joint co-allocation of a small batch as one CP-SAT model (docs/exact-models.md).

Per job j: a Boolean ``placed_j``, a start ``T_j`` and one Boolean y_o per
placement option o (:mod:`models.joint.space`), each with an optional
fixed-size interval ``[T_j, T_j + d_o)`` present iff y_o. Constraints:
``Σ_o y_o = n_j · placed_j``; at most one option per node and job;
y_o ⇒ the task lies inside o's slot; the job's budget ``Σ_o c_o y_o ≤ S_j``;
square geometry picks one level per placed job with at least one task of
exactly that duration; **no overlap** of the intervals on each node over
all jobs; the optional VO budget and a combination constraint
``Σ_j g_j ≤ g*`` (docs/concepts.md) bound sums over the placed jobs.

T_j ranges over the job's earliest to latest possible start alone
(:attr:`JobSpace.start_range`); a job with no window at all is fixed
unplaced. Two redundant linear cuts (start ≥ earliest start, runtime ≥ the
n-th smallest node duration, both times ``placed_j``) and CP-SAT's
linearization level 2 tighten the relaxation; measured in
``benchmarks/bench_joint.py``.

The lexicographic objective is solved by :mod:`models.joint.lexicographic`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from models.joint.space import JobSpace
from models.window.space import exact_q


def _q_scale(values: Sequence[float]) -> int:
    """Return the smallest power of ten (≤ 10^6) that makes every q an integer."""
    arr = np.asarray(values, dtype=float)
    for k in range(7):
        scaled = arr * 10**k
        # integral up to float noise, relative: an absolute tolerance would round tiny q to 0
        if np.all(np.abs(scaled - np.round(scaled)) <= 1e-12 * np.abs(scaled)):
            return 10**k
    return 10**6


class JointModel:
    """The CP-SAT model of docs/exact-models.md over the jobs' spaces; see the module docstring.

    Parameters
    ----------
    spaces
        One :class:`JobSpace` per job of the batch, in batch order.
    free_start
        Let T_j be any integer (default in :func:`models.solve_joint`); else T_j
        is restricted to the starts of job j's suitable slots (AEP space).
    vo_budget
        Optional cap on the total cost of all placed windows.
    """

    def __init__(
        self, spaces: Sequence[JobSpace], *, free_start: bool = True, vo_budget: int | None = None
    ) -> None:
        self.spaces = list(spaces)
        self.model = m = cp_model.CpModel()
        self.placed: list[cp_model.IntVar] = []
        self.T: list[cp_model.IntVar] = []
        self.span: list[tuple[int, int]] = []
        self.y: list[list[cp_model.IntVar]] = []
        self.level: list[dict[int, cp_model.IntVar]] = []
        self._runtime: dict[int, Any] = {}
        self.rounding: dict[int, float] = {}  # job → largest error of its scaled q sum (metric)
        per_node: dict[str, list[cp_model.IntervalVar]] = defaultdict(list)
        for j, sp in enumerate(self.spaces):
            placed = m.NewBoolVar(f"placed{j}")
            span = sp.start_range
            lo, hi = span if span is not None else (0, 0)
            self.span.append((lo, hi))
            if span is None:
                m.Add(placed == 0)
            if free_start:
                T = m.NewIntVar(lo, hi, f"T{j}")
            else:
                starts = [t for t in sp.slot_starts if lo <= t <= hi] or [lo]
                T = m.NewIntVarFromDomain(cp_model.Domain.FromValues(starts), f"T{j}")
            y = [m.NewBoolVar(f"y{j}_{k}") for k in range(len(sp.options))]
            self.placed.append(placed)
            self.T.append(T)
            self.y.append(y)
            m.Add(sum(y) == sp.n * placed)
            by_node: dict[str, list[cp_model.IntVar]] = defaultdict(list)
            for o, v in zip(sp.options, y, strict=True):
                by_node[o.node].append(v)
                m.Add(o.slot.start <= T).OnlyEnforceIf(v)
                m.Add(T + o.d <= o.slot.end).OnlyEnforceIf(v)
                per_node[o.node].append(m.NewOptionalFixedSizeIntervalVar(T, o.d, v, f"i{j}"))
            for group in by_node.values():
                if len(group) > 1:
                    m.AddAtMostOne(group)
            if sp.budget is not None:
                m.Add(self.cost(j) <= sp.budget)
            self.level.append(self._levels(j) if sp.square else {})
        for intervals in per_node.values():
            if len(intervals) > 1:
                m.AddNoOverlap(intervals)
        if vo_budget is not None:
            m.Add(sum(self.cost(j) for j in range(len(self.spaces))) <= vo_budget)

    def _levels(self, j: int) -> dict[int, cp_model.IntVar]:
        m, sp, y = self.model, self.spaces[j], self.y[j]
        lv = {d: m.NewBoolVar(f"l{j}_{d}") for d in sp.levels}
        m.Add(sum(lv.values()) == self.placed[j])
        for d, b in lv.items():
            exact = [v for o, v in zip(sp.options, y, strict=True) if o.level == d and o.exact]
            if exact:
                m.AddBoolOr(exact).OnlyEnforceIf(b)
            else:
                m.Add(b == 0)
        for o, v in zip(sp.options, y, strict=True):
            m.AddImplication(v, lv[o.level])
        return lv

    def cost(self, j: int) -> cp_model.LinearExprT:
        """Return job j's window cost Σ_o c_o y_o (0 when unplaced)."""
        return sum(o.cost * v for o, v in zip(self.spaces[j].options, self.y[j], strict=True))

    def proc_time(self, j: int) -> cp_model.LinearExprT:
        """Return job j's proc_time Σ_o d_o y_o (0 when unplaced)."""
        return sum(o.d * v for o, v in zip(self.spaces[j].options, self.y[j], strict=True))

    def runtime(self, j: int) -> cp_model.LinearExprT:
        """Return job j's runtime max_o d_o y_o (0 when unplaced); built once per job."""
        if j not in self._runtime:
            sp, m = self.spaces[j], self.model
            if sp.square:
                self._runtime[j] = sum(d * b for d, b in self.level[j].items())
            else:
                top = max((o.d for o in sp.options), default=0)
                R = m.NewIntVar(0, top, f"R{j}")
                terms = [o.d * v for o, v in zip(sp.options, self.y[j], strict=True)]
                m.AddMaxEquality(R, [0, *terms])
                m.Add(sp.min_runtime * self.placed[j] <= R)  # redundant: tightens the LP
                self._runtime[j] = R
        return self._runtime[j]

    def start(self, j: int) -> cp_model.IntVar:
        """Return a variable equal to T_j when job j is placed and to 0 otherwise."""
        m, T, placed = self.model, self.T[j], self.placed[j]
        lo, hi = self.span[j]
        S = m.NewIntVar(min(0, lo), max(0, hi), f"S{j}")
        m.Add(S == T).OnlyEnforceIf(placed)
        m.Add(S == 0).OnlyEnforceIf(placed.Not())
        m.Add(lo * placed <= S)  # redundant: tightens the LP
        return S

    def metric(self, j: int, name: str) -> tuple[cp_model.LinearExprT, int]:
        """Return ``(expression, scale)``: job j's docs/concepts.md metric times ``scale`` (0
        unplaced).

        q is scaled to integers by a power of ten; the DEP/COORD distances are
        sums over tasks, scaled by n_j (the mean times n_j). Distances are
        bounded from one side only, so they are exact for their own sense
        (near maximised, far minimised).
        """
        if name == "cost":
            return self.cost(j), 1
        if name == "proc_time":
            return self.proc_time(j), 1
        if name == "runtime":
            return self.runtime(j), 1
        if name == "start":
            return self.start(j), 1
        if name == "finish":
            finish = self.start(j) + self.runtime(j)
            earliest = self.spaces[j].min_finish
            if earliest is not None:
                self.model.Add(earliest * self.placed[j] <= finish)  # redundant: tightens the LP
            return finish, 1
        sp, y = self.spaces[j], self.y[j]
        if name == "q":
            qs = [o.q for o in sp.options]
            exact = exact_q(qs)
            # jobs' scales are combined up to 10^6: the sums must fit at that scale too
            if (
                exact is not None
                and 0 <= exact[1] <= 6
                and sum(map(abs, exact[0])) * 10 ** (6 - exact[1]) <= 2**50
            ):  # the decimals as written, exactly
                scale, ints = 10 ** exact[1], exact[0]
                self.rounding[j] = 0.0
            else:  # rounded: the model's optimum proves nothing (solve demotes it)
                scale = _q_scale(qs)
                if max(abs(q) for q in qs) * scale > 2.0**50:
                    scale = 1  # keep the coefficients inside CP-SAT's 64-bit range
                scaled = [q * scale for q in qs]
                ints = [round(v) for v in scaled]
                errs = [abs(v - i) for v, i in zip(scaled, ints, strict=True)]
                # each rounding error, plus the float error of q * scale itself
                top = max(abs(v) for v in scaled)
                self.rounding[j] = sp.n * (max(errs) + 1.0 + top * 2.0**-50)
            return sum(i * v for i, v in zip(ints, y, strict=True)), scale
        m, T, near = self.model, self.T[j], name == "near_distance"
        dist = []
        for k, (o, v) in enumerate(zip(sp.options, y, strict=True)):
            u = m.NewIntVar(0, o.host.end - o.host.start - o.d, f"u{j}_{k}")
            m.Add(u == 0).OnlyEnforceIf(v.Not())
            for edge in (T - o.host.start, o.host.end - o.d - T):  # unclipped (docs/concepts.md)
                m.Add(u <= edge if near else u >= edge).OnlyEnforceIf(v)
            dist.append(u)
        return sum(dist), sp.n

    def hint(self, hints: dict[int, tuple[int, list[int]]]) -> None:
        """Hint job j → ``(T, chosen option indices)``; jobs without a hint are hinted unplaced."""
        for j, sp in enumerate(self.spaces):
            T, chosen = hints.get(j, (None, []))
            self.model.AddHint(self.placed[j], T is not None)
            if T is not None:
                self.model.AddHint(self.T[j], T)
            for k, v in enumerate(self.y[j]):
                self.model.AddHint(v, k in chosen)
            for d, b in self.level[j].items():
                self.model.AddHint(b, T is not None and sp.options[chosen[0]].level == d)

    def solution(self, solver: cp_model.CpSolver) -> dict[int, tuple[int, list[int]]]:
        """Return the placed jobs' ``(T, chosen option indices)`` in ``solver``'s solution."""
        out = {}
        for j, y in enumerate(self.y):
            if solver.BooleanValue(self.placed[j]):
                out[j] = (solver.Value(self.T[j]), [k for k, v in enumerate(y) if solver.Value(v)])
        return out
