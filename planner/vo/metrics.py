"""Metrics of a VO flow cycle (Toporkov et al. 2015, §6).

Per job (placed jobs): NA, the number of alternatives found for it in its
phase; start, execution time (runtime), finish and cost of its reserved
window. Per cycle: T_CPU = Σ proc_time of the reserved windows (the batch's
total slot time, §6.3: "the sum of slot lengths being part of the composed
window"); the job failure rate Y_job = postponed / batch size; the cycle
failure flag (some job of the batch got no window: §6.3's "scheduling
cycles in the course of which the execution schedule for all the batch jobs
was not found"). Per node: L = time reserved by VO jobs on it in the
interval, U = L / (interval length), P = Σ cost of the VO tasks it runs
(the owner's income). Table 2 of the paper bears these out: its P equals
c · L and its U equals L / 600 to the printed precision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from instances import Instance
from planner.window import Window


@dataclass(frozen=True)
class NodeUsage:
    """One node's VO load in a cycle: reserved time L, utilisation U = L / T, profit P."""

    node: str
    price: float
    load: int
    utilisation: float
    profit: int


def node_usage(instance: Instance, reservations: Sequence[Window]) -> list[NodeUsage]:
    """Return L, U and P of every node of ``instance`` (node order) for ``reservations``."""
    if instance.horizon is None:
        raise ValueError("node utilisation needs the instance's horizon (the interval T)")
    length = instance.horizon[1] - instance.horizon[0]
    load = dict.fromkeys(instance.node_index, 0)
    profit = dict.fromkeys(instance.node_index, 0)
    for w in reservations:
        for p in w.placements:
            load[p.node] += p.duration
            profit[p.node] += p.cost
    return [
        NodeUsage(n.id, n.price, load[n.id], load[n.id] / length, profit[n.id])
        for n in instance.nodes
    ]


def mean(values: Sequence[float]) -> float | None:
    """Return the arithmetic mean, or None for no values."""
    return sum(values) / len(values) if values else None
