"""The gap study: slot-search heuristics against the exact optimum (docs/studies.md).

Layers: :mod:`spec` (what is computed), :mod:`toolkit` (injectable components),
:mod:`task` (one instance → rows), :mod:`store` (SQLite), :mod:`runner`
(:func:`run_study`), :mod:`metrics` (gap, summary), :mod:`findings`, :mod:`plots`,
:mod:`report`, and :mod:`kind` (the ``planner study gap`` kind).
"""

from validation.study.gap.kind import GAP, QUICK, GapKind
from validation.study.gap.metrics import SUMMARY_COLUMNS, relative_gap, summarise
from validation.study.gap.runner import Outcome, gap_units, resolve, run_study
from validation.study.gap.spec import StudySpec
from validation.study.gap.store import COLUMNS, Store
from validation.study.gap.task import TIMING_COLUMNS, InstanceResult, evaluate_instance
from validation.study.gap.toolkit import DEFAULT_TOOLKIT, SolveInterrupted, Toolkit

write_report = GAP.write_report
"""Write a gap study's report: ``write_report(store, study, out, formats=("png",))``."""

__all__ = [
    "COLUMNS",
    "DEFAULT_TOOLKIT",
    "GAP",
    "QUICK",
    "SUMMARY_COLUMNS",
    "TIMING_COLUMNS",
    "GapKind",
    "InstanceResult",
    "Outcome",
    "SolveInterrupted",
    "Store",
    "StudySpec",
    "Toolkit",
    "evaluate_instance",
    "gap_units",
    "relative_gap",
    "resolve",
    "run_study",
    "summarise",
    "write_report",
]
