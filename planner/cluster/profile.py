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

    def _split(self, t: int) -> int:
        times = self.times
        k = bisect_right(times, t) - 1
        if times[k] != t:
            k += 1
            times.insert(k, t)
            self.free.insert(k, self.free[k - 1])
        return k

    def add(self, a: int, b: int, delta: int) -> None:
        """Add ``delta`` free CPUs on ``[a, b)`` (negative: occupy them)."""
        if a >= b:
            return
        ka = self._split(a)
        kb = self._split(b)
        free, times = self.free, self.times
        for k in range(ka, kb):
            free[k] += delta
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

    def trim(self, now: int) -> None:
        """Forget the steps that ended by ``now``."""
        k = bisect_right(self.times, now) - 1
        if k > 0:
            del self.times[:k], self.free[:k]
