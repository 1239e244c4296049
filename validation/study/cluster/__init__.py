"""Cluster-policy studies: replay workloads under each policy, store rows, report.

Layers: :mod:`spec` (what is replayed), :mod:`task` (one checked replay),
:mod:`store` (SQLite, resumable), :mod:`runner` (the executors of
:mod:`validation.study.executors`), :mod:`report` (table and figures).
"""

from validation.study.cluster.report import summarise, text_table, write_report
from validation.study.cluster.runner import ClusterOutcome, run_cluster_study
from validation.study.cluster.spec import ClusterStudySpec, Task
from validation.study.cluster.store import ClusterStore
from validation.study.cluster.task import run_task

__all__ = [
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
