"""The exact baseline for every VO job-flow method: joint optimum of a small cycle vs each policy.

The same ``css2015`` cycles as the slicer reproduction's exact baseline
(6 jobs on 12 nodes, or the paper's 20 jobs on 24 nodes) are solved by the joint model (most jobs
placed, then least Σ proc_time, every job's budget; docs/exact-models.md)
and scheduled by backfilling (conservative and EASY-like), CSS, the
batch-slicer (k = 1 and 3) and BSF (share 0.5). Gap: (policy − optimum) /
optimum of Σ proc_time on the proven cycles where the policy placed as many
jobs as the optimum (the share of cycles where it placed fewer is reported
beside); gap vs bound on every cycle with a proven bound
(:mod:`validation.study.reproduce.vo_exact`).
"""

from __future__ import annotations

from typing import Any

from validation.study.reproduce.vo_common import Tally
from validation.study.reproduce.vo_exact import ExactOptions, add_exact_rows, exact_tally

LABELS = ("backfill", "easy", "css", "slicer k=1", "slicer k=3", "bsf 0.5")


def policies() -> list[tuple[str, Any]]:
    """Return (label, policy) for every method compared with the optimum."""
    from planner.vo import BSF, CSS, Backfill, BatchSlicer, EasyBackfill

    objs = [Backfill(), EasyBackfill(), CSS("amp"), BatchSlicer(1), BatchSlicer(3), BSF(0.5)]
    return list(zip(LABELS, objs, strict=True))


def exact_gaps(lo: int, hi: int, *, seed: int, exact: ExactOptions | None = None) -> Tally:
    """Solve cycles ``lo..hi-1`` exactly and by every method; tally T_batch, placed and gaps."""
    return exact_tally(lo, hi, seed=seed, policies=policies(), exact=exact)


def add_rows(cmp: Any, x: Tally, exact: ExactOptions | None = None) -> None:
    """Append the exact-baseline rows of ``x`` (and its summary note) to comparison ``cmp``."""
    add_exact_rows(cmp, x, LABELS, exact or ExactOptions())
