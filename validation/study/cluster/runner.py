"""Run a cluster-policy study: skip the replays already stored, run the rest, store each row.

The loop is the one every study kind shares (:func:`validation.study.runner.run_units`).
"""

from __future__ import annotations

from dataclasses import dataclass

from validation.study.cluster.spec import ClusterStudySpec, Task
from validation.study.cluster.store import ClusterStore
from validation.study.cluster.task import run_task
from validation.study.executors import Executor
from validation.study.runner import Units, run_units


@dataclass(frozen=True)
class ClusterOutcome:
    """A finished (or resumed-and-finished) cluster study."""

    study: int
    replays: int
    written: int
    violations: int


def run_cluster_study(
    spec: ClusterStudySpec,
    store: ClusterStore,
    *,
    executor: Executor | None = None,
    version: str | None = None,
    progress: bool | None = None,
    stop_after: int | None = None,
) -> ClusterOutcome:
    """Replay every task of ``spec`` not yet in ``store``; write each row as it completes.

    ``executor`` is one of :mod:`validation.study.executors` (default: in this
    process); ``stop_after`` raises :class:`StudyStopped` after that many rows
    (tests simulate an interruption with it).
    """
    if version is None:
        from planner import __version__

        version = __version__
    tasks = spec.tasks()
    units = Units([_key(t) for t in tasks], lambda: tasks, _key, run_task,
                  store.rows, "replay", "cluster study: replays")  # fmt: skip
    study, written, rows = run_units(store, spec, version, units, executor=executor,
                                     progress=progress, stop_after=stop_after)  # fmt: skip
    return ClusterOutcome(study, len(rows), written, sum(r["violations"] for r in rows))


def _key(task: Task) -> tuple[str, int, str, str]:
    return (task.workload, task.seed, task.estimates, task.policy)
