"""planner: windows, slot-search heuristics, alternatives search and the CLI.

Depends on :mod:`instances` only (instances ← planner ← models ← validation).
"""

__version__ = "0.1.0"

from planner.alternatives import Alternatives, find_alternatives
from planner.heuristics import search
from planner.registry import ALGORITHMS, ALIASES, Algorithm, resolve
from planner.window import METRICS, Placement, Window, make_window, task_durations

__all__ = [
    "ALGORITHMS",
    "ALIASES",
    "METRICS",
    "Algorithm",
    "Alternatives",
    "Placement",
    "Window",
    "__version__",
    "find_alternatives",
    "make_window",
    "resolve",
    "search",
    "task_durations",
]
