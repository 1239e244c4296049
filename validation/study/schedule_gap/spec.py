"""What a schedule-gap study computes: ``klusacek2008`` snapshots, each replayed and solved.

Snapshot ``k`` is the ``klusacek2008`` workload generated with seed
``seed + k`` (Klusáček & Rudová 2008's distributions) on ``machines``
machines with ``jobs`` jobs. The study's identity is its spec and the package
version (:meth:`ScheduleGapSpec.key`), so rerunning the same command resumes
it and any other parameter starts a new study. See ``docs/schedule-based.md``,
"Gap to the optimum".
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any

from instances.errors import did_you_mean
from validation.study.engine.errors import StudyError

POLICIES = ("fcfs", "easy", "flex", "egedf", "tabu")
"""The policies replayed by default (``planner simulate --policy``)."""


@dataclass(frozen=True)
class Snapshot:
    """One task: snapshot seed, its size, the policies to replay, the solver and its limits."""

    seed: int
    jobs: int
    machines: int
    interarrival: float
    time_limit: float
    threads: int
    policies: tuple[str, ...]
    solver: str = "auto"


@dataclass(frozen=True)
class ScheduleGapSpec:
    """The parameters of a schedule-gap study (everything that changes its rows).

    Parameters
    ----------
    snapshots
        Number of snapshots; snapshot seeds are ``seed .. seed + snapshots - 1``.
    jobs, machines, interarrival
        The ``klusacek2008`` family parameters of every snapshot.
    time_limit
        Solver seconds per snapshot (both lexicographic criteria together).
    seed
        The first snapshot seed.
    policies
        Cluster policies replayed on every snapshot (``planner.cluster.POLICIES``).
    threads
        CP-SAT threads per solve.
    solver
        Snapshot solver (``planner.registry.SNAPSHOT_SOLVERS``: ``cpsat``,
        ``milp``, ``cg``, ``auto``; ``docs/exact-models.md``).
    """

    snapshots: int = 10
    jobs: int = 20
    machines: int = 5
    interarrival: float = 40.0
    time_limit: float = 20.0
    seed: int = 0
    policies: tuple[str, ...] = POLICIES
    threads: int = 1
    solver: str = "auto"

    def __post_init__(self) -> None:
        from planner.cluster import POLICIES as KNOWN
        from planner.registry import SNAPSHOT_SOLVERS

        if self.solver not in SNAPSHOT_SOLVERS:
            raise StudyError(f"unknown solver '{self.solver}'"
                             f"{did_you_mean(self.solver, SNAPSHOT_SOLVERS)} "
                             f"(choose from: {', '.join(SNAPSHOT_SOLVERS)})")  # fmt: skip

        object.__setattr__(self, "policies", tuple(dict.fromkeys(self.policies)))
        for name, low in (("snapshots", 1), ("jobs", 1), ("machines", 1), ("seed", 0),
                          ("threads", 1)):  # fmt: skip
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise StudyError(f"{name} must be an integer >= {low}, got {v!r}")
        for name in ("interarrival", "time_limit"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not (
                    math.isfinite(v) and v > 0):  # fmt: skip
                raise StudyError(f"{name} must be a finite number > 0, got {v!r}")
            object.__setattr__(self, name, float(v))
        if not self.policies:
            raise StudyError("give at least one policy")
        for p in self.policies:
            if p not in KNOWN:
                raise StudyError(f"unknown policy '{p}'{did_you_mean(p, KNOWN)} "
                                 f"(choose from: {', '.join(KNOWN)})")  # fmt: skip

    def tasks(self) -> list[Snapshot]:
        """Return every snapshot of the study, in report order."""
        return [Snapshot(k, self.jobs, self.machines, self.interarrival, self.time_limit,
                         self.threads, self.policies, self.solver)
                for k in range(self.seed, self.seed + self.snapshots)]  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """Return the spec as plain JSON data (``solver`` omitted for ``cpsat``, the only
        solver before it was a parameter, so earlier databases keep their identity)."""
        data = asdict(self)
        data["policies"] = list(self.policies)
        if data["solver"] == "cpsat":
            del data["solver"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScheduleGapSpec:
        """Inverse of :meth:`to_dict`."""
        return cls(**{"solver": "cpsat", **data, "policies": tuple(data["policies"])})

    def key(self, version: str) -> str:
        """Return the study's identity: spec and package version."""
        return json.dumps({"kind": "schedule-gap", "spec": self.to_dict(), "version": version},
                          sort_keys=True)  # fmt: skip

    def command(self) -> str:
        """Return the ``planner study schedule-gap`` command line that reruns (resumes) it."""
        return (f"planner study schedule-gap --snapshots {self.snapshots} --jobs {self.jobs} "
                f"--machines {self.machines} --interarrival {self.interarrival:g} "
                f"--time-limit {self.time_limit:g} --seed {self.seed} --threads {self.threads} "
                f"--solver {self.solver} --policies {' '.join(self.policies)}")  # fmt: skip
