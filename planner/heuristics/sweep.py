"""The forward pass of SPEC §5 over the start-sorted slots, shared by every algorithm.

Reading slot j sets the window start T to its start; the *alive* set holds
the slots read so far whose remaining length still fits their task,
``e − T ≥ d`` (seed 000 step 4°). A slot's latest start ``e − d`` is its
expiry key in a min-heap, so expiry pops exactly the slots that die at a
step and never rescans the alive set. The alive slots are also kept sorted
by (cost, read index) in a list of integer keys ``cost · K + i``, which
gives the n cheapest (AMP, minCost, Lite selectors) in O(n).

Geometry (SPEC §3, seed 004 §3.2): a rough pass gives slot i the task
duration ``duration(V, p_i)``; a square pass at *level* D gives every task
the duration D and admits only slots whose own rough duration is ≤ D
(performance ≥ the level's). SPEC §5 groups nodes by performance level;
performance levels whose durations coincide (``ceil(V/p)`` equal) admit the
same slots with the same duration, so they are merged into one level per
distinct duration. The skip rule is kept: a step is evaluated only when some
alive slot has rough duration exactly D, since otherwise every window of the
step belongs to a faster level (seed 004 step 3c(5)i).

SPEC §4 defines the AEP space as the windows whose start is the start of
some suitable slot. A square level therefore reads *every* suitable slot as
a step (moving T and expiring), but only slots of its performance group
enter the alive set; the seed's loop over the group's own slots would never
try a start set by a slower node, which matters for DEP and COORD.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections.abc import Iterator

from planner.heuristics.feed import Feed

K = 1 << 32
"""Key multiplier when the feed's size is unknown: an alive key is ``cost * K + read index``.

When the feed's size is known (a slot list, or a fully read feed) the pass
uses the least power of two above n times that size instead
(:attr:`Sweep.K`), so keys stay small integers (faster to compare) and the
read indices of any n keys still sum to less than K.
"""


class Sweep:
    """One forward pass over a :class:`Feed` at one geometry level.

    Parameters
    ----------
    feed
        The job's suitable slots.
    level
        None for the rough geometry; the square level's duration D otherwise.
    last_of_start
        Evaluate only at the last slot of each distinct start (the alive set
        there contains those of the earlier steps with the same T, so exact
        selectors lose nothing). The seeds' heuristics evaluate every step.

    Attributes
    ----------
    T
        The current window start.
    keys
        The alive slots as sorted keys ``cost * K + i``.
    K, bits
        The key multiplier ``K = 2 ** bits``.
    front
        A counter bumped whenever the n cheapest alive slots change.
    """

    def __init__(self, feed: Feed, level: int | None = None, *, last_of_start: bool = False):
        self.feed = feed
        self.level = level
        self.last_of_start = last_of_start
        self.T = 0
        self.keys: list[int] = []
        self.exact_alive = 0
        self.by_rough: dict[int, int] = {}
        self.front = 0
        size = len(feed) if feed.complete else feed.capacity
        self.bits = 32 if size is None else max(1, (size * feed.n).bit_length())
        self.K = 1 << self.bits

    def alive(self) -> list[int]:
        """Return the alive slots' read indices in (cost, read index) order."""
        K = self.K
        return [k % K for k in self.keys]

    def nth_rough(self, n: int, ladder: list[int]) -> int:
        """Return the n-th smallest rough duration among the alive slots.

        ``ladder`` lists the feed's distinct rough durations in ascending
        order; the alive count per duration is kept up to date by the pass.
        """
        seen = 0
        get = self.by_rough.get
        for d in ladder:
            seen += get(d, 0)
            if seen >= n:
                return d
        return ladder[-1]

    def steps(self) -> Iterator[int]:
        """Advance the pass; yield T at every step where a window may be formed.

        A step is yielded when at least n slots are alive (and, at a square
        level, one of them has the level's own duration).
        """
        feed, level, n = self.feed, self.level, self.feed.n
        start, end, rough = feed.start, feed.end, feed.rough
        heap: list[tuple[int, int]] = []
        keys = self.keys
        cost = feed.cost
        by_rough = self.by_rough
        K = self.K
        i = 0
        while i < len(start) or feed.read():
            t = start[i]
            self.T = t
            while heap and heap[0][0] < t:
                key = heapq.heappop(heap)[1]
                pos = bisect_left(keys, key)
                del keys[pos]
                if pos < n:
                    self.front += 1
                r = rough[key % K]
                by_rough[r] -= 1
                if r == level:
                    self.exact_alive -= 1
            r = rough[i]
            if level is None or r <= level:
                d = r if level is None else level
                if end[i] - t >= d:
                    key = cost(i, d) * K + i
                    heapq.heappush(heap, (end[i] - d, key))
                    pos = bisect_left(keys, key)
                    keys.insert(pos, key)
                    if pos < n:
                        self.front += 1
                    by_rough[r] = by_rough.get(r, 0) + 1
                    if r == level:
                        self.exact_alive += 1
            i += 1
            if self.last_of_start and (i < len(start) or feed.read()) and start[i] == t:
                continue
            if len(keys) >= n and (level is None or self.exact_alive):
                yield t


def levels(feed: Feed) -> list[int]:
    """Return the square levels (distinct rough durations), fastest first (seed 004 step 3)."""
    return sorted(set(feed.read_all().rough))
