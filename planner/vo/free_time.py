"""Free time of a cycle during an execution replay (Toporkov et al. 2015, §7.2).

Per node, the free slots in start order; time given back merges with the
free time next to it inside the same free slot of the instance (a released
tail joins the free time after it), so every free slot lies inside one
slot of the instance and a window found on them is a window of the
instance.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping

from instances import Instance, Slot, subtract_interval


class FreeTime:
    """Free slots per node, sorted by start.

    Parameters
    ----------
    instance
        The cycle's instance: its free slots before the cycle, which also
        price any time given back.
    """

    def __init__(self, instance: Instance) -> None:
        self.by_node: dict[str, list[Slot]] = {}
        for s in instance.slots:
            self.by_node.setdefault(s.node, []).append(s)
        for iv in self.by_node.values():
            iv.sort(key=lambda s: s.start)
        self._base = {node: (list(iv), [s.start for s in iv]) for node, iv in self.by_node.items()}

    def slots(self, order: Mapping[str, int], t: int, before: int | None = None) -> list[Slot]:
        """Return the slots ending after ``t`` and starting before ``before``, by (start, node)."""
        out = [s for iv in self.by_node.values() for s in iv
               if s.end > t and (before is None or s.start < before)]  # fmt: skip
        return sorted(out, key=lambda s: (s.start, order[s.node]))

    def host(self, node: str, start: int, end: int) -> Slot | None:
        """Return the free slot of ``node`` holding ``[start, end)``, or None."""
        for s in self.by_node.get(node, ()):
            if s.start <= start and end <= s.end:
                return s
        return None

    def take(self, node: str, start: int, end: int) -> None:
        """Mark ``[start, end)`` on ``node`` busy (AssertionError if it is not free)."""
        iv = self.by_node[node]
        for k, s in enumerate(iv):
            if s.start <= start and end <= s.end:
                iv[k : k + 1] = subtract_interval(s, start, end)
                return
        raise AssertionError(f"[{start}, {end}) on '{node}' is not free")

    def give(self, node: str, start: int, end: int) -> None:
        """Make ``[start, end)`` on ``node`` free again."""
        base = self.base(node, start, end)
        iv = self.by_node.setdefault(node, [])
        k = 0
        while k < len(iv) and iv[k].start < start:
            k += 1
        if k > 0 and iv[k - 1].end == start and iv[k - 1].start >= base.start:
            k -= 1
            start = iv.pop(k).start
        if k < len(iv) and iv[k].start == end and iv[k].end <= base.end:
            end = iv.pop(k).end
        iv.insert(k, Slot(node, start, end, base.price))

    def base(self, node: str, start: int, end: int) -> Slot:
        """Return the instance's free slot holding ``[start, end)`` on ``node``."""
        slots, starts = self._base.get(node, ([], []))
        k = bisect_right(starts, start) - 1
        if k < 0 or end > slots[k].end:
            raise AssertionError(f"[{start}, {end}) on '{node}' is in no free slot of the instance")
        return slots[k]
