"""planner: windows, slot-search heuristics, alternatives search and the CLI.

Depends on :mod:`instances` only (instances ← planner ← models ← validation).
"""

__version__ = "0.1.0"

from planner.window import METRICS, Placement, Window, make_window, task_durations

__all__ = ["METRICS", "__version__", "Placement", "Window", "make_window", "task_durations"]
