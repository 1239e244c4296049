"""The default time limit of every exact solve, and a progress line for long CP-SAT solves.

Every façade (:func:`models.solve_window`, :func:`models.solve_combination`,
:func:`models.solve_joint`) stops after :data:`DEFAULT_TIME_LIMIT` seconds
unless told otherwise; ``time_limit=None`` means no limit. A solve stopped
by its limit returns ``feasible`` (with a proven bound) or ``unknown``,
never a false ``optimal`` (docs/exact-models.md).

On interactive runs (:func:`planner.progress.interactive`: stderr is a
terminal and the ``CI`` variable is not set, or ``PLANNER_PROGRESS=1``) the
joint model writes one progress line to stderr, rewritten in place about once
a second by :class:`planner.progress.Ticker`: stage, elapsed seconds,
incumbent and proven bound.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, TextIO

from planner.progress import Ticker, interactive

DEFAULT_TIME_LIMIT: float = 60.0
"""Seconds an exact solve may run when the caller gives no ``time_limit`` (None: no limit)."""


def _num(value: float | None) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.6g}"


class SolveProgress:
    """Track a CP-SAT solve's incumbent and bound; print them on interactive runs.

    Use :meth:`wrap` on the solver before solving: it attaches a solution
    callback and a best-bound callback. ``scale`` divides the model's raw
    objective (e.g. a scaled q) for display only.
    """

    def __init__(self, label: str, *, enabled: bool | None = None,
                 stream: TextIO | None = None, scale: float = 1.0) -> None:  # fmt: skip
        self.label, self.scale = label, scale
        self.stream = stream or sys.stderr
        self.enabled = interactive(self.stream) if enabled is None else enabled
        self.began = time.perf_counter()
        self.incumbent: float | None = None
        self.bound: float | None = None
        self.solutions = 0

    def line(self) -> str:
        """Return the current progress text."""
        elapsed = time.perf_counter() - self.began
        return (f"{self.label}: {elapsed:6.1f}s  incumbent {_num(self.incumbent)}  "
                f"bound {_num(self.bound)}  solutions {self.solutions}")  # fmt: skip

    def wrap(self, solver: Any) -> Any:
        """Return an object with ``Solve(model)``/``StopSearch()`` that reports to this tracker."""
        from ortools.sat.python import cp_model

        tracker = self

        class _Callback(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                tracker.solutions += 1
                tracker.incumbent = self.ObjectiveValue() / tracker.scale
                tracker.bound = self.BestObjectiveBound() / tracker.scale

        def on_bound(value: float) -> None:
            tracker.bound = value / tracker.scale

        solver.best_bound_callback = on_bound
        return _Tracked(solver, _Callback(), self)


class _Tracked:
    """A CP-SAT solver whose ``Solve`` passes a callback and ticks a progress line."""

    def __init__(self, solver: Any, callback: Any, progress: SolveProgress) -> None:
        self.solver, self.callback, self.progress = solver, callback, progress

    def Solve(self, model: Any) -> int:
        with Ticker(self.progress.line, enabled=self.progress.enabled, stream=self.progress.stream):
            return self.solver.Solve(model, self.callback)

    def StopSearch(self) -> None:
        self.solver.StopSearch()


class SearchProgress:
    """Track a column generation or branch-and-price (docs/exact-models.md): its stage,
    pricing rounds, incumbent, proven bound and tree nodes; :meth:`ticking` shows them.

    ``sign`` turns the minimised values back into the objective's own sense for display.
    """

    def __init__(self, label: str, *, enabled: bool | None = None,
                 stream: TextIO | None = None, sign: int = 1) -> None:  # fmt: skip
        self.label, self.sign = label, sign
        self.stream = stream or sys.stderr
        self.enabled = interactive(self.stream) if enabled is None else enabled
        self.began = time.perf_counter()
        self.stage = "start"
        self.rounds = 0
        self.incumbent: float | None = None
        self.bound: float | None = None
        self.nodes = 0
        self.open = 0

    def update(self, **fields: Any) -> None:
        """Set any of ``stage``, ``rounds``, ``incumbent``, ``bound``, ``nodes``, ``open``."""
        for name, value in fields.items():
            if not hasattr(self, name):
                raise ValueError(f"a search's progress has no field '{name}'")
            setattr(self, name, value)

    def line(self) -> str:
        """Return the current progress text (values in the objective's own sense)."""
        elapsed = time.perf_counter() - self.began
        shown = [None if v is None else self.sign * v for v in (self.incumbent, self.bound)]
        text = (f"{self.label}: {elapsed:6.1f}s  {self.stage}  rounds {self.rounds}  "
                f"incumbent {_num(shown[0])}  bound {_num(shown[1])}")  # fmt: skip
        if self.incumbent is not None and self.bound is not None:
            gap = abs(self.incumbent - self.bound) / max(abs(self.incumbent), 1.0)
            text += f"  gap {100.0 * gap:.2f}%"
        if self.nodes:
            text += f"  nodes {self.nodes} (open {self.open})"
        return text

    def ticking(self) -> Ticker:
        """Return a :class:`planner.progress.Ticker` rewriting :meth:`line` (close it after)."""
        return Ticker(self.line, enabled=self.enabled, stream=self.stream)

