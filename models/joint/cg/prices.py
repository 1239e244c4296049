"""Node-time prices of the joint pricing oracle (docs/exact-models.md): the duals ρ[k, t] of
the master's node-time rows, with every node's prefix sums laid end to end so that the
oracle sums the prices under many tasks on many nodes in one ``searchsorted``, and the
multipliers η ≥ 0 of the master's robust cuts (:mod:`models.joint.cg.cuts`), charged to a
task of a job as a step function of its start.

A cut of node k, interval [a, b) and job l charges its η to a task of duration d on k
starting at T when the task is in the cut: for job l when it meets [a, b)
(T ∈ [a − d + 1, b − 1]), for any other job when it covers [a, b) (T ∈ [b − d, a]). The
charge depends on the job, so a job is priced at ``prices.of(j)``; pricing refuses cuts
without a job rather than price them wrongly.

A subset-row cut (:mod:`models.joint.cg.subset_row`) over node-time points S with
multiplier σ ≥ 0 charges ``σ·⌊h_S(w)/2⌋`` to a window covering h_S(w) of its points: a
charge of the whole window, not of one task (``rows``; priced by
:mod:`models.joint.cg.rowpricing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

Charge = tuple[str, int, int, int, float]
"""A cut's charge: ``(node k, a, b, job l, η ≥ 0)`` (module docstring)."""

RowCharge = tuple[tuple[tuple[str, int], ...], float]
"""A subset-row cut's charge: ``(its points (node, t), σ ≥ 0)`` (module docstring)."""


def span(a: int, b: int, own: bool, d: np.ndarray | int) -> tuple[np.ndarray | int, ...]:
    """Return the first and last start T at which a task of duration ``d`` is in the cut
    [a, b): it meets it (``own``: of the cut's job) or covers it (another job)."""
    return (a - d + 1, b - 1) if own else (b - d, a)


@dataclass(frozen=True)
class Prices:
    """Node-time prices: node → (sorted unit times t, prices ρ ≥ 0 of ``[t, t+1)``), the
    robust cuts' ``charges`` (module docstring) for the job ``job`` (None: not chosen
    yet), and the subset-row cuts' ``rows``."""

    by_node: Mapping[str, tuple[np.ndarray, np.ndarray]]
    charges: tuple[Charge, ...] = ()
    job: int | None = None
    rows: tuple[RowCharge, ...] = ()

    def __post_init__(self) -> None:
        for node, (t, rho) in self.by_node.items():
            if len(t) != len(rho) or np.any(np.diff(t) <= 0) or np.any(rho < 0):
                raise ValueError(f"prices of node '{node}' need increasing times and ρ >= 0")
        for node, a, b, _, eta in self.charges:
            if b - a < 2 or not eta >= 0:
                raise ValueError(f"a cut of node '{node}' needs b − a >= 2 and η >= 0")
        for points, sigma in self.rows:
            if not points or not sigma >= 0:
                raise ValueError(f"a subset-row cut needs points and σ >= 0, not {sigma}")

    def of(self, job: int) -> Prices:
        """Return the prices of job ``job``: its cuts' charges resolved."""
        out = Prices(self.by_node, self.charges, job, self.rows)
        out.__dict__["flat"] = self.flat  # computed once for every job
        return out

    def on(self, node: str) -> list[tuple[int, int, bool, float]]:
        """Return ``(a, b, own, η)`` of the cuts of ``node`` with η > 0 (``own``: of
        :attr:`job`); ValueError when there are cuts but no job."""
        if self.charges and self.job is None:
            raise ValueError("prices with cuts price a job: use prices.of(j)")
        return [(a, b, job == self.job, eta) for k, a, b, job, eta in self.charges
                if k == node and eta > 0.0]

    def charge(self, node: str, T: int, d: int) -> float:
        """Return the cuts' charge to a task of :attr:`job` on ``node`` at ``[T, T + d)``."""
        total = 0.0
        for a, b, own, eta in self.on(node):
            lo, hi = span(a, b, own, d)
            if lo <= T <= hi:
                total += eta
        return total

    def row_charge(self, tasks: Sequence[tuple[str, int, int]]) -> float:
        """Return the subset-row cuts' charge ``Σ σ·⌊hits/2⌋`` to a window's ``tasks``
        ``(node, start, end)``."""
        total = 0.0
        for points, sigma in self.rows:
            hits = sum(1 for k, s, e in tasks for node, t in points if node == k and s <= t < e)
            total += sigma * (hits // 2)
        return total

    @property
    def eta(self) -> float:
        """Return Σ η over the robust cuts and Σ σ over the subset-row cuts (each cut's
        right-hand side is 1)."""
        return sum(eta for *_, eta in self.charges) + sum(sigma for _, sigma in self.rows)

    def prefix(self, node: str) -> tuple[np.ndarray, np.ndarray]:
        """Return ``(times, P)`` with ``P[i]`` the sum of the first i prices of ``node``."""
        t, rho = self.by_node.get(node, (np.zeros(0, np.int64), np.zeros(0)))
        return t, np.concatenate([[0.0], np.cumsum(rho)])

    @cached_property
    def flat(self) -> tuple[dict[str, int], np.ndarray, np.ndarray, int, int]:
        """Return ``(rank of each priced node, keys, P, width, reach)``: node r's times t as
        keys ``r·width + t`` (|t| < reach), and its prefix sums at ``P[r + i]`` for the i-th
        key of the node; a node without prices has rank ``len(rank)`` and sums 0."""
        rank = {node: r for r, node in enumerate(self.by_node)}
        reach = 2 + max((int(np.abs(t).max()) for t, _ in self.by_node.values() if len(t)),
                        default=0)
        width = 2 * reach + 1
        keys = [np.asarray(t, dtype=np.int64) + r * width
                for r, (t, _) in enumerate(self.by_node.values())]
        sums = [self.prefix(node)[1] for node in self.by_node]
        flat_keys = np.concatenate(keys) if keys else np.zeros(0, np.int64)
        return rank, flat_keys, np.concatenate([*sums, [0.0]]), width, reach

    def covered(self, ranks: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
        """Return the sums of the prices of ``[start, end)`` on the nodes of ``ranks`` (from
        :attr:`flat`), element by element."""
        _, keys, P, width, reach = self.flat
        base = ranks * width
        hi = np.searchsorted(keys, base + np.clip(end, -reach, reach)) + ranks
        lo = np.searchsorted(keys, base + np.clip(start, -reach, reach)) + ranks
        return P[hi] - P[lo]
