"""One time budget per solve: a :class:`Deadline` that every stage asks, and :class:`Share`, a
stage's part of it (docs/exact-models.md, "Time budget").

Time is handed down as an object, as PyVRP's stopping criteria are (Wouda, Lan & Kool
2024): a command or a façade turns its ``time_limit`` into one deadline at its start, and
every stage under it asks that deadline how long it has left (:meth:`Deadline.left`),
whether it has passed (:meth:`Deadline.passed`), or cuts its own shorter deadline from it
(:meth:`Deadline.stage`) — no stage computes seconds from a start time of its own, and no
sub-deadline ever ends after its parent. ``time_limit=None`` means no limit everywhere.

This module imports nothing heavy, so the command line reads :data:`DEFAULT_TIME_LIMIT`
from here before any solver is loaded.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_TIME_LIMIT: float = 60.0
"""Seconds an exact solve may run when the caller gives no ``time_limit`` (None: no limit)."""

TIME_LIMIT_MAX: float = 1e9
"""The largest finite time limit, in seconds (the solvers' clocks count in 64-bit integers)."""

Clock = Callable[[], float]
"""A monotonic clock in seconds (``time.perf_counter``; tests pass a fake one)."""


@dataclass(frozen=True)
class Share:
    """A stage's part of a time limit, in fractions of the whole limit: the stage ends once
    ``by`` of the limit has passed since the budget began, and lasts at most ``most`` of
    the limit from when it starts, but at least ``least`` of it (a stage that must find
    something, started late); never past the deadline it is cut from."""

    by: float = 1.0
    most: float = 1.0
    least: float = 0.0

    def __post_init__(self) -> None:
        for name in ("by", "most", "least"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"a share's '{name}' must be a fraction in [0, 1], got {value}")


class Deadline:
    """The moment a solve must stop, with the limit it was set from.

    Parameters
    ----------
    limit
        Seconds of the whole budget (None: no limit). A limit of 0 or less has passed at
        once; NaN is a ValueError; infinity is no limit.
    began
        The clock value the budget counts from (default: now).
    clock
        The clock (default ``time.perf_counter``).
    """

    __slots__ = ("began", "clock", "end", "limit")

    def __init__(self, limit: float | None = None, *, began: float | None = None,
                 clock: Clock = time.perf_counter) -> None:  # fmt: skip
        if limit is not None and math.isnan(limit):
            raise ValueError("time_limit must be a number of seconds or None, not NaN")
        if limit is not None and math.isinf(limit) and limit > 0:
            limit = None
        if limit is not None and limit > TIME_LIMIT_MAX:
            raise ValueError(f"time_limit must be at most 10^9 seconds (None: no limit), "
                             f"not {limit!r}")
        self.clock = clock
        self.began = clock() if began is None else began
        self.limit = None if limit is None else max(float(limit), 0.0)
        self.end: float | None = None if self.limit is None else self.began + self.limit
        """The clock value at which the deadline passes (None: never)."""

    @classmethod
    def of(cls, time_limit: float | Deadline | None, *, clock: Clock = time.perf_counter
           ) -> Deadline:  # fmt: skip
        """Return ``time_limit`` itself if it is a deadline, else a deadline ``time_limit``
        seconds from now (None: no limit)."""
        if isinstance(time_limit, Deadline):
            return time_limit
        return cls(time_limit, clock=clock)

    def _cut(self, end: float | None) -> Deadline:
        out = Deadline.__new__(Deadline)
        out.clock, out.began, out.limit = self.clock, self.began, self.limit
        out.end = end if self.end is None or end is None else min(end, self.end)
        return out

    def stage(self, share: Share) -> Deadline:
        """Return the deadline of a stage that starts now and takes ``share`` of the whole
        limit (never past this deadline; no limit stays no limit)."""
        if self.limit is None:
            return self
        now = self.clock()
        end = min(self.began + share.by * self.limit, now + share.most * self.limit)
        return self._cut(max(end, now + share.least * self.limit))

    def rest(self) -> Deadline:
        """Return a deadline that begins now and ends with this one: the budget of a solve
        handed what is left (its stages' shares are parts of that), e.g. the joint solve
        after a command's alternatives search."""
        out = self._cut(self.end)
        out.began = self.clock()
        out.limit = self.left()
        return out

    def within(self, seconds: float | None) -> Deadline:
        """Return the deadline ``seconds`` from now, never past this one (None: this one)."""
        return self if seconds is None else self._cut(self.clock() + max(seconds, 0.0))

    def early(self, seconds: float) -> Deadline:
        """Return this deadline moved ``seconds`` earlier: for a solver known to stop some
        time after it is told to (no limit stays no limit)."""
        return self if self.end is None else self._cut(self.end - seconds)

    def seconds(self, part: float) -> float | None:
        """Return ``part`` of the whole limit in seconds (None: no limit)."""
        return None if self.limit is None else part * self.limit

    def left(self) -> float | None:
        """Return the seconds left, never below 0 (None: no limit)."""
        return None if self.end is None else max(self.end - self.clock(), 0.0)

    def more_than(self, seconds: float | None) -> bool:
        """Return whether more than ``seconds`` are left (always without a limit; None
        seconds: whether any time is left)."""
        left = self.left()
        return left is None or left > (seconds or 0.0)

    def milliseconds(self) -> int:
        """Return the whole milliseconds left for a solver that counts them, at least 1; 0
        without a limit (OR-Tools' ``SetTimeLimit`` reads 0 as none)."""
        left = self.left()
        return 0 if left is None else max(1, int(1000 * left))

    def passed(self) -> bool:
        """Return whether the deadline has passed."""
        return self.end is not None and self.clock() >= self.end

    def elapsed(self) -> float:
        """Return the seconds since the budget began."""
        return self.clock() - self.began

    def __repr__(self) -> str:
        return f"Deadline(limit={self.limit}, left={self.left()})"
