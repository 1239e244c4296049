"""Batch combination (docs/concepts.md, Toporkov et al. 2015 §2.3): one alternative per job,
problems (6)–(9)."""

from models.combination.policy import VoPolicy
from models.combination.problem import PROBLEMS, TIMES, Problem, Table
from models.combination.solve import COMBINATION_SOLVERS, solve_combination

__all__ = ["COMBINATION_SOLVERS", "PROBLEMS", "TIMES", "Problem", "Table", "VoPolicy",
           "solve_combination"]
