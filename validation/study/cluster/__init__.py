"""Cluster-policy studies: replay workloads under each policy, store rows, report.

Layers: :mod:`spec` (what is replayed), :mod:`task` (one checked replay),
:mod:`store` (SQLite, resumable), :mod:`findings`, :mod:`report` (tables and
figures), :mod:`kind` (the ``planner study cluster`` kind) and :mod:`runner`
(:func:`run_cluster_study`, the Python entry point).
"""

from validation.study.cluster.kind import CLUSTER, ClusterKind
from validation.study.cluster.report import summarise, text_table
from validation.study.cluster.runner import ClusterOutcome, run_cluster_study
from validation.study.cluster.spec import ClusterStudySpec, Task
from validation.study.cluster.store import ClusterStore
from validation.study.cluster.task import run_task

write_report = CLUSTER.write_report
"""Write a cluster study's report: ``write_report(store, study, out, formats=("png",))``."""

__all__ = [
    "CLUSTER",
    "ClusterKind",
    "ClusterOutcome",
    "ClusterStore",
    "ClusterStudySpec",
    "Task",
    "run_cluster_study",
    "run_task",
    "summarise",
    "text_table",
    "write_report",
]
