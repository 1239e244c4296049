"""The parameters of a gap study.

A study is fully determined by its :class:`StudySpec` and the package
version: instance ``i`` is generated from a seed derived from (study seed, i)
(:func:`validation.study.engine.seeds.instance_seed`), so the rows do not depend
on the executor, the worker count or the order in which instances complete.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from planner import ALIASES
from validation.study.engine.errors import StudyError

MAX_INSTANCES = 1_000_000
"""The largest study (instances); larger counts are refused before any work."""

MAX_THREADS = 256
"""The most solver threads per exact solve."""


@dataclass(frozen=True)
class StudySpec:
    """What a gap study computes (everything that changes its rows, nothing else).

    Parameters
    ----------
    family
        An ``instances.FAMILIES`` name.
    params
        Family parameter overrides.
    instances
        Number of instances (indices ``0 .. instances - 1``).
    seed
        The study seed; instance seeds derive from it (:func:`instance_seed`).
    algorithms
        Heuristic names (``planner.ALGORITHMS``; aliases such as ``first_fit`` are
        stored as the algorithm's own name); empty means every registered one.
    solver
        The exact solver (``models.SOLVERS``).
    time_limit
        Seconds per exact solve (None: none; a limit may leave optima unproven).
    threads
        Solver threads per exact solve.
    geometries
        Evaluate each instance under these docs/concepts.md geometries; empty means the
        instance's own.
    """

    family: str
    params: dict[str, Any] = field(default_factory=dict)
    instances: int = 40
    seed: int = 0
    algorithms: tuple[str, ...] = ()
    solver: str = "cpsat"
    time_limit: float | None = None
    threads: int = 1
    geometries: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", dict(self.params))
        # aliases name the same rows as their algorithm; repeated names would repeat
        # rows (and break the rows' UNIQUE key): keep the first
        names = (ALIASES.get(name, name) for name in self.algorithms)
        object.__setattr__(self, "algorithms", tuple(dict.fromkeys(names)))
        object.__setattr__(self, "geometries", tuple(dict.fromkeys(self.geometries)))
        if isinstance(self.instances, bool) or not isinstance(self.instances, int):
            raise StudyError("instances must be an integer >= 1")
        if not 1 <= self.instances <= MAX_INSTANCES:
            raise StudyError(f"instances must be in 1..{MAX_INSTANCES}, got {self.instances}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise StudyError(f"seed must be a non-negative integer, got {self.seed!r}")
        if isinstance(self.threads, bool) or not isinstance(self.threads, int):
            raise StudyError(f"threads must be an integer, got {self.threads!r}")
        if not 1 <= self.threads <= MAX_THREADS:
            raise StudyError(f"threads must be in 1..{MAX_THREADS}, got {self.threads}")
        if self.time_limit is not None and not 0 < self.time_limit < float("inf"):
            raise StudyError(f"time limit must be > 0 and finite, got {self.time_limit}")
        for g in self.geometries:
            if g not in ("rough", "square"):
                raise StudyError(f"unknown geometry '{g}' (choose from: rough, square)")

    def to_dict(self) -> dict[str, Any]:
        """Return the spec as plain JSON data."""
        data = asdict(self)
        data["algorithms"] = list(self.algorithms)
        data["geometries"] = list(self.geometries)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StudySpec:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)

    def key(self, version: str) -> str:
        """Return the canonical identity of the study's rows (spec + package version)."""
        return json.dumps({"spec": self.to_dict(), "version": version}, sort_keys=True)
