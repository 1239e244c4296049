"""The one result type every exact solver returns (status, objective, bound, runtime, solution)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from planner.deadline import TIME_LIMIT_MAX

Status = Literal["optimal", "feasible", "infeasible", "unknown"]
STATUSES: tuple[str, ...] = ("optimal", "feasible", "infeasible", "unknown")

__all__ = ["LIMIT_MAX", "STATUSES", "TIME_LIMIT_MAX", "Result", "Status"]

LIMIT_MAX = 2**62
"""Largest combination limit t* or b*: CP-SAT computes its sums in 64-bit integers."""


@dataclass(frozen=True)
class Result:
    """The outcome of an exact solve.

    Parameters
    ----------
    status
        ``optimal`` (proven), ``feasible`` (a limit stopped the proof; ``bound``
        holds the best proven bound), ``infeasible`` (proven), or ``unknown``.
    objective
        The objective value of the returned solution (None without one).
    bound
        The best proven bound on the objective (None when the solver gives none).
    runtime
        Wall-clock seconds, model building included.
    solver
        The backend's registry name (``cpsat``, ``milp``, ``dp``, ...).
    windows
        The solution: the chosen window(s), in job order.
    info
        Problem-specific extras (e.g. ``postponed`` jobs of a combination).
    """

    status: Status
    objective: float | None
    bound: float | None
    runtime: float
    solver: str
    windows: tuple[Any, ...] = ()
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        if self.status in ("optimal", "feasible") and self.objective is None:
            raise ValueError(f"a {self.status} result needs an objective")
        object.__setattr__(self, "windows", tuple(self.windows))

    @property
    def is_optimal(self) -> bool:
        """Return True when the solver proved the objective optimal."""
        return self.status == "optimal"

    @property
    def gap(self) -> float | None:
        """Return the proven optimality gap ``|objective − bound| / max(|objective|, 1)``.

        0.0 for a proven optimum; None without an objective or a bound. The
        denominator is floored at one unit, as in the gap studies
        (docs/studies.md), so an objective of 0 gives the absolute gap.
        """
        if self.status == "optimal":
            return 0.0
        if self.objective is None or self.bound is None:
            return None
        return abs(self.objective - self.bound) / max(abs(self.objective), 1.0)

    @property
    def proof(self) -> str:
        """Return what is proven, for display: ``optimal``, ``within x % (bound b)`` (x the
        :attr:`gap` in percent), ``no proven bound``, ``infeasible`` or ``unknown``."""
        if self.status == "optimal":
            return "optimal"
        if self.status == "feasible":
            if self.gap is None:
                return "no proven bound"
            return f"within {100 * self.gap:.2f} % (bound {self.bound:g})"
        return self.status

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict: status, objective, bound, gap, runtime, solver, windows, info.

        Windows are window objects as in docs/formats.md with their ``job``
        id first; ``info`` values that JSON cannot hold (tuples, sets, other
        objects) become lists or strings.
        """
        return {
            "status": self.status,
            "objective": self.objective,
            "bound": self.bound,
            "gap": self.gap,
            "runtime": self.runtime,
            "solver": self.solver,
            "windows": [_window(w) for w in self.windows],
            "info": _plain(self.info),
        }

    @property
    def window(self) -> Any:
        """Return the single window of a window-selection result (None if there is none)."""
        return self.windows[0] if self.windows else None


def _window(window: Any) -> Any:
    """Return a window object with its job id first (other values as :func:`_plain`)."""
    if hasattr(window, "to_dict"):
        return _plain({"job": getattr(window, "job", None), **window.to_dict()})
    return _plain(window)


def _plain(value: Any) -> Any:
    """Return ``value`` with only JSON types (dict keys as strings)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict())
    return str(value)
