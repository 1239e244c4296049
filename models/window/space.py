"""The search space of single-job window selection (docs/concepts.md), shared by the exact methods.

A window is a start T, a duration level (square geometry) and n suitable slots
that contain their tasks. This module turns an instance and a job into numpy
arrays over the job's suitable slots and enumerates the *candidates*
``(T, level)`` that the exact methods range over:

- AEP space (docs/concepts.md, default): T is the start of some suitable slot;
- free start: every integer T. For a fixed slot subset every metric is
  piecewise linear in T with breakpoints at ``s``, ``e - d`` (the window's
  range, clipped to the release and deadline) and ``(s' + e' - d) / 2`` with
  ``s', e'`` the slot's own edges (DEP/COORD distances, Toporkov & Yemelyanov 2018 §3.4,
  measured unclipped), so the integer
  optimum lies at one of those points, rounded down or up; the candidate
  list holds exactly these T (the CP-SAT model ranges over all integers and
  cross-checks the argument).

Square geometry (Toporkov & Yemelyanov 2018 §3.2): the duration of every task is
``duration(V, min_i p_i) = max_i duration(V, p_i)``, so a *level* is one of
the distinct rough durations D; at level D only slots whose own duration is
at most D take part, every task lasts D, and at least one chosen slot has
duration exactly D (otherwise the window belongs to a lower level).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from instances import CRITERIA, Criterion, Instance, Job, Slot, cost, duration
from planner import Window, make_window

CHUNK = 2**21
"""Alive-mask cells computed between two checks of the building deadline."""


class BuildTimeLimit(Exception):
    """The time limit ran out while a model was being built (no solution yet)."""


@dataclass
class WindowSpace:
    """The suitable slots of one job as arrays, and the candidate starts and levels.

    Parameters
    ----------
    instance, job
        The problem.
    criterion
        The docs/concepts.md criterion to optimise.
    slots
        The slot list (default: the instance's); suitability, release and
        deadline clip it via :meth:`Instance.suitable_slots`.
    geometry
        ``rough`` or ``square`` (default: the instance's).
    deadline
        Optional ``time.perf_counter()`` time: building the candidates (and the
        models over them) raises :class:`BuildTimeLimit` once it has passed.
    limit_at
        Optional ``time.perf_counter()`` time at which the whole solve must end;
        the solver gets the time left after building.
    """

    instance: Instance
    job: Job
    criterion: Criterion
    slots: Sequence[Slot] | None = None
    geometry: str | None = None
    suitable: list[Slot] = field(init=False)
    deadline: float | None = None
    limit_at: float | None = None
    cache: dict[tuple[str, bool], float | None] = field(init=False, default_factory=dict)
    _costs: dict[int, np.ndarray] = field(init=False, default_factory=dict)
    _candidates: dict[bool, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        init=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        inst, job = self.instance, self.job
        self.geometry = self.geometry or inst.geometry
        pairs = inst.suitable_pairs(job, self.slots)
        self.suitable = [clipped for clipped, _ in pairs]
        self.hosts = [slot for _, slot in pairs]
        self.check_deadline()
        nodes = [inst.node(s.node) for s in self.suitable]
        self.n = job.nodes
        self.budget = job.effective_budget
        self.s = np.array([s.start for s in self.suitable], dtype=np.int64)
        self.e = np.array([s.end for s in self.suitable], dtype=np.int64)
        # DEP/COORD measure to the slot's own edges, not to the release/deadline (docs/concepts.md)
        self.es = np.array([s.start for s in self.hosts], dtype=np.int64)
        self.ee = np.array([s.end for s in self.hosts], dtype=np.int64)
        self.node = np.array([inst.node_index[s.node] for s in self.suitable], dtype=np.int64)
        self.price = [inst.slot_price(s) for s in self.suitable]
        exact = exact_q([nd.q for nd in nodes])
        self.q_exact = exact is not None
        # exact: q as integers in units of 10^-q_exp, so float sums of any subset are exact
        self.q_exp = exact[1] if exact is not None else 0
        qs = exact[0] if exact is not None else [nd.q for nd in nodes]
        self.q = np.array(qs, dtype=float)
        self.r = np.array([duration(job.volume, nd.performance) for nd in nodes], dtype=np.int64)
        self.square = self.geometry == "square"
        self.levels: list[int] = sorted({int(v) for v in self.r}) if self.square else [0]

    @property
    def m(self) -> int:
        """Return the number of suitable slots."""
        return len(self.suitable)

    def durations(self, level: int) -> np.ndarray:
        """Return each slot's task duration at ``level`` (rough: the slot's own)."""
        return np.full(self.m, level, dtype=np.int64) if self.square else self.r

    def eligible(self, level: int) -> np.ndarray:
        """Return the mask of slots that may take part at ``level``."""
        return self.r <= level if self.square else np.ones(self.m, dtype=bool)

    def costs(self, level: int) -> np.ndarray:
        """Return each slot's integer task cost at ``level`` (docs/concepts.md ``cost``)."""
        if level not in self._costs:
            d = self.durations(level)
            self._costs[level] = np.array(
                [cost(p, int(x)) for p, x in zip(self.price, d, strict=True)], dtype=np.int64
            )
        return self._costs[level]

    def starts(self, level: int, free_start: bool) -> np.ndarray:
        """Return the candidate starts at ``level``, sorted (see the module docstring)."""
        if not free_start:
            return np.unique(self.s)
        mask = self.eligible(level)
        s, e, d = self.s[mask], self.e[mask], self.durations(level)[mask]
        es, ee = self.es[mask], self.ee[mask]
        ok = e - s >= d
        s, e, d, es, ee = s[ok], e[ok], d[ok], es[ok], ee[ok]
        mid = np.clip(es + ee - d, 2 * s, 2 * (e - d))
        pts = np.unique(np.concatenate([s, e - d, mid // 2, (mid + 1) // 2]))
        return pts

    def candidates(self, free_start: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return ``(T, level, alive)``: the candidates and their (C × m) alive-slot mask.

        A slot is alive at ``(T, level)`` when it is eligible at the level and
        contains the task: ``s ≤ T`` and ``T + d ≤ e`` (docs/concepts.md). Candidates
        with fewer than n alive slots, or whose n cheapest alive slots exceed
        the budget, are dropped: they hold no window.
        """
        if free_start in self._candidates:
            return self._candidates[free_start]
        ts, ls, masks = [], [], []
        for level in self.levels:
            t = self.starts(level, free_start)
            d = self.durations(level)
            rows = max(1, CHUNK // max(self.m, 1))
            parts = []
            for a in range(0, len(t), rows):  # in chunks, so a time limit can stop it
                self.check_deadline()
                tt = t[a : a + rows]
                parts.append(
                    (self.s[None, :] <= tt[:, None])
                    & (tt[:, None] + d[None, :] <= self.e[None, :])
                    & self.eligible(level)[None, :]
                )
            alive = np.concatenate(parts) if parts else np.zeros((0, self.m), bool)
            keep = alive.sum(axis=1) >= self.n
            if self.budget is not None and keep.any():
                # the n cheapest alive slots over the budget: no window here
                big = np.iinfo(np.int64).max // (4 * self.n)
                cc = np.where(alive[keep], self.costs(level)[None, :], big)
                cheap = np.partition(cc, self.n - 1, axis=1)[:, : self.n].sum(axis=1)
                keep[np.flatnonzero(keep)[cheap > self.budget]] = False
            ts.append(t[keep])
            ls.append(np.full(int(keep.sum()), level, dtype=np.int64))
            masks.append(alive[keep])
        if not ts:
            out = np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, self.m), bool)
        else:
            out = np.concatenate(ts), np.concatenate(ls), np.concatenate(masks, axis=0)
        self._candidates[free_start] = out
        return out

    def check_deadline(self) -> None:
        """Raise :class:`BuildTimeLimit` once ``deadline`` (a perf_counter time) has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BuildTimeLimit("the time limit was reached while building the model")

    def values(self, t: int, level: int) -> np.ndarray:
        """Return each slot's additive criterion value z_j at ``(t, level)`` (to be minimised).

        Defined for the additive criteria (cost, proc_time, q, DEP, COORD);
        DEP and COORD use the per-task distances of docs/concepts.md (not yet divided by n).
        """
        d = self.durations(level)
        metric = self.criterion.metric
        if metric == "cost":
            return self.costs(level).astype(float)
        if metric == "proc_time":
            return d.astype(float)
        if metric == "q":
            return -self.q
        before, after = t - self.es, self.ee - t - d
        if metric == "near_distance":
            return -np.minimum(before, after).astype(float)
        if metric == "far_distance":
            return np.maximum(before, after).astype(float)
        raise ValueError(f"criterion '{self.criterion.name}' is not additive over tasks")

    def window(self, t: int, chosen: Sequence[int]) -> Window:
        """Return the window starting at ``t`` on the chosen slot indices (via ``make_window``)."""
        order = self.instance.node_index
        picked = sorted((self.hosts[i] for i in chosen), key=lambda s: order[s.node])
        return make_window(self.instance, self.job, int(t), picked, self.geometry)


EXACT_SUM = 2**50
"""Largest Σ|q| (in scaled integer units) for which q counts as exactly represented.

Every subset sum is then an integer below 2^53, so the float arithmetic of the
DP, the reduction and the bounds is exact, and the decimal sums differ from
the sums of the binary doubles by less than a quarter unit (so decimal
optima are optima of the doubles too, up to decimal ties)."""


def exact_q(values: Sequence[float]) -> tuple[list[int], int] | None:
    """Return ``(integers, k)`` with ``q_j = integers[j] / 10^k`` exactly, or None.

    Each q is read as the shortest decimal that reads back as the same double
    (the number as written in an instance file); k is the largest number of
    decimals among them (negative when every q is a multiple of a power of
    ten). None when the scaled integers' absolute sum exceeds :data:`EXACT_SUM`.
    """
    decimals = [Decimal(repr(float(v))).normalize() for v in values]
    if not decimals:
        return [], 0
    k = max(-int(d.as_tuple().exponent) for d in decimals)
    ints = [int(Fraction(d) * Fraction(10) ** k) for d in decimals]  # exact: d has <= k decimals
    if sum(abs(i) for i in ints) > EXACT_SUM:
        return None
    return ints, k


def approximate_q(q: np.ndarray) -> tuple[list[int], float, float]:
    """Return ``(integers, scale, largest rounding error)`` approximating ``q · scale``.

    For q without an exact scaling (:func:`exact_q`): the scale makes Σ|q| about
    2^50, so the integers fit every solver. A model over them proves nothing.
    """
    total = float(np.abs(q).sum())
    scale = 2.0**50 / total if total > 0 else 1.0
    scaled = np.asarray(q, dtype=float) * scale
    ints = [round(float(v)) for v in scaled]
    err = float(np.abs(scaled - np.round(scaled)).max()) if len(ints) else 0.0
    return ints, scale, err


def natural_q(scaled: float, k: int) -> float:
    """Return ``scaled / 10^k`` (a sum or bound of scaled q) rounded once to a double."""
    return float(Fraction(scaled) / Fraction(10) ** k)


def criterion_of(job: Job, criterion: str | None) -> Criterion:
    """Return the registry criterion ``criterion`` (default: the job's own); KeyError if unknown."""
    name = criterion or job.criterion
    if name not in CRITERIA:
        raise KeyError(f"unknown criterion '{name}' (choose from: {', '.join(CRITERIA)})")
    return CRITERIA[name]
