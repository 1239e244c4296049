"""Shared pieces of the VO-flow reproductions (Toporkov et al. 2015, §6): cycles on executors.

A reproduction evaluates independent scheduling cycles ("a complete
scheduling cycle for the same job batch independently by proposed and known
algorithms", §5). Cycles are cut into chunks; each chunk runs on a study
executor (in-process, local processes or Dask) and returns a :class:`Tally`
of sums and counts; the tallies are merged in chunk order, so the result
does not depend on the executor or the worker count.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from planner.progress import advance
from validation.study.engine.executors import Executor, make_executor

CHUNK = 25
"""Cycles per executor task."""


class Tally:
    """Sums and counts by key; :meth:`mean` is None for a key never added."""

    def __init__(self) -> None:
        self.sums: dict[tuple[Any, ...], float] = {}
        self.counts: dict[tuple[Any, ...], int] = {}

    def add(self, key: tuple[Any, ...], value: float | None) -> None:
        """Add one observation (None is skipped)."""
        if value is None:
            return
        self.sums[key] = self.sums.get(key, 0.0) + float(value)
        self.counts[key] = self.counts.get(key, 0) + 1

    def merge(self, other: Tally) -> None:
        """Add ``other``'s sums and counts into this tally."""
        for key, s in other.sums.items():
            self.sums[key] = self.sums.get(key, 0.0) + s
            self.counts[key] = self.counts.get(key, 0) + other.counts[key]

    def mean(self, *key: Any) -> float | None:
        """Return the mean of ``key``'s observations, or None."""
        n = self.counts.get(key, 0)
        return self.sums[key] / n if n else None

    def count(self, *key: Any) -> int:
        """Return the number of observations of ``key``."""
        return self.counts.get(key, 0)


def _chunk(fn: Callable[..., Tally], options: dict[str, Any], bounds: tuple[int, int]) -> Any:
    return bounds[0], fn(bounds[0], bounds[1], **options)


def run_cycles(
    fn: Callable[..., Tally],
    cycles: int,
    *,
    executor: Executor | str | None = None,
    workers: int | None = None,
    **options: Any,
) -> Tally:
    """Return the merged tally of ``fn(lo, hi, **options)`` over chunks of ``range(cycles)``.

    ``fn`` must be a module-level function (it is pickled for process and
    Dask workers). ``executor`` is an executor, a kind for
    ``make_executor`` (``local``, ``dask``), or None (in-process). An
    executor object passed in stays open for further maps (a local pool is
    shut down after each map and restarts on the next); the caller closes it.
    """
    owned = not hasattr(executor, "map_unordered")
    if isinstance(executor, str):
        executor = make_executor(executor, workers=workers)
    elif executor is None:
        executor = make_executor("local", workers=1)
    assert executor is not None
    bounds = [(lo, min(lo + CHUNK, cycles)) for lo in range(0, cycles, CHUNK)]
    parts: list[tuple[int, Tally]] = []
    size = dict(bounds)
    try:
        for part in executor.map_unordered(functools.partial(_chunk, fn, options), bounds):
            parts.append(part)
            advance(size[part[0]] - part[0])
    finally:
        if owned or executor.name != "dask":
            executor.close()
    total = Tally()
    for _, part in sorted(parts, key=lambda p: p[0]):
        total.merge(part)
    return total


def close(executor: Any) -> None:
    """Close an executor object a reproduction was given (kinds and None need nothing)."""
    if hasattr(executor, "close"):
        executor.close()


def affordable(instance: Any) -> set[str]:
    """Return the ids of the jobs whose budget covers their n cheapest tasks on the cycle's nodes.

    Time is ignored: a job outside this set gets no window at any load, so
    it fails in every cycle whatever the policy (a property of the family's
    budgets, reported beside the failure rates).
    """
    from instances import cost, duration

    out = set()
    for job in instance.jobs:
        costs = sorted(cost(n.price, duration(job.volume, n.performance))
                       for n in instance.nodes if job.suits(n))  # fmt: skip
        budget = job.effective_budget
        if len(costs) >= job.nodes and (budget is None or sum(costs[: job.nodes]) <= budget):
            out.add(job.id)
    return out


def reduction(ours: float | None, base: float | None) -> float | None:
    """Return the relative reduction 1 − ours / base (None if undefined)."""
    if ours is None or not base:
        return None
    return 1.0 - ours / base
