"""The progress line of an exact solve, and the default time limit of every exact solve.

Every façade (:func:`models.solve_window`, :func:`models.solve_combination`,
:func:`models.solve_joint`) stops after :data:`DEFAULT_TIME_LIMIT` seconds unless told
otherwise (:mod:`planner.deadline`: one deadline per solve, asked by every stage);
``time_limit=None`` means no limit. A solve stopped by its limit returns ``feasible``
(with a proven bound) or ``unknown``, never a false ``optimal`` (docs/exact-models.md).

On interactive runs (:func:`planner.progress.interactive`: stderr is a terminal and the
``CI`` variable is not set, or ``PLANNER_PROGRESS=1``) the joint model writes one line to
stderr, rewritten in place every second by the thread of :class:`planner.progress.Ticker`
whatever the solve is doing (a GLOP, SCIP or CP-SAT call that blocks for minutes included:
the clock is read when the line is drawn, and the solvers release the GIL): stage, elapsed
seconds of the limit, incumbent, proven bound, gap, pricing rounds and tree nodes, in at
most :data:`WIDTH` columns. CP-SAT's solution and bound callbacks update it as they come
(:meth:`SearchProgress.watch`); the column generation reports each pricing round, the
neighbourhood search each improvement, branch-and-price each branching.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any, TextIO

from planner.deadline import DEFAULT_TIME_LIMIT, Clock, Deadline
from planner.progress import Ticker, interactive

__all__ = ["DEFAULT_TIME_LIMIT", "WIDTH", "SearchProgress", "fit"]

WIDTH = 79
"""Most characters of a progress line: an 80-column terminal, its last column left free (a
line that reaches it wraps on some terminals and can then no longer be rewritten)."""

EXACT_DIGITS = 12
"""Integers of up to this many digits are shown exactly; larger values with six significant
digits, so that the line keeps its width at any magnitude."""


def _num(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    if value == int(value) and abs(value) < 10**EXACT_DIGITS:
        return str(int(value))
    return f"{value:.6g}"


def _seconds(value: float) -> str:
    value = max(value, 0.0)
    if value < 600:
        return f"{value:.1f}s"
    minutes, sec = divmod(int(value), 60)
    return f"{minutes}m{sec:02d}s" if minutes < 600 else f"{minutes // 60}h{minutes % 60:02d}m"


def fit(head: str, stage: str, values: list[str], extras: list[str], width: int = WIDTH) -> str:
    """Return ``head  stage  values…  extras…`` in at most ``width`` characters: the extras are
    dropped from the last while the line is too wide, then the stage is shortened (``…``);
    the head and the values are never cut (they are sized to fit with
    :data:`EXACT_DIGITS`; a line still too wide is cut at ``width``)."""
    sep = "  "

    def join(stage_text: str, kept: list[str]) -> str:
        return sep.join(part for part in [head, stage_text, *values, *kept] if part)

    kept = list(extras)
    while kept and len(join(stage, kept)) > width:
        kept.pop()
    text = join(stage, kept)
    if len(text) > width and stage:
        room = width - len(join("", kept)) - len(sep) - 1
        text = join(stage[: max(room, 0)].rstrip() + "…" if room > 0 else "", kept)
    return text[:width]


class SearchProgress:
    """Track an exact search — its stage, pricing rounds, incumbent, proven bound and tree
    nodes — and draw it on one line (:meth:`ticking`).

    ``sign`` turns the minimised values held here back into the objective's own sense for
    display; ``deadline`` (optional) gives the clock's start and the time left (shown after
    the values); ``clock`` reads the time (a fake one in tests).
    """

    FIELDS = ("stage", "rounds", "incumbent", "bound", "nodes", "open")

    def __init__(self, label: str, *, enabled: bool | None = None, stream: TextIO | None = None,
                 sign: int = 1, deadline: Deadline | None = None,
                 clock: Clock | None = None) -> None:  # fmt: skip
        self.label, self.sign = label, sign
        self.stream = stream or sys.stderr
        self.enabled = interactive(self.stream) if enabled is None else enabled
        self.clock: Clock = clock or (deadline.clock if deadline is not None else time.perf_counter)
        self.began = deadline.began if deadline is not None else self.clock()
        self.end = deadline.end if deadline is not None else None
        self.stage = "start"
        self.rounds = 0
        self.incumbent: float | None = None
        self.bound: float | None = None
        self.nodes = 0
        self.open = 0

    def update(self, **fields: Any) -> None:
        """Set any of ``stage``, ``rounds``, ``incumbent``, ``bound``, ``nodes``, ``open``."""
        for name, value in fields.items():
            if name not in self.FIELDS:
                raise ValueError(f"a search's progress has no field '{name}'")
            setattr(self, name, value)

    def line(self, width: int = WIDTH) -> str:
        """Return the current progress text in at most ``width`` characters (values in the
        objective's own sense; the clock read now)."""
        now = self.clock()
        head = f"{self.label} {_seconds(now - self.began)}"
        shown = [None if v is None else self.sign * v for v in (self.incumbent, self.bound)]
        values = [f"best {_num(shown[0])}", f"bound {_num(shown[1])}"]
        if self.incumbent is not None and self.bound is not None:
            gap = abs(self.incumbent - self.bound) / max(abs(self.incumbent), 1.0)
            values.append(f"gap {100.0 * min(gap, 9.99):.2f}%")
        extras = [f"{_seconds(self.end - now)} left"] if self.end is not None else []
        if self.rounds:
            extras.append(f"rounds {self.rounds}")
        if self.nodes:
            extras.append(f"nodes {self.nodes} ({self.open} open)")
        return fit(head, self.stage, values, extras, width)

    def ticking(self) -> Ticker:
        """Return a :class:`planner.progress.Ticker` rewriting :meth:`line` (close it after)."""
        return Ticker(self.line, enabled=self.enabled, stream=self.stream)

    def watch(self, solver: Any, *, count: bool = False, scale: float = 1.0) -> Any:
        """Return ``solver`` (CP-SAT) with ``Solve(model)``/``StopSearch()`` that report here:
        each solution and each improved bound as it comes. ``count``: the model maximises the
        placed count (shown in the stage text); otherwise its objective, ``scale`` times the
        displayed one, is the search's (minimised when ``sign`` is 1, maximised when −1)."""
        from ortools.sat.python import cp_model

        track = self

        def found(value: float, bound: float) -> None:
            if count:
                track.update(stage=f"jobs placed: {_num(value)} found, at most {_num(bound)}")
            else:
                track.update(incumbent=track.sign * value / scale, bound=track.sign * bound / scale)

        class _Callback(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                found(self.ObjectiveValue(), self.BestObjectiveBound())

        def on_bound(value: float) -> None:
            if count:
                return
            track.update(bound=track.sign * value / scale)

        solver.best_bound_callback = on_bound
        return _Watched(solver, _Callback())


class _Watched:
    """A CP-SAT solver whose ``Solve`` passes a solution callback."""

    def __init__(self, solver: Any, callback: Any) -> None:
        self.solver, self.callback = solver, callback

    def Solve(self, model: Any) -> int:
        return self.solver.Solve(model, self.callback)

    def StopSearch(self) -> None:
        self.solver.StopSearch()
