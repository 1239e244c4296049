"""planner: windows, slot-search heuristics, alternatives search and the CLI.

Depends on :mod:`instances` only (instances ← planner ← models ← validation).
The names below are imported on first use (PEP 562), so ``import planner.cli``
stays light: the command line handles Ctrl-C from its first instant.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "Alternatives": "planner.alternatives",
    "find_alternatives": "planner.alternatives",
    "search": "planner.heuristics",
    "ALGORITHMS": "planner.registry",
    "ALIASES": "planner.registry",
    "Algorithm": "planner.registry",
    "resolve": "planner.registry",
    "METRICS": "planner.window",
    "Placement": "planner.window",
    "Window": "planner.window",
    "make_window": "planner.window",
    "task_durations": "planner.window",
}

if TYPE_CHECKING:
    from planner.alternatives import Alternatives, find_alternatives
    from planner.heuristics import search
    from planner.registry import ALGORITHMS, ALIASES, Algorithm, resolve
    from planner.window import METRICS, Placement, Window, make_window, task_durations


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'planner' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


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
