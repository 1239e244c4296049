"""Run a cluster-policy study: skip the replays already stored, run the rest, store each row.

The loop is the one every study kind shares (:meth:`StudyKind.run
<validation.study.engine.kind.StudyKind.run>`); this is its Python entry point.
"""

from __future__ import annotations

from dataclasses import dataclass

from validation.study.cluster.kind import CLUSTER
from validation.study.cluster.spec import ClusterStudySpec
from validation.study.cluster.store import ClusterStore
from validation.study.engine.executors import Executor


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

    ``executor`` is one of :mod:`validation.study.engine.executors` (default: in this
    process); ``stop_after`` raises :class:`~validation.study.engine.runner.StudyStopped`
    after that many rows (tests simulate an interruption with it).
    """
    out = CLUSTER.run(spec, store, executor=executor, version=version, progress=progress,
                      stop_after=stop_after)  # fmt: skip
    return ClusterOutcome(out.study, len(out.rows), out.written,
                          sum(r["violations"] for r in out.rows))  # fmt: skip
