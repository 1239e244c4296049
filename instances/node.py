"""Computing nodes (docs/concepts.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from instances.checks import require_id, require_real, require_text
from instances.errors import DataError
from instances.limits import PERFORMANCE_MAX, PERFORMANCE_MIN, PRICE_MAX, Q_MAX, REAL_MAX

AttributeValue = float | int | str


@dataclass(frozen=True)
class Node:
    """A computing node: performance rate, price per quantum, q and attributes.

    Parameters
    ----------
    id
        Unique node name.
    performance
        Performance rate p > 0; the etalon node has p = 1 (Toporkov et al. 2011 §2).
    price
        Money per quantum c >= 0 (a real; costs are rounded by ``units.cost``).
    q
        Additive characteristic maximised by MaxQ-type criteria (Toporkov & Yemelyanov 2018 §3.3).
    attributes
        Name → number or string (RAM, OS, ...) matched by job requirements.
    """

    id: str
    performance: float
    price: float = 0.0
    q: float = 0.0
    attributes: dict[str, AttributeValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_id("id", self.id)
        object.__setattr__(
            self,
            "performance",
            require_real(
                "performance", self.performance, low=PERFORMANCE_MIN, high=PERFORMANCE_MAX
            ),
        )
        object.__setattr__(
            self, "price", require_real("price", self.price, nonnegative=True, high=PRICE_MAX)
        )
        object.__setattr__(self, "q", require_real("q", self.q, high=Q_MAX))
        if not isinstance(self.attributes, dict):
            raise DataError("attributes", "must be an object")
        for name, value in self.attributes.items():
            if not isinstance(name, str):
                raise DataError("attributes", "names must be strings")
            require_text("attributes", name)
            if isinstance(value, str):
                require_text(f"attributes.{name}", value)
                continue
            require_real(f"attributes.{name}", value, high=REAL_MAX)

    def __hash__(self) -> int:
        return hash(self.id)
