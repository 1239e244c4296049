"""Self-adjusting Wentges smoothing with directional smoothing for the joint column
generation (Pessoa, Sadykov, Uchoa & Vanderbeck 2018, "Automation and combination of
linear-programming based stabilization techniques in column generation", §§ 3–4;
docs/exact-models.md, "Stabilisation").

The multipliers of the Lagrangian bound (:meth:`models.joint.cg.duals.Duals.lagrangian`)
are the node-time prices ρ_kt ≥ 0, the cuts' η ≥ 0 and σ ≥ 0, the side multipliers
λ_s ≥ 0 and the count dual μ (free); here they are one vector keyed ``("r", node, t)``,
``("c", node, a, b, job)``, ``("u", points)``, ``("s", i)`` and ``("m",)``.
Pricing runs at a point between the stability centre π_in (the multipliers of the best
bound so far) and the master LP's duals π_out:

- Wentges: π̃ = α·π_in + (1 − α)·π_out;
- directional: with g_in the (projected) subgradient of the Lagrangian at π_in,
  π_g = π_in + g_in·‖π_out − π_in‖/‖g_in‖, β = max(0, cos∠(g_in, π_out − π_in)),
  ρ = β·π_g + (1 − β)·π_out and π̃ = π_in + (1 − α)·‖π_out − π_in‖/‖ρ − π_in‖·(ρ − π_in),
  projected on ρ, λ ≥ 0 (the same distance from π_in as Wentges's point, tilted towards
  the subgradient);
- α self-adjusts after each pricing at π̃ that yields a column: with g̃ the subgradient at
  π̃, α ← max(0, α − :data:`STEP`) when g̃·(π_out − π_in) > 0 (the bound still rises
  towards π_out: smoothing too strong), else α ← min(:data:`HIGHEST`, α + STEP·(1 − α));
- mispricing (π̃ yields no column improving the LP): after k mispricings the round is
  repeated at ᾱ_k = max(0, 1 − (k + 1)·(1 − α)) (Wentges, no direction; the first
  pricing is k = 0), which reaches the LP duals after at most ⌈α/(1 − α)⌉ repeats, so
  column generation still ends only when the LP duals price out nothing, at the LP
  optimum.

Every point is sign-valid, so its Lagrangian value is a valid bound whatever the smoothing
does; the smoothing changes the path, not the bound at convergence.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from models.joint.cg.column import Column, Linear
from models.joint.cg.cuts import Cut
from models.joint.cg.duals import Duals
from models.joint.cg.prices import Prices
from models.joint.cg.subset_row import SubsetRow

__all__ = ["ALPHA", "HIGHEST", "MODES", "STEP", "Smoother", "Space"]

ALPHA = 0.5
"""Initial smoothing weight α of the stability centre (Pessoa et al. 2018, § 4)."""

STEP = 0.1
"""Step of α's self-adjustment (Pessoa et al. 2018, § 4)."""

HIGHEST = 0.9
"""Largest α: the smoothed point keeps at least a tenth of the way to the LP duals."""

MODES = ("off", "wentges", "directional")
"""Stabilisation of the root: none, self-adjusting Wentges, or with directional smoothing."""

Key = tuple
Vector = dict[Key, float]


@dataclass(frozen=True)
class Space:
    """The multipliers' space of one master: its objective, ``(form, limit)`` side rows and
    fixed count (None: free, μ = 0)."""

    objective: Linear
    sides: Sequence[tuple[Linear, float]]
    count: int | None

    def vector(self, d: Duals) -> Vector:
        """Return the multipliers of ``d`` as a vector (zeros left out)."""
        v: Vector = {}
        for node, (t, rho) in d.prices.by_node.items():
            for ti, ri in zip(t.tolist(), rho.tolist(), strict=True):
                v["r", node, ti] = ri
        for node, a, b, job, eta in d.prices.charges:
            v["c", node, a, b, job] = eta
        for points, sigma in d.prices.rows:
            v["u", points] = sigma
        for i, lam in enumerate(d.sides):
            if lam:
                v["s", i] = lam
        if self.count is not None and d.mu:
            v["m",] = d.mu
        return v

    def duals(self, v: Mapping[Key, float], pi: list[float]) -> Duals:
        """Return the sign-valid :class:`Duals` of ``v`` projected on ρ, λ ≥ 0 (``pi``, the
        convexity duals, only enter reduced costs, never the bound)."""
        by_node: dict[str, list[tuple[int, float]]] = defaultdict(list)
        lam = [0.0] * len(self.sides)
        mu = 0.0
        charges, rows = [], []
        for key, x in v.items():
            if key[0] == "r":
                if x > 0.0:
                    by_node[key[1]].append((key[2], x))
            elif key[0] == "c":
                if x > 0.0:
                    charges.append((*key[1:], x))
            elif key[0] == "u":
                if x > 0.0:
                    rows.append((key[1], x))
            elif key[0] == "s":
                lam[key[1]] = max(x, 0.0)
            elif self.count is not None:
                mu = x
        prices = {}
        for node, items in by_node.items():
            items.sort()
            prices[node] = (np.array([t for t, _ in items], dtype=np.int64),
                            np.array([r for _, r in items]))
        form = self.objective
        fixed = mu * (self.count or 0)
        for (g, b), y in zip(self.sides, lam, strict=True):
            form = form + g.scaled(y)
            fixed -= y * b
        return Duals(form, Prices(prices, tuple(sorted(charges)), rows=tuple(sorted(rows))),
                     mu, list(pi), fixed, tuple(lam))

    def subgradient(
        self,
        d: Duals,
        least: Sequence[tuple[float, Column] | None],
        rows: Mapping[str, Sequence[int]],
        cuts: Sequence[Cut] = (),
        subset_rows: Sequence[SubsetRow] = (),
    ) -> Vector:
        """Return the projected subgradient of the Lagrangian at ``d``: each job's least
        priced window (``least``: value and column; None: no window) is chosen when its
        value is below μ, and the components over the master's node-time ``rows`` are
        ``#chosen covering (k, t) − 1``, the sides' ``Σ_chosen g_s − b_s``, the count's
        ``P − #chosen``, the ``cuts``' ``#chosen in the cut − 1`` and the ``subset_rows``'
        ``Σ_chosen ⌊hits/2⌋ − 1``; a component that would push a multiplier at 0 below 0
        is 0."""
        chosen = [col for item in least if item is not None
                  for value, col in (item,) if value - d.mu < 0.0]
        cover: dict[tuple[str, int], int] = defaultdict(int)
        for col in chosen:
            for node, start, end in col.tasks:
                points = rows.get(node, ())
                for i in range(bisect.bisect_left(points, start),
                               bisect.bisect_left(points, end)):
                    cover[node, points[i]] += 1
        at = self.vector(d)
        g: Vector = {}
        for node, points in rows.items():
            for t in points:
                x = cover.get((node, t), 0) - 1.0
                if x > 0.0 or at.get(("r", node, t), 0.0) > 0.0:
                    g["r", node, t] = x
        for i, (form, b) in enumerate(self.sides):
            x = sum(col.value(form) for col in chosen) - b
            if x > 0.0 or at.get(("s", i), 0.0) > 0.0:
                g["s", i] = x
        for cut in cuts:
            x = sum(cut.coefficient(col) for col in chosen) - 1.0
            key = ("c", cut.node, cut.a, cut.b, cut.job)
            if x > 0.0 or at.get(key, 0.0) > 0.0:
                g[key] = x
        for row in subset_rows:
            x = sum(row.coefficient(col) for col in chosen) - 1.0
            key = ("u", row.points)
            if x > 0.0 or at.get(key, 0.0) > 0.0:
                g[key] = x
        if self.count is not None:
            g["m",] = float(self.count - len(chosen))
        return {k: x for k, x in g.items() if x}


def _dot(a: Mapping[Key, float], b: Mapping[Key, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(x * b.get(k, 0.0) for k, x in a.items())


def _minus(a: Mapping[Key, float], b: Mapping[Key, float]) -> Vector:
    out = dict(a)
    for k, x in b.items():
        out[k] = out.get(k, 0.0) - x
    return out


@dataclass
class Smoother:
    """The smoothing state of one column generation: α, the mispricing count k of the
    current LP duals, and the subgradient at the stability centre (None: not known)."""

    space: Space
    directional: bool = True
    alpha: float = ALPHA
    misprices: int = 0
    centre_subgradient: Vector | None = field(default=None, repr=False)
    adjustments: list[float] = field(default_factory=list, repr=False)

    def point(self, centre: Duals, out: Duals) -> tuple[Duals, bool]:
        """Return the pricing point for the current LP duals ``out`` and whether it is
        ``out`` itself: the stabilised point before a mispricing, the k-th mispricing
        point after k of them."""
        weight = 1.0 - (self.misprices + 1) * (1.0 - self.alpha)
        if weight <= 1e-9:  # 0 up to rounding (α = 0.8, k = 4)
            return out, True
        c, o = self.space.vector(centre), self.space.vector(out)
        d = _minus(o, c)
        norm = math.sqrt(_dot(d, d))
        if norm == 0.0:
            return out, True
        g = self.centre_subgradient if self.directional and not self.misprices else None
        gnorm = math.sqrt(_dot(g, g)) if g else 0.0
        beta = max(0.0, _dot(g, d) / (gnorm * norm)) if g and gnorm > 0.0 else 0.0
        if beta > 0.0:
            assert g is not None
            # ρ − π_in = β·g·‖d‖/‖g‖ + (1 − β)·d, scaled to the length (1 − α)·‖d‖
            r = {k: (1.0 - beta) * x for k, x in d.items()}
            for k, x in g.items():
                r[k] = r.get(k, 0.0) + beta * norm / gnorm * x
            rnorm = math.sqrt(_dot(r, r))
            h = (1.0 - weight) * norm / rnorm
            v = dict(c)
            for k, x in r.items():
                v[k] = v.get(k, 0.0) + h * x
        else:
            v = dict(o)
            for k in set(c) | set(o):
                v[k] = weight * c.get(k, 0.0) + (1.0 - weight) * o.get(k, 0.0)
        pi = [weight * a + (1.0 - weight) * b for a, b in zip(centre.pi, out.pi, strict=True)]
        return self.space.duals(v, pi), False

    def adjust(self, subgradient: Vector, centre: Duals, out: Duals) -> None:
        """Self-adjust α after a pricing at the stabilised point that yielded a column, from
        the subgradient there (Pessoa et al. 2018, § 4; the sign as GCG's
        ``class_stabilization.cpp`` corrects it)."""
        d = _minus(self.space.vector(out), self.space.vector(centre))
        if _dot(subgradient, d) > 0.0:
            self.alpha = max(0.0, self.alpha - STEP)
        else:
            self.alpha = min(HIGHEST, self.alpha + STEP * (1.0 - self.alpha))
        self.adjustments.append(self.alpha)
