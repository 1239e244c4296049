"""Validation: independent feasibility checks, reference solvers, cross-validation, studies.

The top layer (instances ← planner ← models ← validation).
"""

from validation.check import RULES, check_alternatives, check_window

__all__ = ["RULES", "check_alternatives", "check_window"]
