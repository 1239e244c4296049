"""Run a cluster-policy study: skip the replays already stored, run the rest, store each row."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from planner.progress import Progress
from validation.study.cluster.spec import ClusterStudySpec
from validation.study.cluster.store import ClusterStore
from validation.study.cluster.task import run_task
from validation.study.executors import Executor, SerialExecutor
from validation.study.runner import drain


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
        from planner import __version__ as version
    study = store.study(spec, version)
    done = store.done(study)
    tasks = spec.tasks()
    todo = [t for t in tasks if (t.workload, t.seed, t.estimates, t.policy) not in done]
    executor = executor or SerialExecutor()
    bar = Progress(len(tasks), len(tasks) - len(todo), label="cluster study: replays",
                   enabled=progress)
    written = drain(executor, run_task, todo, functools.partial(store.write, study), bar,
                    stop_after=stop_after, unit="replay")  # fmt: skip
    rows = store.rows(study)
    return ClusterOutcome(study, len(rows), written, sum(r["violations"] for r in rows))
