"""Synthetic job deadlines shared by the workload families.

Neither Klusáček & Rudová 2008 nor the Parallel Workloads Archive logs give
a deadline rule. The project follows the Alea simulator's trace loader, whose
due date is twice the requested time, read as relative to the arrival:
``d_j = r_j + ceil(factor · e_j)`` with ``factor = 2`` by default and e_j the
requested time at speed 1. Exactly ``round(share · n)`` jobs, chosen
uniformly at random without replacement, get one (70% in Klusáček & Rudová
2008); the others have none. ``docs/workloads.md`` gives the evidence.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from instances.generators.base import check
from instances.workload import ClusterJob


def check_deadline_params(family: str, share: float, factor: float) -> None:
    """Raise the one-line parameter error unless 0 <= share <= 1 and factor >= 0."""
    check(family, "deadline_share", 0 <= share <= 1, "must be in [0, 1]")
    check(family, "deadline_factor", factor >= 0, "must be >= 0")


def with_deadlines(
    rng: np.random.Generator, jobs: Sequence[ClusterJob], share: float, factor: float
) -> tuple[ClusterJob, ...]:
    """Return ``jobs`` where round(share · n) random jobs get ``r_j + ceil(factor · e_j)``.

    One draw from ``rng`` (a permutation choice), so the rest of a family's
    draws do not depend on ``share``'s value beyond it.
    """
    n = len(jobs)
    count = round(share * n)
    chosen = set(rng.choice(n, size=count, replace=False).tolist()) if n else set()
    out = []
    for i, job in enumerate(jobs):
        deadline = None
        if i in chosen:
            deadline = job.submit + math.ceil(round(factor * job.requested, 9))
        out.append(dataclasses.replace(job, deadline=deadline))
    return tuple(out)
