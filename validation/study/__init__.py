"""Studies: the optimality-gap study at this level, cluster and schedule-gap studies below.

See docs/studies.md. The layer the three kinds share: :mod:`kinds` (the registry: each
kind's store, spec, task, listing and report), :mod:`storage` (the SQLite store every kind
extends), :mod:`locks` (run lock, Ctrl-C during commits), :mod:`runner` (``run_units``, the
loop every kind runs), :mod:`executors` (serial, process pool, Dask), :mod:`document` (the
report layout and its Findings section), :mod:`export` (CSV, Parquet). The gap study:
:mod:`spec` (parameters, seeds), :mod:`toolkit` (injectable components), :mod:`task` (one
instance → rows), :mod:`store`, :mod:`metrics` (gap, summary), :mod:`plots`, :mod:`report`;
:mod:`cluster` and :mod:`schedule` hold the other two kinds; :mod:`reproduce` the paper
experiments.
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
