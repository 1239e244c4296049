"""What a Findings section is computed from: observations of one measure (docs/studies.md).

Every study kind turns its rows into :class:`Observation` records of one
:class:`Measure`; :mod:`validation.study.engine.findings` and
:mod:`validation.study.engine.findings_pairs` state what they show.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from validation.study.engine.intervals import MIN_BOOTSTRAP, bootstrap_mean

TOLERANCE = 1e-9


@dataclass(frozen=True)
class Measure:
    """What an observation's value is.

    ``optimum``: 0 is the optimum (a gap), so "optimal on every row" applies;
    otherwise only lower-is-better is assumed. ``percent``: print values as %.
    """

    name: str
    unit: str = ""
    optimum: bool = True
    percent: bool = False
    digits: int = 2

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a measure needs a name")
        if not 0 <= self.digits <= 6:
            raise ValueError(f"digits must be in 0..6, got {self.digits}")

    def number(self, value: float) -> str:
        """Return ``value`` without its unit (percent values multiplied by 100)."""
        if self.percent:
            return f"{100 * value:.{max(self.digits - 1, 1)}f}"
        return f"{value:,.{self.digits}f}"

    def suffix(self) -> str:
        """Return the unit as printed after a number ("" for none)."""
        return "%" if self.percent else f" {self.unit}" if self.unit else ""

    def format(self, value: float) -> str:
        """Return ``value`` in the measure's unit."""
        return self.number(value) + self.suffix()

    def interval(self, lo: float, hi: float) -> str:
        """Return ``[lo, hi] unit``."""
        return f"[{self.number(lo)}, {self.number(hi)}]{self.suffix()}"


@dataclass(frozen=True)
class Observation:
    """One subject (heuristic, policy) on one unit (instance × job, seed, snapshot) of a group.

    ``value``: the measure (None when not measured). ``missed``: the subject found
    nothing where the reference found an answer (its value is then None).
    """

    group: str
    subject: str
    unit: str
    value: float | None
    missed: bool = False

    def __post_init__(self) -> None:
        if self.missed and self.value is not None:
            raise ValueError("a missed observation has no value")


def cell_seed(seed: int, *keys: str) -> int:
    """Return the bootstrap seed of a cell: the study seed plus a stable hash of its names."""
    return seed + zlib.crc32("\x1f".join(keys).encode())


def where(group: str) -> str:
    """Return " on GROUP" (nothing for the one-group studies)."""
    return f" on {group}" if group else ""


def mean_interval(m: Measure, values: list[float], seed: int, *keys: str,
                  unit: str = "") -> tuple[str, tuple[float, float] | None]:  # fmt: skip
    """Return "(95% CI [lo, hi], bootstrap, n = N)" for the mean of ``values`` and the
    interval; below :data:`~validation.study.engine.intervals.MIN_BOOTSTRAP` values the
    interval is withheld ("n = 4: too few values for an interval") and None returned.

    ``unit`` follows n ("paired"); ``keys`` name the cell (its bootstrap seed).
    """
    n = f"n = {len(values)}{' ' + unit if unit else ''}"
    if len(values) < MIN_BOOTSTRAP:
        return f"({n}: too few values for an interval)", None
    lo, hi = bootstrap_mean(values, cell_seed(seed, *keys))
    return f"(95% CI {m.interval(lo, hi)}, bootstrap, {n})", (lo, hi)
