"""Free time slots and busy intervals on nodes (docs/concepts.md)."""

from __future__ import annotations

from dataclasses import dataclass

from instances.checks import require_id, require_int, require_real
from instances.errors import DataError
from instances.limits import PRICE_MAX, TIME_MAX


@dataclass(frozen=True, order=False)
class Slot:
    """A free interval ``[start, end)`` on one node.

    Parameters
    ----------
    node
        Id of the node the slot belongs to.
    start, end
        Integer quanta, ``start < end``.
    price
        Optional price per quantum overriding the node's (Toporkov et al. 2011 §5 prices slots).
    """

    node: str
    start: int
    end: int
    price: float | None = None

    def __post_init__(self) -> None:
        require_id("node", self.node)
        require_int("start", self.start, -TIME_MAX, TIME_MAX)
        require_int("end", self.end, -TIME_MAX, TIME_MAX)
        if self.start >= self.end:
            raise DataError("end", "must be greater than start")
        if self.price is not None:
            price = require_real("price", self.price, nonnegative=True, high=PRICE_MAX)
            object.__setattr__(self, "price", price)

    @property
    def length(self) -> int:
        """Return ``end - start``."""
        return self.end - self.start


@dataclass(frozen=True)
class Busy:
    """A busy interval ``[start, end)`` on one node: a local task or a reservation."""

    node: str
    start: int
    end: int

    def __post_init__(self) -> None:
        require_id("node", self.node)
        require_int("start", self.start, -TIME_MAX, TIME_MAX)
        require_int("end", self.end, -TIME_MAX, TIME_MAX)
        if self.start >= self.end:
            raise DataError("end", "must be greater than start")
