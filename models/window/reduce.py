"""Dominance reduction of the window search space before an exact model is built.

Candidate-start decomposition (see :mod:`models.window.space`): the optimum
is the best over the candidates ``(T, level)`` of each candidate's best
window. Two cheap vectorised quantities per candidate give a sound reduction:

- an optimistic bound (the criterion's best n alive slots, budget ignored);
- a feasible window: the n cheapest alive slots, or the optimistic n when
  they fit the budget. The best of these is the incumbent, value U.

Every candidate whose bound is not below U is dominated by the incumbent and
dropped; the incumbent's own candidate is kept. A model over the kept
candidates therefore has the same optimum as the full one, and it starts
from the incumbent as a hint.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.window.dp import optimistic_bounds
from models.window.space import WindowSpace


@dataclass(frozen=True)
class Reduced:
    """The kept candidates, their optimistic bounds and the incumbent window.

    ``t``, ``level``, ``alive`` and ``bound`` are the kept candidates
    (normalised bounds: smaller is better); ``start``, ``chosen`` and
    ``value`` describe the incumbent (its start, slot indices, normalised
    true value), None when there is no candidate at all.
    """

    t: np.ndarray
    level: np.ndarray
    alive: np.ndarray
    bound: np.ndarray
    start: int | None
    chosen: np.ndarray | None
    value: float | None
    total: int


def _selection_values(sp: WindowSpace, t: np.ndarray, level: int, pick: np.ndarray) -> np.ndarray:
    """Return the normalised criterion value of slot selection ``pick`` (rows × n) per row."""
    metric = sp.criterion.metric
    d = sp.durations(level)[pick]
    if metric == "start":
        return t.astype(float)
    if metric in ("runtime", "finish"):
        return d.max(axis=1) + (t if metric == "finish" else 0)
    if metric in ("near_distance", "far_distance"):
        tt = t[:, None]
        before, after = tt - sp.es[pick], sp.ee[pick] - tt - d
        z = -np.minimum(before, after) if metric == "near_distance" else np.maximum(before, after)
        return z.sum(axis=1).astype(float)
    return sp.values(0, level)[pick].sum(axis=1)


def reduce_space(sp: WindowSpace, *, free_start: bool = False) -> Reduced:
    """Return the candidates not dominated by the best cheap window (see the module docstring)."""
    t, lv, alive = sp.candidates(free_start)
    total = len(t)
    if total == 0:
        return Reduced(t, lv, alive, np.zeros(0), None, None, None, 0)
    bound = optimistic_bounds(sp, t, lv, alive)
    n, big = sp.n, np.iinfo(np.int64).max // (4 * sp.n)
    best: tuple[float, int, np.ndarray] | None = None

    def offer(rows: np.ndarray, level: int, pick: np.ndarray, valid: np.ndarray) -> None:
        nonlocal best
        val = np.where(valid, _selection_values(sp, t[rows], level, pick), np.inf)
        if sp.square and sp.criterion.metric == "far_distance":
            val = np.where((sp.r[pick] == level).any(axis=1), val, np.inf)
        k = int(np.argmin(val))
        if np.isfinite(val[k]) and (best is None or val[k] < best[0]):
            best = (float(val[k]), int(rows[k]), pick[k])

    levels = np.unique(lv).tolist()
    for level in levels:
        sp.check_deadline()
        rows = np.flatnonzero(lv == level)
        c = sp.costs(level)
        cc = np.where(alive[rows], c[None, :], big)
        offer(rows, level, np.argpartition(cc, n - 1, axis=1)[:, :n], np.ones(len(rows), bool))
        if sp.criterion.metric not in ("start", "cost"):
            z = np.where(alive[rows], _slot_values(sp, t[rows], level), np.inf)
            top = np.argpartition(z, n - 1, axis=1)[:, :n]
            fits = np.ones(len(rows), dtype=bool)
            if sp.budget is not None:
                fits = c[top].sum(axis=1) <= sp.budget
            offer(rows, level, top, fits)
    if best is not None and sp.budget is not None and sp.criterion.metric in _ADDITIVE:
        # only candidates that may still beat the incumbent need the sharper bound
        for level in levels:
            rows = np.flatnonzero((lv == level) & (bound < best[0] - 1e-9))
            if len(rows) == 0:
                continue
            z = np.where(alive[rows], _slot_values(sp, t[rows], level), np.inf)
            lag, picks = _lagrange(z, sp.costs(level), n, sp.budget)
            bound[rows] = np.maximum(bound[rows], lag)
            for pick, valid in picks:
                offer(rows, level, pick, valid)
    if best is None:  # square COORD without a selection of the exact level: keep everything
        return Reduced(t, lv, alive, bound, None, None, None, total)
    _, k, chosen = best
    start = int(t[k])
    window = sp.window(start, chosen.tolist())
    if sp.criterion.metric == "q":
        value = float(-sp.q[chosen].sum())  # scaled units, like the bounds
    else:
        value = sp.criterion.normalised(window.value(sp.criterion.name))
    if sp.criterion.metric in ("near_distance", "far_distance"):
        value = float(round(value * sp.n))  # a sum of integer distances
    # values are integers (q scaled when exact): a candidate is dropped only when it cannot
    # beat the incumbent by a whole unit; inexact q never leads to an optimality claim
    keep = bound < value - 0.5 if sp.criterion.metric != "q" or sp.q_exact else bound < value
    home = np.array([k])
    if sp.square:  # the window's true level is its longest own duration
        true_level = int(sp.r[chosen].max())
        home = np.flatnonzero((t == start) & (lv == true_level))
        if len(home) == 0:  # free start: T is no breakpoint at that level; add the candidate
            row = sp.eligible(true_level) & (sp.s <= start) & (start + true_level <= sp.e)
            t, lv = np.append(t, start), np.append(lv, true_level)
            alive, bound = np.vstack([alive, row]), np.append(bound, value)
            keep, home = np.append(keep, False), np.array([len(t) - 1])
    keep[home[0]] = True
    return Reduced(t[keep], lv[keep], alive[keep], bound[keep], start, chosen, value, total)


_ADDITIVE = ("proc_time", "q", "near_distance", "far_distance")
LAMBDAS = 12
"""Number of budget multipliers tried by :func:`_lagrange`."""


def _lagrange(
    z: np.ndarray, c: np.ndarray, n: int, budget: int
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Return Lagrangian bounds of each row's budgeted n-subset problem and the selections tried.

    For every multiplier λ ≥ 0, ``min-n(z + λc) − λS`` is a lower bound on the
    best Σ z with Σ c ≤ S (the budget relaxed into the objective); a
    selection that happens to fit the budget is a feasible window. λ runs
    over quantiles of the value/cost ratios of the alive slots.
    """
    finite = np.isfinite(z)
    spread = np.ptp(z[finite]) if finite.any() else 0.0
    ratios = spread / np.maximum(c, 1)
    grid = np.quantile(ratios, np.linspace(0.0, 1.0, LAMBDAS)) if spread > 0 else np.zeros(1)
    best = np.full(z.shape[0], -np.inf)
    rows = np.arange(z.shape[0])[:, None]
    picks: list[tuple[np.ndarray, np.ndarray]] = []
    for lam in grid:
        w = z + lam * c[None, :]
        pick = np.argpartition(w, n - 1, axis=1)[:, :n]
        low = w[rows, pick].sum(axis=1) - lam * budget
        # float noise of the weighted sums must not lift the bound above the true one
        noise = 1e-12 * (np.abs(w[rows, pick]).sum(axis=1) + lam * budget) + 1e-9
        best = np.maximum(best, low - noise)
        picks.append((pick, c[pick].sum(axis=1) <= budget))
    return best, picks


def _slot_values(sp: WindowSpace, t: np.ndarray, level: int) -> np.ndarray:
    """Return the (rows × m) normalised per-slot values whose n smallest make the bound."""
    metric, d = sp.criterion.metric, sp.durations(level)
    if metric in ("runtime", "finish", "proc_time"):
        return np.broadcast_to(d.astype(float), (len(t), sp.m))
    if metric in ("near_distance", "far_distance"):
        tt = t[:, None]
        before, after = tt - sp.es[None, :], sp.ee[None, :] - tt - d[None, :]
        z = -np.minimum(before, after) if metric == "near_distance" else np.maximum(before, after)
        return z.astype(float)
    return np.broadcast_to(sp.values(0, level), (len(t), sp.m))
