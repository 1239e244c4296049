"""Exact models: window selection, batch combination and joint co-allocation.

Depends on :mod:`planner` and :mod:`instances` (instances ← planner ← models ← validation).
"""

from models.result import STATUSES, Result

__all__ = ["STATUSES", "Result"]
