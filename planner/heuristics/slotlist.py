"""A slot list that windows are subtracted from (docs/concepts.md, Toporkov et al. 2011 Fig. 6).

Same result as :func:`instances.subtract`, kept sorted by (start, node
order) with binary search instead of a linear scan and a re-sort per
interval, since the alternatives search subtracts hundreds of windows.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterator, Sequence

from instances import Slot, subtract_interval


class SlotList:
    """Free slots sorted by (start, node order), with per-node lookup of the slot holding a time.

    Parameters
    ----------
    slots
        The free slots (slots of one node never overlap).
    node_order
        Node id → position in the instance (breaks start ties).
    """

    def __init__(self, slots: Sequence[Slot], node_order: dict[str, int]) -> None:
        self._order = node_order
        self._keys: list[tuple[int, int]] = []
        self._slot: dict[tuple[int, int], Slot] = {}
        self._starts: dict[str, list[int]] = {}
        for s in slots:
            self._add(s)
        self._keys.sort()
        for starts in self._starts.values():
            starts.sort()

    def _add(self, s: Slot, *, keep_sorted: bool = False) -> None:
        key = (s.start, self._order[s.node])
        self._slot[key] = s
        starts = self._starts.setdefault(s.node, [])
        if keep_sorted:
            insort(self._keys, key)
            insort(starts, s.start)
        else:
            self._keys.append(key)
            starts.append(s.start)

    def __len__(self) -> int:
        return len(self._keys)

    def slots(self) -> list[Slot]:
        """Return the slots in (start, node order) order."""
        return [self._slot[k] for k in self._keys]

    def slots_from(self, t0: int) -> Iterator[Slot]:
        """Yield, in list order, the slots that still hold time at or after ``t0``.

        Those are the slots starting before ``t0`` and ending after it (at
        most one per node), then every slot starting at ``t0`` or later: the
        part of the list a first-fit pass needs once it knows that no window
        starts before ``t0``.
        """
        order = self._order
        covering = []
        for node, starts in self._starts.items():
            k = bisect_left(starts, t0) - 1
            if k >= 0:
                s = self._slot[(starts[k], order[node])]
                if s.end > t0:
                    covering.append(((s.start, order[node]), s))
        covering.sort(key=lambda pair: pair[0])
        for _, s in covering:
            yield s
        keys = self._keys
        for pos in range(bisect_left(keys, (t0, -1)), len(keys)):
            yield self._slot[keys[pos]]

    def host(self, node: str, start: int, end: int) -> Slot | None:
        """Return the slot of ``node`` containing ``[start, end)``, or None."""
        starts = self._starts.get(node, [])
        k = bisect_right(starts, start) - 1
        if k < 0:
            return None
        s = self._slot[(starts[k], self._order[node])]
        return s if end <= s.end else None

    def subtract(self, node: str, start: int, end: int) -> None:
        """Take ``[start, end)`` out of the slot of ``node`` holding it (ValueError if none)."""
        s = self.host(node, start, end)
        if s is None:
            raise ValueError(
                f"interval [{start}, {end}) on node '{node}' is not inside a free slot"
            )
        key = (s.start, self._order[node])
        self._keys.pop(bisect_right(self._keys, key) - 1)
        starts = self._starts[node]
        starts.pop(bisect_right(starts, s.start) - 1)
        del self._slot[key]
        for piece in subtract_interval(s, start, end):
            self._add(piece, keep_sorted=True)
