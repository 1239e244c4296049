"""Columns of the joint master: one window of one job, with the values the master prices.

A window's value under a :class:`Linear` objective is
``a_pt·Σd + a_cost·Σcost + a_rt·max d + a_T·T``: every objective and constraint of
:func:`models.solve_joint` that column generation handles (proc_time, cost, runtime,
start, finish, combination problems (6)–(9) of Toporkov et al. 2015) is such a form.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models.joint.space import JobSpace

LINEAR_METRICS: dict[str, tuple[int, int, int, int]] = {
    "proc_time": (1, 0, 0, 0),
    "cost": (0, 1, 0, 0),
    "runtime": (0, 0, 1, 0),
    "start": (0, 0, 0, 1),
    "finish": (0, 0, 1, 1),
}
"""Metric → coefficients ``(a_pt, a_cost, a_rt, a_T)`` of its :class:`Linear` form."""


@dataclass(frozen=True)
class Linear:
    """The form ``pt·Σd + cost·Σcost + rt·max d + T·start + one`` over a window (floats: duals).

    ``one`` counts the window itself (the placed-jobs stage of the lexicographic rule).
    """

    pt: float = 0.0
    cost: float = 0.0
    rt: float = 0.0
    T: float = 0.0
    one: float = 0.0

    @classmethod
    def of(cls, metric: str, weight: float = 1.0) -> Linear:
        """Return ``weight`` times the form of a :data:`LINEAR_METRICS` metric."""
        if metric not in LINEAR_METRICS:
            raise ValueError(f"metric '{metric}' is not linear over a window's tasks")
        return cls(*(weight * a for a in LINEAR_METRICS[metric]))

    def __add__(self, other: Linear) -> Linear:
        return Linear(self.pt + other.pt, self.cost + other.cost, self.rt + other.rt,
                      self.T + other.T, self.one + other.one)

    def scaled(self, weight: float) -> Linear:
        """Return the form times ``weight``."""
        return Linear(self.pt * weight, self.cost * weight, self.rt * weight, self.T * weight,
                      self.one * weight)


@dataclass(frozen=True)
class Column:
    """Job ``j``'s window at start ``T`` on the options ``chosen`` of its :class:`JobSpace`.

    ``tasks`` holds ``(node, start, end)``; the sums are integers (docs/concepts.md units).
    """

    j: int
    T: int
    chosen: tuple[int, ...]
    tasks: tuple[tuple[str, int, int], ...]
    proc_time: int
    cost: int
    runtime: int

    def __post_init__(self) -> None:
        if len({node for node, _, _ in self.tasks}) != len(self.tasks):
            raise ValueError("a column places at most one task per node")

    @classmethod
    def build(cls, j: int, space: JobSpace, T: int, chosen: Sequence[int]) -> Column:
        """Return the column of job ``j`` starting at ``T`` on option indices ``chosen``."""
        opts = [space.options[k] for k in chosen]
        return cls(
            j=j,
            T=int(T),
            chosen=tuple(sorted(int(k) for k in chosen)),
            tasks=tuple((o.node, int(T), int(T) + o.d) for o in opts),
            proc_time=sum(o.d for o in opts),
            cost=sum(o.cost for o in opts),
            runtime=max((o.d for o in opts), default=0),
        )

    @property
    def key(self) -> tuple[int, int, tuple[int, ...]]:
        """Return the identity ``(j, T, chosen)`` (two equal keys are the same window)."""
        return self.j, self.T, self.chosen

    def value(self, form: Linear) -> float:
        """Return the window's value under ``form``."""
        return (form.pt * self.proc_time + form.cost * self.cost + form.rt * self.runtime
                + form.T * self.T + form.one)

    def metric(self, name: str) -> int:
        """Return the window's integer metric ``name`` (a :data:`LINEAR_METRICS` key)."""
        a = LINEAR_METRICS[name]
        return a[0] * self.proc_time + a[1] * self.cost + a[2] * self.runtime + a[3] * self.T
