"""Importing the optional solver libraries so that they coexist in one process.

ortools 9.15 and highspy 1.15 each bundle their own HiGHS; whichever is
imported second fails with an undefined-symbol ImportError. PuLP imports
highspy (if installed) as soon as it is imported itself, so ``import pulp``
before OR-Tools breaks CP-SAT. :func:`import_pulp` imports PuLP with highspy
hidden, so PuLP's in-process HiGHS is disabled (the CBC binary and the
subprocess HiGHS of :mod:`models.window.highs_proc` are unaffected) and
CP-SAT stays importable. Every module of :mod:`models` imports PuLP through it.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType


def import_pulp() -> ModuleType:
    """Return the ``pulp`` module, imported without letting it load highspy."""
    if "pulp" in sys.modules:
        return sys.modules["pulp"]
    hidden = "highspy" not in sys.modules
    if hidden:
        sys.modules["highspy"] = None  # type: ignore[assignment]  # makes `import highspy` fail
    try:
        return importlib.import_module("pulp")
    finally:
        if hidden:
            del sys.modules["highspy"]


def loaded() -> dict[str, bool]:
    """Return which solver libraries the current process has imported."""
    return {name: name in sys.modules for name in ("ortools", "pulp", "highspy")}
