"""Result files read and checked independently (docs/verify.md).

:mod:`~validation.results.lines` reads result lines (``planner.result/1``) as
stated; :mod:`~validation.results.window` checks one window field by field;
:mod:`~validation.results.files` checks whole files (single-job windows,
alternatives, combinations). None of them imports the code whose output they
check.
"""

from validation.results.files import check_file
from validation.results.lines import (
    FORMAT,
    KINDS,
    ResultFile,
    ResultLine,
    StatedPlacement,
    StatedWindow,
    parse_results,
    read_results,
)
from validation.results.report import Report
from validation.results.window import RULES, Checked, Violation, better, check_window

__all__ = [
    "FORMAT",
    "KINDS",
    "RULES",
    "Checked",
    "Report",
    "ResultFile",
    "ResultLine",
    "StatedPlacement",
    "StatedWindow",
    "Violation",
    "better",
    "check_file",
    "check_window",
    "parse_results",
    "read_results",
]
