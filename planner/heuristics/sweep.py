"""The forward pass of docs/algorithms.md over the start-sorted slots, shared by every algorithm.

Reading slot j sets the window start T to its start; the *alive* set holds
the slots read so far whose remaining length still fits their task,
``e − T ≥ d`` (Toporkov et al. 2011 step 4°). A slot's latest start ``e − d`` is its
expiry key in a min-heap, so expiry pops exactly the slots that die at a
step and never rescans the alive set. The alive slots are also kept sorted
by (cost, read index) in a list of integer keys ``cost · K + i``, which
gives the n cheapest (AMP, minCost, Lite selectors) in O(n).

Geometry (docs/concepts.md, Toporkov & Yemelyanov 2018 §3.2): a rough pass gives slot i the task
duration ``duration(V, p_i)``. A square pass at the *performance level* p_k
(docs/algorithms.md) gives every task the duration ``D = duration(V, p_k)``, admits
only the slots of nodes with p ≥ p_k, and evaluates a step only when an
alive slot has performance exactly p_k (the skip rule, Toporkov & Yemelyanov 2018 step
3c(5)i): otherwise every window of the step was met at a faster level.
:func:`performance_levels` lists these levels, fastest first; the seeds'
heuristics (FirstFit, the Lite forms, the swap and random selectors) run
them as docs/algorithms.md says.

Two performance levels can share a duration (``ceil(V/p)`` equal, e.g.
p = 2 and 2.5 for V = 5). Such levels give every admitted slot the same task
length, and the slowest of them admits all the others' slots, so an exact
selector loses nothing by running one *duration level* D per distinct
duration instead (:func:`levels`; it admits the slots whose rough duration
is ≤ D and needs an alive slot of rough duration exactly D): its optimum
over a superset of the same windows is the same. A heuristic's window can
differ (its n cheapest are taken from a larger set), so the heuristics keep
the performance levels.

docs/concepts.md defines the AEP space as the windows whose start is the start of
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
    performance
        The square performance level p_k (``level`` is then
        ``duration(V, p_k)``): admit the slots of nodes with p ≥ p_k and
        evaluate a step only with a slot of performance exactly p_k alive.
        None: the duration level ``level`` (admit rough duration ≤ D, need
        one of exactly D).
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

    def __init__(
        self,
        feed: Feed,
        level: int | None = None,
        *,
        last_of_start: bool = False,
        performance: float | None = None,
    ):
        self.feed = feed
        self.level = level
        self.performance = performance
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
        start, end, rough, perf = feed.start, feed.end, feed.rough, feed.perf
        price, costs, cost = feed.price, feed._costs, feed.cost
        p_k = self.performance
        heap: list[tuple[int, int]] = []
        keys = self.keys
        by_rough = self.by_rough
        K = self.K
        last_of_start = self.last_of_start
        pop, push = heapq.heappop, heapq.heappush
        front, exact = self.front, self.exact_alive  # mirrored to self at every yield
        i = 0
        while i < len(start) or feed.read():
            t = start[i]
            while heap and heap[0][0] < t:
                key = pop(heap)[1]
                pos = bisect_left(keys, key)
                del keys[pos]
                if pos < n:
                    front += 1
                j = key % K
                r = rough[j]
                by_rough[r] -= 1
                if (r == level) if p_k is None else (perf[j] == p_k):
                    exact -= 1
            r = rough[i]
            if level is None or ((r <= level) if p_k is None else (perf[i] >= p_k)):
                d = r if level is None else level
                if end[i] - t >= d:
                    c = costs.get((price[i], d))
                    key = (cost(i, d) if c is None else c) * K + i
                    push(heap, (end[i] - d, key))
                    pos = bisect_left(keys, key)
                    keys.insert(pos, key)
                    if pos < n:
                        front += 1
                    by_rough[r] = by_rough.get(r, 0) + 1
                    if (r == level) if p_k is None else (perf[i] == p_k):
                        exact += 1
            i += 1
            if last_of_start and (i < len(start) or feed.read()) and start[i] == t:
                continue
            if len(keys) >= n and (level is None or exact):
                self.T, self.front, self.exact_alive = t, front, exact
                yield t
        self.front, self.exact_alive = front, exact
        if start:
            self.T = start[-1]


def levels(feed: Feed) -> list[int]:
    """Return the square duration levels (distinct rough durations), fastest first."""
    return sorted(set(feed.read_all().rough))


def performance_levels(feed: Feed) -> list[tuple[float, int]]:
    """Return the docs/algorithms.md square levels ``(p_k, duration(V, p_k))``, fastest first.

    p_k runs over the distinct performances (Toporkov & Yemelyanov 2018 step 3) of the nodes
    holding the job's
    suitable slots.
    """
    feed.read_all()
    rough = dict(zip(feed.perf, feed.rough, strict=True))
    return [(p, rough[p]) for p in sorted(rough, reverse=True)]
