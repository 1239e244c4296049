"""The placement options of a joint co-allocation model (docs/concepts.md, §9).

For each job, an *option* is one way a task can sit: a suitable slot of the
instance (clipped to the job's release and deadline by
:meth:`Instance.suitable_slots`) together with the task's duration and cost.
Rough geometry: one option per slot, duration d = duration(V, p_node).
Square geometry (Toporkov & Yemelyanov 2018 §3.2): a *level* D is one of the distinct rough
durations of the job's suitable nodes; a slot whose own duration is at most D
gives an option at level D, every task of the window lasts D, and at least
one task must have rough duration exactly D (else the window belongs to a
lower level), exactly as in :mod:`models.window.space`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from instances import Instance, Job, Slot, cost, duration


@dataclass(frozen=True)
class Option:
    """A task in ``slot`` lasting ``d`` at ``cost``; ``exact``: d is the node's rough duration."""

    slot: Slot
    node: str
    d: int
    cost: int
    q: float
    level: int
    exact: bool
    host: Slot
    """The free slot itself (``slot`` is cut to the release/deadline); DEP/COORD edges."""


@dataclass
class JobSpace:
    """The options of one job, its budget, its levels and its start range.

    Parameters
    ----------
    instance, job
        The problem; the instance's geometry sets the durations.
    """

    instance: Instance
    job: Job
    options: list[Option] = field(init=False)
    levels: list[int] = field(init=False)

    def __post_init__(self) -> None:
        inst, job = self.instance, self.job
        self.square = inst.geometry == "square"
        self.n = job.nodes
        self.budget = job.effective_budget
        pairs = inst.suitable_pairs(job)
        suitable = [clipped for clipped, _ in pairs]
        rough = {s.node: duration(job.volume, inst.node(s.node).performance) for s in suitable}
        self.levels = sorted(set(rough.values())) if self.square else [0]
        self.options = []
        for s, host in pairs:
            node = inst.node(s.node)
            price = inst.slot_price(s)
            for level in self.levels if self.square else [rough[s.node]]:
                d = level if self.square else rough[s.node]
                if d < rough[s.node] or s.end - s.start < d:
                    continue
                self.options.append(
                    Option(s, s.node, d, cost(price, d), node.q, level, d == rough[s.node], host)
                )
        # the AEP space: the start of any suitable slot, even one too short for this
        # node's own task (the window's tasks may sit in longer slots that began earlier)
        self.slot_starts = sorted({s.start for s in suitable})

    def _alive_nodes(self, t: int) -> int:
        return len({o.node for o in self.options if o.slot.start <= t <= o.slot.end - o.d})

    @property
    def start_range(self) -> tuple[int, int] | None:
        """Return the earliest and latest start of any window of the job alone (None: no window).

        A window at T needs n options on distinct nodes with ``s ≤ T ≤ e − d``;
        shifting T to the latest of their slot starts (or the earliest of their
        ``e − d``) keeps them valid, so both extremes are among those points.
        Budgets are ignored, so the range may be wider than the true one.
        """
        lo = next((t for t in self.slot_starts if self._alive_nodes(t) >= self.n), None)
        if lo is None:
            return None
        ends = sorted({o.slot.end - o.d for o in self.options}, reverse=True)
        hi = next(t for t in ends if self._alive_nodes(t) >= self.n)
        return lo, hi

    @property
    def min_finish(self) -> int | None:
        """Return the earliest finish of any window of the job alone, budgets ignored (None: none).

        Shifting a window left never delays its finish, so T ranges over slot starts.
        """
        best = None
        for t in self.slot_starts:
            fastest: dict[str, int] = {}
            for o in self.options:
                if o.slot.start <= t <= o.slot.end - o.d:
                    fastest[o.node] = min(o.d, fastest.get(o.node, o.d))
            if len(fastest) >= self.n:
                finish = t + sorted(fastest.values())[self.n - 1]
                best = finish if best is None else min(best, finish)
        return best

    @property
    def min_runtime(self) -> int:
        """Return a lower bound on the job's window runtime: the n-th smallest node duration."""
        best: dict[str, int] = {}
        for o in self.options:
            best[o.node] = min(o.d, best.get(o.node, o.d))
        values = sorted(best.values())
        return values[self.n - 1] if len(values) >= self.n else 0

    def option_of(self, node: str, start: int, end: int) -> int | None:
        """Return the index of the option on ``node`` holding task ``[start, end)``, if any."""
        for k, o in enumerate(self.options):
            if (
                o.node == node
                and o.d == end - start
                and o.slot.start <= start
                and end <= o.slot.end
            ):
                return k
        return None
