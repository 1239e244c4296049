"""Reduced-cost fixing from a Lagrangian bound (docs/exact-models.md): the starts a job may
still take in a solution better than the incumbent.

With multipliers (form, ρ, μ) of bound L = K + Σ_j m_j, ``m_j = min(0, v*_j − μ)`` and
``v*_j`` job j's least priced value, every solution x with P placed jobs satisfies
``value(x) ≥ K + Σ_j r_j(x)``, where ``r_j = v(w_j) − μ`` for j's window and 0 if j is
unplaced. A solution of value ≤ U − 1 (better than an integer incumbent U) therefore
gives each job ``r_j ≤ G + m_j`` with ``G = U − 1 − L``: j's window has priced value at
most ``μ + m_j + G``, and j must be placed when ``G + m_j < 0``. Between two consecutive
candidate starts of the pricing oracle the least priced value is linear in T (slope
a_T), so the allowed starts are a union of integer intervals, computed exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.joint.cg.column import Linear
from models.joint.cg.pricing import Prices, blocks, candidate_starts
from models.joint.space import JobSpace


def job_thresholds(
    values: Sequence[float | None], mu: float, slack: float
) -> list[tuple[float, bool] | None]:
    """Return per job (the priced value its window may have, whether it must be placed) in a
    solution within ``slack`` = G of the bound, from each job's least priced value v*_j
    (None: the job has no window, and gets None)."""
    out: list[tuple[float, bool] | None] = []
    for v in values:
        m = None if v is None else min(0.0, v - mu)
        out.append(None if m is None else (mu + m + slack, slack + m < 0))
    return out


def allowed_options(
    sp: JobSpace, form: Linear, prices: Prices, threshold: float, free_start: bool = True
) -> set[int]:
    """Return the option indices of :attr:`JobSpace.options` that some window of priced value
    ≤ ``threshold`` may use.

    A window with option o at start T is worth at least the n smallest node values at T
    with o's in place of the n-th (budget and level rule ignored: a lower bound, so an
    option is dropped only when no window with it can meet the threshold). Within a piece
    the value is linear in T, so the pieces' ends (the candidates) decide.
    """
    n, out = sp.n, set()
    for b in blocks(sp, form, prices, free_start):
        nth = np.partition(b.zn, n - 1, axis=1)[:, n - 1]
        with np.errstate(invalid="ignore"):
            least = b.low[:, None] + np.maximum(b.zn - nth[:, None], 0.0)
            keep = np.isfinite(b.zn) & (least <= threshold)
        out.update(int(k) for k in np.unique(b.g.idx[b.which[keep]]))
    return out


def start_values(
    sp: JobSpace, form: Linear, prices: Prices, threshold: float, free_start: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Return the candidate starts (sorted) and the least priced value of a window at each
    (``inf`` where none, or where it exceeds ``threshold``).

    Every level is evaluated at the union of the levels' candidates: between two
    consecutive ones each level's value, hence their minimum, is linear in T."""
    union = candidate_starts(sp, form, prices, free_start)
    best: dict[int, float] = {int(t): float("inf") for t in union}
    for b in blocks(sp, form, prices, free_start, union):
        for c in range(len(b.T)):
            t = int(b.T[c])
            v = float("inf")
            if b.low[c] <= threshold:
                if b.ok[c]:
                    v = float(b.low[c])
                else:
                    found = b.exact(c)
                    v = found[0] if found is not None and found[0] <= threshold else v
            best[t] = min(best.get(t, v), v)
    T = np.array(sorted(best), dtype=np.int64)
    return T, np.array([best[int(t)] for t in T])


def allowed_starts(
    sp: JobSpace, form: Linear, prices: Prices, threshold: float, free_start: bool = True
) -> list[tuple[int, int]]:
    """Return the integer intervals of starts T at which some window of the job has priced
    value ≤ ``threshold`` (AEP: single slot starts)."""
    T, v = start_values(sp, form, prices, threshold, free_start)
    out: list[tuple[int, int]] = []

    def add(lo: int, hi: int) -> None:
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))

    for i, t in enumerate(T):
        if v[i] <= threshold:
            add(int(t), int(t))
        if not free_start or i + 1 == len(T) or T[i + 1] == t + 1:
            continue
        nxt = int(T[i + 1])
        slope = form.T
        if slope >= 0 and v[i] <= threshold:  # values rise from the left end
            reach = nxt - 1 if slope == 0 else t + _steps(threshold - v[i], slope, nxt - 1 - t)
            if reach > t:
                add(int(t) + 1, int(reach))
        elif slope < 0 and v[i + 1] <= threshold:  # values rise towards the left from nxt
            back = max(int(t) + 1, nxt - _steps(threshold - v[i + 1], -slope, nxt - 1 - t))
            if back < nxt:
                add(back, nxt - 1)
    return out


def _steps(room: float, slope: float, most: int) -> int:
    """Return the unit steps, at most ``most``, over which a value rising by ``slope`` > 0 a
    step stays within ``room`` ≥ 0 (a tiny slope would make the quotient overflow)."""
    return most if room >= slope * most else min(most, int(room // slope))
