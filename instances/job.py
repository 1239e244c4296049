"""Jobs, i.e. resource requests (docs/concepts.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from instances.checks import require_id, require_int, require_real, require_text
from instances.criteria import CRITERIA
from instances.errors import DataError
from instances.limits import (
    BUDGET_MAX,
    NODES_MAX,
    PERFORMANCE_MAX,
    PRICE_MAX,
    REAL_MAX,
    TIME_MAX,
    VOLUME_MAX,
)
from instances.node import AttributeValue, Node
from instances.units import budget_from_price, price_cap


@dataclass(frozen=True)
class Job:
    """A parallel job asking for ``nodes`` slots on different nodes that start together.

    Parameters
    ----------
    id
        Unique job name.
    nodes
        Number of nodes n >= 1.
    volume
        Run time V > 0 on an etalon node (p = 1); a task runs ceil(V/p) quanta.
    min_performance
        Minimum node performance P (default 0).
    budget
        Integer cap S on the window cost; see :attr:`effective_budget`.
    max_price
        Per-quantum price cap C used by ALP (Toporkov et al. 2011 §2).
    requirements
        Attribute → minimum number or exact string.
    criterion
        Name of a docs/concepts.md criterion (default ``min_start``).
    deadline, release
        Optional integer bounds: the window starts at or after ``release`` and
        finishes at or before ``deadline``.
    priority
        Optional number, carried for job-flow policies.
    """

    id: str
    nodes: int
    volume: float
    min_performance: float = 0.0
    budget: int | None = None
    max_price: float | None = None
    requirements: dict[str, AttributeValue] = field(default_factory=dict)
    criterion: str = "min_start"
    deadline: int | None = None
    release: int | None = None
    priority: float | None = None

    def __post_init__(self) -> None:
        require_id("id", self.id)
        require_int("nodes", self.nodes, 1, NODES_MAX)
        object.__setattr__(
            self, "volume", require_real("volume", self.volume, positive=True, high=VOLUME_MAX)
        )
        object.__setattr__(
            self,
            "min_performance",
            require_real(
                "min_performance", self.min_performance, nonnegative=True, high=PERFORMANCE_MAX
            ),
        )
        if self.budget is not None:
            require_int("budget", self.budget, 0, BUDGET_MAX)
        if self.max_price is not None:
            object.__setattr__(
                self,
                "max_price",
                require_real("max_price", self.max_price, nonnegative=True, high=PRICE_MAX),
            )
        if not isinstance(self.requirements, dict):
            raise DataError("requirements", "must be an object")
        for name, value in self.requirements.items():
            if not isinstance(name, str):
                raise DataError("requirements", "names must be strings")
            require_text("requirements", name)
            if isinstance(value, str):
                require_text(f"requirements.{name}", value)
            else:
                require_real(f"requirements.{name}", value, high=REAL_MAX)
        if not isinstance(self.criterion, str) or self.criterion not in CRITERIA:
            raise DataError("criterion", f"must be one of {', '.join(CRITERIA)}")
        if self.deadline is not None:
            require_int("deadline", self.deadline, -TIME_MAX, TIME_MAX)
        if self.release is not None:
            require_int("release", self.release, -TIME_MAX, TIME_MAX)
        if self.release is not None and self.deadline is not None and self.release >= self.deadline:
            raise DataError("deadline", "must be greater than release")
        if self.priority is not None:
            priority = require_real("priority", self.priority, high=REAL_MAX)
            object.__setattr__(self, "priority", priority)

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def effective_budget(self) -> int | None:
        """Return S: ``budget``, else floor(C·V·n) from ``max_price``, else None (unbounded)."""
        if self.budget is not None:
            return self.budget
        if self.max_price is not None:
            return budget_from_price(self.max_price, self.volume, self.nodes)
        return None

    @property
    def price_cap(self) -> float | None:
        """Return ALP's per-quantum price cap C (Toporkov et al. 2011 §3, condition 2°c).

        ``max_price`` when given; else the budget shared evenly over the
        job's n tasks of V quanta, C = S / (V · n) (Toporkov et al. 2011 §4: a window
        total of 30 on three nodes is a cap of 10 per slot); else None. A float,
        for display: ALP compares prices with the exact value
        (:func:`instances.units.price_cap`).
        """
        cap = price_cap(self.max_price, self.budget, self.volume, self.nodes)
        return None if cap is None else float(cap)

    def suits(self, node: Node) -> bool:
        """Return True when ``node`` meets the minimum performance and every requirement."""
        if node.performance < self.min_performance:
            return False
        for name, wanted in self.requirements.items():
            have = node.attributes.get(name)
            if have is None:
                return False
            if isinstance(wanted, str):
                if have != wanted:
                    return False
            elif isinstance(have, str) or have < wanted:
                return False
        return True
