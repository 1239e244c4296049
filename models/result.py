"""The one result type every exact solver returns (status, objective, bound, runtime, solution)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["optimal", "feasible", "infeasible", "unknown"]
STATUSES: tuple[str, ...] = ("optimal", "feasible", "infeasible", "unknown")


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
    def window(self) -> Any:
        """Return the single window of a window-selection result (None if there is none)."""
        return self.windows[0] if self.windows else None
