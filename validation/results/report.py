"""The report of a checked result file, and helpers shared by the file checks."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from instances import Instance, Job
from validation.results.window import Violation

if TYPE_CHECKING:
    from validation.results.lines import ResultLine


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


def known_lines(rep: Report, lines: Sequence[ResultLine],
                jobs: dict[str, Job]) -> Iterator[tuple[ResultLine, Job]]:  # fmt: skip
    """Yield each line with its job; a line naming no job of the instance is a ``job``
    violation instead."""
    for ln in lines:
        job = jobs.get(ln.job)
        if job is None:
            rep.violations.append(Violation("job", ln.job, "a job of the instance", "unknown job",
                                            ln.job, ln.number))  # fmt: skip
        else:
            yield ln, job
