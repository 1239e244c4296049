"""The criteria registry of docs/concepts.md: name → (window metric, sense).

This registry is the single list of criterion names; job validation, the
algorithm registry, the exact models and the CLI all read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Sense = Literal["min", "max"]


@dataclass(frozen=True)
class Criterion:
    """A window criterion: optimise ``metric`` in direction ``sense`` (docs/concepts.md)."""

    name: str
    metric: str
    sense: Sense

    def better(self, a: float, b: float) -> bool:
        """Return True when value ``a`` is strictly better than ``b``."""
        return a < b if self.sense == "min" else a > b

    def normalised(self, value: float) -> float:
        """Return ``value`` signed so that smaller is always better."""
        return value if self.sense == "min" else -value


CRITERIA: dict[str, Criterion] = {
    c.name: c
    for c in (
        Criterion("min_start", "start", "min"),
        Criterion("min_finish", "finish", "min"),
        Criterion("min_cost", "cost", "min"),
        Criterion("min_runtime", "runtime", "min"),
        Criterion("min_proc_time", "proc_time", "min"),
        Criterion("max_q", "q", "max"),
        Criterion("dep", "near_distance", "max"),
        Criterion("coord", "far_distance", "min"),
    )
}

GEOMETRIES: tuple[str, ...] = ("rough", "square")
