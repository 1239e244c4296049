"""Validation: independent feasibility checks, reference solvers, cross-validation, studies.

The top layer (instances ← planner ← models ← validation).
"""

from validation.brute import brute_force, brute_force_value, earliest_start
from validation.check import RULES, check_alternatives, check_window
from validation.study import Store, StudySpec, run_study, summarise

__all__ = [
    "RULES",
    "Store",
    "StudySpec",
    "brute_force",
    "brute_force_value",
    "check_alternatives",
    "check_window",
    "earliest_start",
    "run_study",
    "summarise",
]
