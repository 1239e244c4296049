"""Single-job slot search (docs/algorithms.md, §9): the forward pass, subset selectors, algorithms.

:func:`search` is the entry point; :mod:`planner.registry` names the algorithms.
"""

from __future__ import annotations

from collections.abc import Sequence

from instances import Instance, Job, Slot
from planner.window import Window


def search(
    instance: Instance,
    job: Job | str,
    algorithm: str,
    *,
    slots: Sequence[Slot] | None = None,
    seed: int = 0,
) -> Window | None:
    """Return the window that ``algorithm`` finds for ``job``, or None when it finds none.

    Parameters
    ----------
    instance
        The instance; its ``geometry`` selects rough or square windows (docs/concepts.md).
    job
        A job of the instance, or its id.
    algorithm
        A name or alias of :data:`planner.registry.ALGORITHMS`.
    slots
        A slot list replacing the instance's (sorted by (start, node order)).
    seed
        Seed of the random-subset selector (``min_proc_time``); nothing else is random.

    Raises
    ------
    KeyError
        Unknown algorithm or job.
    """
    from planner.registry import resolve

    algo = resolve(algorithm)
    job = instance.job(job) if isinstance(job, str) else job
    return algo.solve(instance, job, slots=slots, seed=seed)


__all__ = ["search"]
