"""What a cluster-policy study computes: workloads × seeds × estimates × policies.

A workload is a file (``planner.workload/1`` JSON, ``.swf``, ``.swf.gz``;
replayed once, its seed recorded as -1) or a workload family name
(``instances.WORKLOAD_FAMILIES``, generated once per seed, with the
study's family parameters). The study's
identity is its spec, the package version and the files' SHA-256 digests, so
rerunning the same command resumes it and a changed file starts a new one.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from instances.errors import did_you_mean
from validation.study.engine.errors import StudyError

DEFAULT_POLICIES = ("fcfs", "easy", "conservative")


@dataclass(frozen=True)
class Task:
    """One replay: a workload (file or family), a seed, the estimates and a policy."""

    workload: str
    seed: int
    estimates: str
    policy: str
    machines: str | None = None
    params: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class ClusterStudySpec:
    """The parameters of a cluster-policy study (everything that changes its rows)."""

    workloads: tuple[str, ...]
    policies: tuple[str, ...] = DEFAULT_POLICIES
    seeds: tuple[int, ...] = (0,)
    estimates: tuple[str, ...] = ("requested",)
    machines: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from instances import WORKLOAD_FAMILIES, generate_workload
        from planner.cluster import ESTIMATES, POLICIES

        for name in ("workloads", "policies", "seeds", "estimates"):
            object.__setattr__(self, name, tuple(dict.fromkeys(getattr(self, name))))
        if not self.workloads:
            raise StudyError("give at least one --workload")
        for p in self.policies:
            if p not in POLICIES:
                raise StudyError(f"unknown policy '{p}'{did_you_mean(p, POLICIES)} "
                                 f"(choose from: {', '.join(POLICIES)})")  # fmt: skip
        for e in self.estimates:
            if e not in ESTIMATES:
                raise StudyError(f"unknown estimates '{e}' (choose from: {', '.join(ESTIMATES)})")
        for s in self.seeds:
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise StudyError(f"seeds must be non-negative integers, got {s!r}")
        digests = dict(self.digests)
        for w in self.workloads:
            if w in WORKLOAD_FAMILIES or w in digests:
                continue
            if not os.path.isfile(w):
                known = ", ".join(WORKLOAD_FAMILIES)
                raise StudyError(f"{w}: no such file, nor a workload family ({known})")
            digests[w] = _digest(w)
        if self.machines is not None and self.machines not in digests:
            if not os.path.isfile(self.machines):
                raise StudyError(f"{self.machines}: no such machines file")
            digests[self.machines] = _digest(self.machines)
        object.__setattr__(self, "digests", digests)
        object.__setattr__(self, "params", dict(self.params))
        families = [w for w in self.workloads if w not in digests]
        if self.params and not families:
            raise StudyError("family parameters need a workload family among the workloads")
        for w in families if self.params else ():
            try:
                generate_workload(w, 0, **self.params)  # names and value ranges
            except ValueError as err:
                raise StudyError(str(err).splitlines()[0]) from None

    def tasks(self) -> list[Task]:
        """Return every replay of the study, in report order."""
        out = []
        for w in self.workloads:
            family = w not in self.digests
            params = tuple(sorted(self.params.items())) if family else ()
            for seed in self.seeds if family else (-1,):
                for e in self.estimates:
                    out.extend(Task(w, seed, e, p, self.machines, params) for p in self.policies)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return the spec as plain JSON data."""
        data = asdict(self)
        for name in ("workloads", "policies", "seeds", "estimates"):
            data[name] = list(data[name])
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClusterStudySpec:
        """Inverse of :meth:`to_dict` (digests kept as recorded)."""
        return cls(**data)

    def key(self, version: str) -> str:
        """Return the study's identity: spec, digests and package version."""
        return json.dumps({"spec": self.to_dict(), "version": version}, sort_keys=True)

    def command(self) -> str:
        """Return the ``planner study cluster`` command line that reruns (resumes) it."""
        import shlex

        parts = ["planner study cluster --workload", *map(shlex.quote, self.workloads),
                 "--policies", *self.policies, "--seeds", *map(str, self.seeds),
                 "--estimates", *self.estimates]  # fmt: skip
        if self.machines is not None:
            parts += ["--machines", shlex.quote(self.machines)]
        parts += [f"--param {shlex.quote(f'{k}={v}')}" for k, v in sorted(self.params.items())]
        return " ".join(parts)


def _digest(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
