"""Node-time prices of the joint pricing oracle (docs/exact-models.md): the duals ρ[k, t] of
the master's node-time rows, with every node's prefix sums laid end to end so that the
oracle sums the prices under many tasks on many nodes in one ``searchsorted``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class Prices:
    """Node-time prices: node → (sorted unit times t, prices ρ ≥ 0 of ``[t, t+1)``)."""

    by_node: Mapping[str, tuple[np.ndarray, np.ndarray]]

    def __post_init__(self) -> None:
        for node, (t, rho) in self.by_node.items():
            if len(t) != len(rho) or np.any(np.diff(t) <= 0) or np.any(rho < 0):
                raise ValueError(f"prices of node '{node}' need increasing times and ρ >= 0")

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
