"""A machine's free-CPU profile: a step function of time (conservative backfilling).

``times[k]`` are increasing breakpoints and ``free[k]`` the free CPUs on
``[times[k], times[k+1])``; the last step lasts for ever. Running jobs (to
their planned ends) and reservations are subtracted from the machine's CPUs.
"""

from __future__ import annotations

from bisect import bisect_right


class Profile:
    """The free CPUs of one machine over time, from the last trimmed instant on."""

    __slots__ = ("free", "times")

    def __init__(self, capacity: int) -> None:
        self.times = [0]
        self.free = [capacity]

    def add(self, a: int, b: int, delta: int) -> None:
        """Add ``delta`` free CPUs on ``[a, b)`` (negative: occupy them)."""
        if a >= b:
            return
        times, free = self.times, self.free
        ka = bisect_right(times, a) - 1
        if times[ka] != a:
            ka += 1
            times.insert(ka, a)
            free.insert(ka, free[ka - 1])
        kb = bisect_right(times, b, ka) - 1
        if times[kb] != b:
            kb += 1
            times.insert(kb, b)
            free.insert(kb, free[kb - 1])
        if kb - ka == 1:
            free[ka] += delta
        else:
            free[ka:kb] = [f + delta for f in free[ka:kb]]
        if kb < len(free) and free[kb] == free[kb - 1]:
            del free[kb], times[kb]
        if ka > 0 and free[ka] == free[ka - 1]:
            del free[ka], times[ka]

    def earliest(self, need: int, length: int, now: int) -> int:
        """Return the earliest t >= now with at least ``need`` CPUs free on ``[t, t + length)``."""
        times, free = self.times, self.free
        n = len(times)
        k = bisect_right(times, now) - 1
        while True:
            while free[k] < need:
                k += 1
            t = times[k] if times[k] > now else now
            end = t + length
            j = k + 1
            while j < n and times[j] < end and free[j] >= need:
                j += 1
            if j == n or times[j] >= end:
                return t
            k = j

    def earliest_before(self, need: int, length: int, now: int, until: int) -> int:
        """Return the earliest t in ``[now, until)`` with ``need`` CPUs free on
        ``[t, min(t + length, until))``, or ``until`` when there is none.

        For a reservation that starts at ``until`` and is taken out: from
        ``until`` on its own CPUs are free, so this is its earliest start.
        """
        times, free = self.times, self.free
        n = len(times)
        k = bisect_right(times, now) - 1
        while True:
            while free[k] < need:
                k += 1
                if k == n or times[k] >= until:
                    return until
            t = times[k] if times[k] > now else now
            if t >= until:
                return until
            end = min(t + length, until)
            j = k + 1
            while j < n and times[j] < end and free[j] >= need:
                j += 1
            if j == n or times[j] >= end:
                return t
            k = j

    def trim(self, now: int) -> None:
        """Forget the steps that ended by ``now``."""
        k = bisect_right(self.times, now) - 1
        if k > 0:
            del self.times[:k], self.free[:k]
