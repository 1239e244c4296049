"""Optimality-gap studies: every heuristic against the exact optimum on generated instances.

See the README's "Optimality-gap studies" section. Layers: :mod:`spec` (parameters, seeds),
:mod:`toolkit` (injectable components), :mod:`task` (one instance → rows),
:mod:`store` (SQLite), :mod:`export` (CSV, Parquet), :mod:`executors` (serial, process pool, Dask),
:mod:`runner`, :mod:`metrics` (gap, summary), :mod:`plots`, :mod:`report`,
:mod:`reproduce` (paper experiments).
"""

from validation.study.executors import (
    DaskExecutor,
    LocalExecutor,
    SerialExecutor,
    WorkerLost,
    default_workers,
    make_executor,
)
from validation.study.export import export_csv, export_parquet
from validation.study.metrics import SUMMARY_COLUMNS, relative_gap, summarise
from validation.study.runner import Outcome, StudyStopped, resolve, run_study
from validation.study.spec import StudyError, StudySpec, instance_seed
from validation.study.store import COLUMNS, Store
from validation.study.task import TIMING_COLUMNS, InstanceResult, evaluate_instance
from validation.study.toolkit import DEFAULT_TOOLKIT, SolveInterrupted, Toolkit

__all__ = [
    "COLUMNS",
    "DEFAULT_TOOLKIT",
    "SUMMARY_COLUMNS",
    "TIMING_COLUMNS",
    "DaskExecutor",
    "InstanceResult",
    "LocalExecutor",
    "Outcome",
    "SerialExecutor",
    "SolveInterrupted",
    "Store",
    "StudyError",
    "StudySpec",
    "StudyStopped",
    "Toolkit",
    "WorkerLost",
    "default_workers",
    "evaluate_instance",
    "export_csv",
    "export_parquet",
    "instance_seed",
    "make_executor",
    "relative_gap",
    "resolve",
    "run_study",
    "summarise",
]
