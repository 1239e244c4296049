"""Windows and placements (docs/concepts.md) and their JSON result form (docs/formats.md).

A :class:`Window` computes every metric of the docs/concepts.md table from its
placements; nothing is stored twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from instances import CRITERIA, GEOMETRIES, Instance, Job, Slot, cost, duration


@dataclass(frozen=True)
class Placement:
    """One task of a window: ``[start, end)`` on ``node`` inside its free slot.

    The slot is ``[slot_start, slot_end)``.

    ``cost`` is the integer money cost of the task (docs/concepts.md) and ``q`` the
    node's q characteristic (Toporkov & Yemelyanov 2018 §3.3).
    """

    node: str
    start: int
    end: int
    cost: int
    slot_start: int
    slot_end: int
    q: float = 0.0

    def __post_init__(self) -> None:
        if not self.slot_start <= self.start < self.end <= self.slot_end:
            raise ValueError(
                f"placement [{self.start}, {self.end}) must lie inside its slot "
                f"[{self.slot_start}, {self.slot_end}) on node '{self.node}'"
            )

    @property
    def duration(self) -> int:
        """Return ``end - start``."""
        return self.end - self.start

    @property
    def near_distance(self) -> int:
        """Return min(time since the slot start, time left to the slot end) (Toporkov & Yemelyanov
        2018 §3.4)."""
        return min(self.start - self.slot_start, self.slot_end - self.end)

    @property
    def far_distance(self) -> int:
        """Return max(time since the slot start, time left to the slot end) (Toporkov & Yemelyanov
        2018 §3.4)."""
        return max(self.start - self.slot_start, self.slot_end - self.end)

    def to_dict(self) -> dict[str, Any]:
        """Return the docs/formats.md placement object, with the bounds of the free slot it
        uses (a result file can be checked against its instance alone)."""
        return {
            "node": self.node,
            "start": self.start,
            "end": self.end,
            "cost": self.cost,
            "slot": [self.slot_start, self.slot_end],
        }


@dataclass(frozen=True)
class Window:
    """A window for job ``job``: n placements on distinct nodes that all start at ``start``."""

    job: str
    start: int
    placements: tuple[Placement, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "placements", tuple(self.placements))
        if not self.placements:
            raise ValueError("a window needs at least one placement")
        if any(p.start != self.start for p in self.placements):
            raise ValueError("every placement of a window starts at the window start")
        if len({p.node for p in self.placements}) != len(self.placements):
            raise ValueError("the placements of a window must be on distinct nodes")

    @property
    def runtime(self) -> int:
        """Return max_i d_i."""
        return max(p.duration for p in self.placements)

    @property
    def finish(self) -> int:
        """Return start + runtime."""
        return self.start + self.runtime

    @property
    def cost(self) -> int:
        """Return Σ_i cost_i (integer money)."""
        return sum(p.cost for p in self.placements)

    @property
    def proc_time(self) -> int:
        """Return Σ_i d_i (the CPU time of Toporkov et al. 2012)."""
        return sum(p.duration for p in self.placements)

    @property
    def q(self) -> float:
        """Return Σ_i q(node_i), correctly rounded (q of large magnitude may nearly cancel)."""
        return math.fsum(p.q for p in self.placements)

    @property
    def near_distance(self) -> float:
        """Return the mean near distance of the placements (DEP, Toporkov & Yemelyanov 2018
        §3.4)."""
        return sum(p.near_distance for p in self.placements) / len(self.placements)

    @property
    def far_distance(self) -> float:
        """Return the mean far distance of the placements (COORD, Toporkov & Yemelyanov 2018
        §3.4)."""
        return sum(p.far_distance for p in self.placements) / len(self.placements)

    @property
    def nodes(self) -> tuple[str, ...]:
        """Return the node ids, in placement order."""
        return tuple(p.node for p in self.placements)

    def metric(self, name: str) -> float:
        """Return the docs/concepts.md metric ``name`` (``start``, ``cost``, ``q``, ...)."""
        if name not in METRICS:
            raise KeyError(f"unknown metric '{name}'")
        return getattr(self, name)

    def value(self, criterion: str) -> float:
        """Return the value of the metric that docs/concepts.md criterion ``criterion``
        optimises."""
        return self.metric(CRITERIA[criterion].metric)

    def to_dict(self) -> dict[str, Any]:
        """Return the docs/formats.md window object."""
        return {
            "start": self.start,
            "finish": self.finish,
            "runtime": self.runtime,
            "cost": self.cost,
            "proc_time": self.proc_time,
            "q": self.q,
            "near_distance": self.near_distance,
            "far_distance": self.far_distance,
            "placements": [p.to_dict() for p in self.placements],
        }


METRICS: tuple[str, ...] = (
    "start", "runtime", "finish", "cost", "proc_time", "q", "near_distance", "far_distance",
)  # fmt: skip


def task_durations(job: Job, performances: Sequence[float], geometry: str) -> list[int]:
    """Return each task's duration for nodes of the given performances (docs/concepts.md).

    rough: d_i = duration(V, p_i); square: every d_i = duration(V, min_i p_i).
    Raises ValueError for another geometry name.
    """
    if geometry not in GEOMETRIES:
        raise ValueError(f"geometry must be one of {', '.join(GEOMETRIES)}, not {geometry!r}")
    if geometry == "square":
        d = duration(job.volume, min(performances))
        return [d] * len(performances)
    return [duration(job.volume, p) for p in performances]


def make_window(
    instance: Instance, job: Job, start: int, slots: Sequence[Slot], geometry: str | None = None
) -> Window:
    """Build the window of ``job`` starting at ``start`` on the given slots (one per node).

    Durations follow ``geometry`` (default: the instance's) and costs use each
    slot's price (docs/concepts.md, §3). Raises ValueError if a task does not fit its slot.
    """
    geometry = geometry or instance.geometry
    nodes = [instance.node(s.node) for s in slots]
    durations = task_durations(job, [n.performance for n in nodes], geometry)
    placements = tuple(
        Placement(
            node=s.node,
            start=start,
            end=start + d,
            cost=cost(instance.slot_price(s), d),
            slot_start=s.start,
            slot_end=s.end,
            q=n.q,
        )
        for s, n, d in zip(slots, nodes, durations, strict=True)
    )
    return Window(job=job.id, start=start, placements=placements)
