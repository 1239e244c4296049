"""Slot subtraction (docs/concepts.md, Toporkov et al. 2011 Fig. 6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from instances.slot import Slot


def subtract_interval(slot: Slot, start: int, end: int) -> list[Slot]:
    """Return what is left of ``slot`` after taking out ``[start, end)``.

    Leaves ``[s, start)`` if ``start > s`` and ``[end, e)`` if ``e > end``.
    ``[start, end)`` must lie inside the slot.
    """
    if not (slot.start <= start < end <= slot.end):
        raise ValueError(
            f"interval [{start}, {end}) is not inside slot [{slot.start}, {slot.end})"
            f" on node '{slot.node}'"
        )
    left: list[Slot] = []
    if start > slot.start:
        left.append(Slot(slot.node, slot.start, start, slot.price))
    if slot.end > end:
        left.append(Slot(slot.node, end, slot.end, slot.price))
    return left


def subtract(
    slots: Sequence[Slot],
    taken: Iterable[tuple[str, int, int]],
    node_order: dict[str, int],
) -> list[Slot]:
    """Return ``slots`` with every ``(node, start, end)`` interval of ``taken`` removed.

    Each interval must lie inside one slot of its node. The result stays
    sorted by (start, node order).
    """
    remaining = list(slots)
    for node, start, end in taken:
        host = next(
            (s for s in remaining if s.node == node and s.start <= start and end <= s.end),
            None,
        )
        if host is None:
            raise ValueError(
                f"interval [{start}, {end}) on node '{node}' is not inside a free slot"
            )
        remaining.remove(host)
        remaining.extend(subtract_interval(host, start, end))
    remaining.sort(key=lambda s: (s.start, node_order[s.node]))
    return remaining
