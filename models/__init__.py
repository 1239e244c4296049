"""Exact models: window selection, batch combination and joint co-allocation.

Depends on :mod:`planner` and :mod:`instances` (instances ← planner ← models ← validation).
"""

from models.combination import COMBINATION_SOLVERS, PROBLEMS, solve_combination
from models.joint import JOINT_SOLVERS, solve_joint
from models.result import STATUSES, Result
from models.solve import SOLVERS, solve_window

__all__ = [
    "COMBINATION_SOLVERS",
    "JOINT_SOLVERS",
    "PROBLEMS",
    "SOLVERS",
    "STATUSES",
    "Result",
    "solve_combination",
    "solve_joint",
    "solve_window",
]
