"""Redundant layers of the CP-SAT window model (:mod:`models.window.cpsat`).

Given the candidates kept by :mod:`models.window.reduce`: the candidate-start
decomposition, a per-candidate objective bound, the allowed (T, level) pairs
and the incumbent as a solution hint. None changes the optimum; each
tightens the relaxation or the search (benchmarks/bench_exact_window.py).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from ortools.sat.python import cp_model

from models.window.reduce import Reduced

if TYPE_CHECKING:
    from models.window.cpsat import WindowModel


def add_split(wm: WindowModel, red: Reduced) -> None:
    """Add the candidate-start decomposition as redundant constraints.

    One Boolean y_c per kept candidate and x_cj = x_j ∧ y_c per alive slot:
    cardinality, budget and the square level rule then hold per candidate,
    which gives the relaxation the per-candidate knapsack bounds.
    """
    m, sp, x = wm.model, wm.sp, wm.x
    wm.cand = list(zip(red.t.tolist(), red.level.tolist(), strict=True))
    wm.y = y = [m.NewBoolVar(f"y{c}") for c in range(len(wm.cand))]
    m.AddExactlyOne(y)
    m.Add(sum(tc * yc for (tc, _), yc in zip(wm.cand, y, strict=True)) == wm.T)
    if wm.D is not None:
        m.Add(sum(lv * yc for (_, lv), yc in zip(wm.cand, y, strict=True)) == wm.D)
    per_slot: dict[int, list[cp_model.IntVar]] = {}
    for c, ((_, level), yc) in enumerate(zip(wm.cand, y, strict=True)):
        sp.check_deadline()
        idx = [j for j in np.flatnonzero(red.alive[c]).tolist() if j in x]
        xs = {j: m.NewBoolVar(f"x{c}_{j}") for j in idx}
        for j, v in xs.items():
            m.AddImplication(v, yc)
            per_slot.setdefault(j, []).append(v)
            wm.split[c, j] = v
        m.Add(sum(xs.values()) == sp.n * yc)
        if sp.budget is not None:
            cost = sp.costs(level)
            m.Add(sum(int(cost[j]) * v for j, v in xs.items()) <= sp.budget * yc)
        if sp.square:
            m.AddBoolOr([v for j, v in xs.items() if sp.r[j] == level] + [yc.Not()])
    for j, v in x.items():
        m.Add(v == sum(per_slot.get(j, [])))


def split_sum(wm: WindowModel) -> cp_model.LinearExpr:
    """Return Σ z_cj x_cj of the additive criterion in CP-SAT units (maxima not negated)."""
    sign = -1 if wm.sp.criterion.sense == "max" else 1
    z = {c: wm.sp.values(tc, lv) for c, (tc, lv) in enumerate(wm.cand)}
    return sum(round(sign * z[c][j]) * v for (c, j), v in wm.split.items())


def add_bound_cut(wm: WindowModel, red: Reduced) -> None:
    """Add ``objective ≥ Σ_c bound_c · y_c``: each candidate's optimistic bound, redundantly.

    Written on CP-SAT's inner (minimised) objective, whose integer values
    allow rounding each bound up.
    """
    m = wm.model
    obj = m.Proto().objective
    if not obj.vars:
        return
    # only exact q (integers already) reach here: every unit is 1
    inner = sum(
        int(k) * m.GetIntVarFromProtoIndex(v) for v, k in zip(obj.vars, obj.coeffs, strict=True)
    )
    lows = [math.ceil(float(b) - obj.offset - 1e-6) for b in red.bound]
    m.Add(inner >= sum(lo * yc for lo, yc in zip(lows, wm.y, strict=True)))


def narrow(wm: WindowModel, red: Reduced) -> None:
    """Allow only the kept (T, level) pairs and hint the incumbent (:mod:`reduce`)."""
    m, sp = wm.model, wm.sp
    pairs = sorted(set(zip(red.t.tolist(), red.level.tolist(), strict=True)))
    if wm.D is not None and len(pairs) < len(set(red.t.tolist())) * len(wm.levels):
        m.AddAllowedAssignments([wm.T, wm.D], pairs)
    chosen = set(red.chosen.tolist())
    m.AddHint(wm.T, red.start)
    if wm.D is not None:
        m.AddHint(wm.D, int(sp.r[red.chosen].max()))
    for j, v in wm.x.items():
        m.AddHint(v, j in chosen)
