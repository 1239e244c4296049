"""The report of a checked result file, and helpers shared by the file checks."""

from __future__ import annotations

from dataclasses import dataclass, field

from instances import Instance, Job
from validation.results.window import Violation


@dataclass
class Report:
    """What :func:`validation.results.check_file` found: the violations, each line's
    recomputed metrics (by line number), the windows and the jobs checked."""

    violations: list[Violation] = field(default_factory=list)
    metrics: dict[int, dict[str, float] | None] = field(default_factory=dict)
    windows: int = 0
    jobs: int = 0



def jobs_of(instance: Instance) -> dict[str, Job]:
    """Return job id → job."""
    return {j.id: j for j in instance.jobs}


def missing(rep: Report, instance: Instance, seen: dict[str, int]) -> None:
    """Add a ``missing`` violation for every job of the instance without a line."""
    for job in instance.jobs:
        if job.id not in seen:
            rep.violations.append(Violation("missing", "no line", "a line", "", job.id))
