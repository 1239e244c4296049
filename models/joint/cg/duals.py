"""Dual multipliers of the joint master (docs/exact-models.md): the Lagrangian bound they give,
reduced costs, and Wentges smoothing (a convex combination with a stability centre)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from models.joint.cg.column import Column, Linear
from models.joint.cg.pricing import Prices

MARGIN = 1e-6
"""Relative margin subtracted from a floating bound before rounding it up to an integer."""

ERROR = 1e-9
"""Error allowed per unit of magnitude of a Lagrangian sum (:meth:`Duals.lagrangian`): the
sum's terms (the fixed part, the prices, each job's priced value and μ) may be far larger
than the sum itself, and each carries a rounding error of about 10⁻¹⁶ of its size; this
covers them ten million times over."""


def round_up(bound: float) -> int:
    """Return the least integer ≥ ``bound`` less a relative :data:`MARGIN` (never too high)."""
    return math.ceil(bound - MARGIN * max(1.0, abs(bound)))


@dataclass(frozen=True)
class Duals:
    """Sign-valid multipliers: pricing ``form`` (objective + side duals), node-time
    ``prices`` ρ ≥ 0, count dual ``mu``, convexity duals ``pi`` ≤ 0, ``fixed`` =
    Σ_s y_s b_s + μ·P (y_s ≤ 0 the side duals, P the fixed count or 0), and ``sides`` the
    multipliers λ_s = −y_s ≥ 0 themselves (empty: all 0), which ``form`` already holds."""

    form: Linear
    prices: Prices
    mu: float
    pi: list[float]
    fixed: float
    sides: tuple[float, ...] = ()

    def lagrangian(
        self, best: Sequence[float | None], placed: Sequence[bool | None] | None = None
    ) -> float:
        """Return ``fixed − Σ ρ − Σ η + Σ_j min(0, best_j − μ)`` for each job's least priced value
        (None: no window): a lower bound on every integer solution, for any such multipliers.

        ``placed`` (branch-and-price rules): a job placed (True) adds ``best_j − μ`` and
        makes the bound +inf without a window; a job not placed (False) adds nothing.

        The sum is lowered by :data:`ERROR` times its magnitude (|fixed|, Σ ρ, and per job
        |best_j|, |μ| and Σ ρ again for the prices its value sums), so that floating error
        in it or in the priced values never lifts it above the true bound.
        """
        rho = sum(float(r.sum()) for _, r in self.prices.by_node.values())
        rho += self.prices.eta  # each cut's η times its right-hand side 1
        total, size = self.fixed - rho, abs(self.fixed) + rho
        for j, v in enumerate(best):
            rule = None if placed is None else placed[j]
            if rule is False:
                continue
            if v is None:
                if rule:
                    return math.inf
                continue
            total += v - self.mu if rule else min(0.0, v - self.mu)
            size += abs(v) + abs(self.mu) + rho
        return total - ERROR * size

    def reduced(self, col: Column) -> float:
        """Return the reduced cost of ``col``: form + covered prices + cut charges − μ − π_j."""
        total = col.value(self.form) - self.mu - self.pi[col.j]
        if self.prices.rows:
            total += self.prices.row_charge(col.tasks)
        own = self.prices.of(col.j) if self.prices.charges else None
        for node, start, end in col.tasks:
            if own is not None:
                total += own.charge(node, start, end - start)
            t, rho = self.prices.by_node.get(node, (None, None))
            if t is not None:
                total += float(rho[(t >= start) & (t < end)].sum())
        return total

    def blend(self, other: Duals, alpha: float) -> Duals:
        """Return ``alpha·self + (1 − alpha)·other`` (signs are kept: a convex combination)."""
        a, b = alpha, 1.0 - alpha
        nodes = set(self.prices.by_node) | set(other.prices.by_node)
        by_node = {}
        for node in nodes:
            merged: dict[int, float] = {}
            for weight, src in ((a, self.prices), (b, other.prices)):
                t, rho = src.by_node.get(node, (np.zeros(0, np.int64), np.zeros(0)))
                for ti, ri in zip(t.tolist(), rho.tolist(), strict=True):
                    merged[ti] = merged.get(ti, 0.0) + weight * ri
            items = sorted((t, r) for t, r in merged.items() if r > 0.0)
            if items:
                by_node[node] = (np.array([t for t, _ in items], dtype=np.int64),
                                 np.array([r for _, r in items]))
        charges: dict[tuple[str, int, int, int], float] = {}
        for weight, src in ((a, self.prices), (b, other.prices)):
            for *key, eta in src.charges:
                charges[tuple(key)] = charges.get(tuple(key), 0.0) + weight * eta
        rows: dict[tuple[tuple[str, int], ...], float] = {}
        for weight, src in ((a, self.prices), (b, other.prices)):
            for points, sigma in src.rows:
                rows[points] = rows.get(points, 0.0) + weight * sigma
        return Duals(
            form=self.form.scaled(a) + other.form.scaled(b),
            prices=Prices(by_node, tuple((*k, e) for k, e in charges.items() if e > 0.0),
                          rows=tuple((p, s) for p, s in rows.items() if s > 0.0)),
            mu=a * self.mu + b * other.mu,
            pi=[a * x + b * y for x, y in zip(self.pi, other.pi, strict=True)],
            fixed=a * self.fixed + b * other.fixed,
            sides=tuple(a * x + b * y for x, y in zip(_padded(self.sides, other.sides),
                                                       _padded(other.sides, self.sides),
                                                       strict=True)),
        )


def _padded(xs: tuple[float, ...], like: tuple[float, ...]) -> tuple[float, ...]:
    return xs + (0.0,) * (len(like) - len(xs))
