"""Studies: a shared engine and one folder per study kind (docs/studies.md).

- :mod:`engine`: what every kind shares: the :class:`~engine.kind.StudyKind` interface
  and its typed :class:`~engine.kind.Report`, the SQLite store (:mod:`engine.storage`,
  :mod:`engine.locks`), the run loop (:mod:`engine.runner`), the executors (serial,
  process pool, Dask: :mod:`engine.executors`, :mod:`engine.dask`), the report layout
  (:mod:`engine.document`) and its Findings (:mod:`engine.findings`), figures and
  exports;
- :mod:`gap`, :mod:`cluster`, :mod:`schedule_gap`: the three kinds, each a folder with
  its spec, task, store, findings, report and ``kind.py``;
- :mod:`registry`: every kind, one line each; :mod:`reproduce`: the paper experiments.

The engine never imports a kind; a kind imports only the engine and its own folder.
This package re-exports the gap study's Python API (``run_study``, ``Store``, ...).
"""

from validation.study.engine.dask import DaskExecutor
from validation.study.engine.errors import StudyError, StudyFailure, WorkerLost
from validation.study.engine.executors import (
    LocalExecutor,
    SerialExecutor,
    default_workers,
    make_executor,
)
from validation.study.engine.export import export_csv, export_parquet
from validation.study.engine.kind import Outcome as StudyOutcome
from validation.study.engine.kind import Report, StudyKind
from validation.study.engine.runner import StudyStopped
from validation.study.engine.seeds import instance_seed
from validation.study.gap import (
    COLUMNS,
    DEFAULT_TOOLKIT,
    SUMMARY_COLUMNS,
    TIMING_COLUMNS,
    InstanceResult,
    Outcome,
    SolveInterrupted,
    Store,
    StudySpec,
    Toolkit,
    evaluate_instance,
    relative_gap,
    resolve,
    run_study,
    summarise,
    write_report,
)

__all__ = [
    "COLUMNS",
    "DEFAULT_TOOLKIT",
    "SUMMARY_COLUMNS",
    "TIMING_COLUMNS",
    "DaskExecutor",
    "InstanceResult",
    "LocalExecutor",
    "Outcome",
    "Report",
    "SerialExecutor",
    "SolveInterrupted",
    "Store",
    "StudyError",
    "StudyFailure",
    "StudyKind",
    "StudyOutcome",
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
    "write_report",
]
