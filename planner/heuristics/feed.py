"""A job's suitable slots, read lazily in start order, with per-slot task data (docs/concepts.md,
§3).

The forward pass of docs/algorithms.md reads the slots one by one; AMP/ALP usually stop
after a few of them, so the feed filters, clips and annotates slots only as
far as a pass reads (first-fit searches stay fast on long slot lists), and
keeps what it read so that later passes (square levels) reuse it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction

from instances import Instance, Job, Slot, cost, duration
from instances.units import exact

NodeInfo = dict[str, "tuple[int, float, int, float, float] | None"]
"""Node id → (node index, performance, rough task duration, q, price), None if unsuitable."""

_INFO: dict[tuple[int, int], tuple[object, object, NodeInfo]] = {}


def node_info(instance: Instance, job: Job) -> NodeInfo:
    """Return ``job``'s data on every node of ``instance``.

    Memoised per (node tuple, job) object pair: the searches of one batch
    build many feeds for the same jobs on the same nodes. An entry holds
    both objects, so their ids stay theirs while it lives.
    """
    key = (id(instance.nodes), id(job))
    hit = _INFO.get(key)
    if hit is not None and hit[0] is instance.nodes and hit[1] is job:
        return hit[2]
    info: NodeInfo = {}
    for k, nd in enumerate(instance.nodes):
        if job.suits(nd):
            info[nd.id] = (k, nd.performance, duration(job.volume, nd.performance), nd.q, nd.price)
        else:
            info[nd.id] = None
    if len(_INFO) >= 4096:
        _INFO.clear()
    _INFO[key] = (instance.nodes, job, info)
    return info


class Feed:
    """The suitable slots of ``job``, clipped to its release/deadline, in (start, node) order.

    Item ``i`` (its *read index*, which also breaks every tie) has ``start[i]``,
    ``end[i]``, ``node[i]`` (node order), ``perf[i]`` (its node's
    performance), ``rough[i]`` (its rough task duration ``duration(V, p)``),
    ``q[i]``, ``price[i]``, ``slot[i]`` (the free :class:`Slot` itself, which
    a placement records) and ``edge_start[i]``, ``edge_end[i]`` (its edges:
    DEP/COORD distances are measured to them, unclipped, docs/concepts.md).
    ``start``/``end`` are clipped to the job's release and deadline.

    Parameters
    ----------
    instance, job
        The problem; suitability is :meth:`Job.suits` (docs/concepts.md).
    slots
        The slot list (default: the instance's), sorted by (start, node order).
    max_price
        ALP's per-quantum price cap C (Toporkov et al. 2011 §3, condition 2°c), exact
        (:func:`instances.units.price_cap`): a slot suits when its price, read as
        the decimal it is written as, is at most C. None: no cap.
    """

    def __init__(
        self,
        instance: Instance,
        job: Job,
        slots: Sequence[Slot] | None = None,
        max_price: Fraction | None = None,
    ) -> None:
        self.instance = instance
        self.job = job
        self.n = job.nodes
        self.budget = job.effective_budget
        self.start: list[int] = []
        self.end: list[int] = []
        self.node: list[int] = []
        self.perf: list[float] = []
        self.rough: list[int] = []
        self.q: list[float] = []
        self.price: list[float] = []
        self.slot: list[Slot] = []
        self.edge_start: list[int] = []
        self.edge_end: list[int] = []
        self._costs: dict[tuple[float, int], int] = {}
        self._info = node_info(instance, job)
        self._cap = max_price
        source: Sequence[tuple[Slot, Slot]] | Sequence[Slot]
        if job.release is not None:
            # clipping to the release reorders starts: filter eagerly (Instance.suitable_pairs)
            source = instance.suitable_pairs(job, slots)
        else:
            source = instance.slots if slots is None else slots
        self.capacity: int | None = len(source) if hasattr(source, "__len__") else None
        """An upper bound on the number of slots the feed can hold, when known."""
        self._source: Iterator[Slot | tuple[Slot, Slot]] | None = iter(source)

    @property
    def complete(self) -> bool:
        """Return True once the whole slot list has been read."""
        return self._source is None

    def __len__(self) -> int:
        return len(self.start)

    def read(self, count: int = 32) -> bool:
        """Read up to ``count`` more suitable slots; return False when none was left to read."""
        src = self._source
        if src is None:
            return False
        info, deadline, cap = self._info, self.job.deadline, self._cap
        start, end, node, rough, perf = self.start, self.end, self.node, self.rough, self.perf
        q_list, price_list, slot_list = self.q, self.price, self.slot
        edge_start, edge_end = self.edge_start, self.edge_end
        got = 0
        for item in src:
            s, host = item if isinstance(item, tuple) else (item, item)
            data = info[s.node]
            if data is None:
                continue
            k, p, r, q, node_price = data
            price = node_price if s.price is None else s.price
            if cap is not None and exact(price) > cap:
                continue
            s_end = s.end
            if deadline is not None and s_end > deadline:
                if s.start >= deadline:
                    continue
                s_end = deadline
            start.append(s.start)
            end.append(s_end)
            edge_start.append(host.start)
            edge_end.append(host.end)
            node.append(k)
            perf.append(p)
            rough.append(r)
            q_list.append(q)
            price_list.append(price)
            slot_list.append(host)
            got += 1
            if got == count:
                return True
        self._source = None
        return got > 0

    def read_all(self) -> Feed:
        """Read the whole slot list; return self."""
        while self.read(1 << 16):
            pass
        return self

    def cost(self, i: int, d: int) -> int:
        """Return the integer cost of a task of ``d`` quanta in slot ``i`` (docs/concepts.md
        ``cost``)."""
        key = (self.price[i], d)
        c = self._costs.get(key)
        if c is None:
            c = self._costs[key] = cost(self.price[i], d)
        return c
