"""A problem instance: nodes, their free slots, and the jobs (docs/concepts.md).

All cross-object rules (unique ids, slots on known nodes, no overlap on a
node, horizon bounds) are checked here, in one place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

from instances.checks import is_int, require_text
from instances.criteria import GEOMETRIES
from instances.errors import DataError
from instances.job import Job
from instances.limits import TIME_MAX, num
from instances.node import Node
from instances.slot import Busy, Slot


@dataclass(frozen=True, eq=True)
class Instance:
    """Nodes, free slots and jobs.

    Parameters
    ----------
    nodes
        The nodes; their order is the "node order" that breaks start ties.
    slots
        Free slots. Stored sorted by (start, node order). Leave as ``None``
        when ``busy`` is given: the slots are then the horizon minus the busy
        intervals, per node.
    jobs
        The batch, in batch order.
    name
        Free-form instance name.
    horizon
        ``(start, end)`` of the scheduling interval; required with ``busy``.
    geometry
        ``"rough"`` or ``"square"`` (docs/concepts.md).
    busy
        Busy intervals (local tasks, reservations), as an alternative to
        ``slots``; the derived slots are then stored in ``slots`` (so
        ``dataclasses.replace`` works on such an instance too).
    """

    nodes: tuple[Node, ...]
    slots: tuple[Slot, ...] | None = None
    jobs: tuple[Job, ...] = ()
    name: str = ""
    horizon: tuple[int, int] | None = None
    geometry: str = "rough"
    busy: tuple[Busy, ...] | None = field(default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "nodes", tuple(self.nodes))
        object.__setattr__(self, "jobs", tuple(self.jobs))
        require_text("name", self.name)
        if self.geometry not in GEOMETRIES:
            raise DataError("geometry", f"must be one of {', '.join(GEOMETRIES)}")
        self._check_horizon()
        self._check_unique("nodes", [n.id for n in self.nodes])
        self._check_unique("jobs", [j.id for j in self.jobs])
        if self.slots is None and self.busy is None:
            raise DataError("", "one of slots and busy must be given")
        if self.busy is not None:
            object.__setattr__(self, "busy", tuple(self.busy))
            if self.horizon is None:
                raise DataError("horizon", "is required when busy is given")
            self._check_intervals("busy", self.busy, overlap_allowed=True)
            slots = _slots_from_busy(self.nodes, self.busy, self.horizon)
            # dataclasses.replace passes the derived slots back in: accept only those.
            if self.slots is not None and set(self.slots) != set(slots):
                raise DataError("slots", "must be the horizon minus the busy intervals")
        else:
            slots = tuple(self.slots)
            self._check_intervals("slots", slots, overlap_allowed=False)
        order = self.node_index
        object.__setattr__(
            self, "slots", tuple(sorted(slots, key=lambda s: (s.start, order[s.node])))
        )

    def _check_horizon(self) -> None:
        if self.horizon is None:
            return
        h = tuple(self.horizon)
        if len(h) != 2 or not all(is_int(v) and abs(v) <= TIME_MAX for v in h):
            each = f"each >= {num(-TIME_MAX)} and <= {num(TIME_MAX)}"
            raise DataError("horizon", f"must be two integers [start, end], {each}")
        if h[0] >= h[1]:
            raise DataError("horizon", "start must be less than end")
        object.__setattr__(self, "horizon", h)

    @staticmethod
    def _check_unique(key: str, ids: Sequence[str]) -> None:
        seen: set[str] = set()
        for i, ident in enumerate(ids):
            if ident in seen:
                raise DataError(f"{key}[{i}].id", f"duplicate id '{ident}'")
            seen.add(ident)

    def _check_intervals(
        self, key: str, items: Sequence[Slot | Busy], *, overlap_allowed: bool
    ) -> None:
        known = self.node_index
        per_node: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
        for i, item in enumerate(items):
            if item.node not in known:
                raise DataError(f"{key}[{i}].node", f"unknown node '{item.node}'")
            if self.horizon is not None and (
                item.start < self.horizon[0] or item.end > self.horizon[1]
            ):
                raise DataError(f"{key}[{i}]", "must lie inside the horizon")
            per_node[item.node].append((item.start, item.end, i))
        if overlap_allowed:
            return
        for node, spans in per_node.items():
            spans.sort()
            for (_, end_a, i), (start_b, _, j) in pairwise(spans):
                if start_b < end_a:
                    first, second = sorted((i, j))
                    raise DataError(f"{key}[{second}]", f"overlaps {key}[{first}] on node '{node}'")

    @cached_property
    def node_index(self) -> dict[str, int]:
        """Return node id → position in :attr:`nodes`."""
        return {n.id: i for i, n in enumerate(self.nodes)}

    def node(self, node_id: str) -> Node:
        """Return the node with id ``node_id``."""
        return self.nodes[self.node_index[node_id]]

    def job(self, job_id: str) -> Job:
        """Return the job with id ``job_id``; raise KeyError naming it if absent."""
        for job in self.jobs:
            if job.id == job_id:
                return job
        raise KeyError(f"no job '{job_id}' in instance '{self.name}'")

    def slot_price(self, slot: Slot) -> float:
        """Return the slot's price per quantum: its own, else its node's."""
        return slot.price if slot.price is not None else self.node(slot.node).price

    def suitable_slots(self, job: Job, slots: Sequence[Slot] | None = None) -> list[Slot]:
        """Return the slots that suit ``job``, clipped to its release and deadline.

        Parameters
        ----------
        job
            The job (docs/concepts.md suitability: performance and requirements).
        slots
            The slot list to filter (default: the instance's); must be sorted
            by (start, node order), as the result is.
        """
        return [clipped for clipped, _ in self.suitable_pairs(job, slots)]

    def suitable_pairs(
        self, job: Job, slots: Sequence[Slot] | None = None
    ) -> list[tuple[Slot, Slot]]:
        """Return ``(clipped, slot)`` for each slot that suits ``job``, as :meth:`suitable_slots`.

        ``clipped`` is where the job's window may lie (the slot cut to the
        job's release and deadline); ``slot`` is the free slot itself, whose
        edges are the neighbouring tasks that DEP/COORD distances are
        measured to (Toporkov & Yemelyanov 2018 §3.4: a release or deadline is no task).
        """
        src = self.slots if slots is None else slots
        lo = job.release
        hi = job.deadline
        suits = {n.id: job.suits(n) for n in self.nodes}
        out: list[tuple[Slot, Slot]] = []
        for s in src:
            if not suits[s.node]:
                continue
            start = s.start if lo is None else max(s.start, lo)
            end = s.end if hi is None else min(s.end, hi)
            if start >= end:
                continue
            same = (start, end) == (s.start, s.end)
            out.append((s if same else Slot(s.node, start, end, s.price), s))
        if lo is not None:
            order = self.node_index
            out.sort(key=lambda pair: (pair[0].start, order[pair[0].node]))
        return out

    def with_slots(self, slots: Sequence[Slot]) -> Instance:
        """Return a copy of this instance whose free time is ``slots``."""
        return Instance(
            nodes=self.nodes,
            slots=tuple(slots),
            jobs=self.jobs,
            name=self.name,
            horizon=self.horizon,
            geometry=self.geometry,
        )


def _slots_from_busy(
    nodes: Sequence[Node], busy: Sequence[Busy], horizon: tuple[int, int]
) -> list[Slot]:
    per_node: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for b in busy:
        per_node[b.node].append((b.start, b.end))
    slots: list[Slot] = []
    for node in nodes:
        cursor = horizon[0]
        for start, end in sorted(per_node.get(node.id, [])):
            if start > cursor:
                slots.append(Slot(node.id, cursor, start))
            cursor = max(cursor, end)
        if cursor < horizon[1]:
            slots.append(Slot(node.id, cursor, horizon[1]))
    return slots
