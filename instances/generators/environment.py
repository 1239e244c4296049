"""The simulated resource domain of Toporkov et al. 2012, 2015 and Toporkov & Yemelyanov 2018.

Nodes, market prices and local load.

Toporkov et al. 2012 §3.1, Toporkov et al. 2015 §5 and §6.1 and Toporkov &
Yemelyanov 2018 §4.1 share one simulator: nodes of
uniform integer performance, prices proportional to performance with a
normally distributed "discount/extra charge", and an initial load of local
tasks whose level per node is hypergeometric. The papers leave the exact
distributions open; the choices below are the project's, documented in
the README's "Instance families" section and checked against the papers' ranges by
``tests/instances/test_generators_stats.py``.
"""

from __future__ import annotations

import numpy as np

from instances.node import Node
from instances.slot import Busy

HYPERGEOMETRIC = (10, 10, 10)
"""(good, bad, draws): the load level is ``lo + (hi - lo) * X / 10`` with X ~ Hypergeom."""

TASK_LENGTH = (10, 103)
"""Local task lengths are uniform integers in this range (minimum 10: Toporkov et al. 2012 §3.2)."""


def market_nodes(
    rng: np.random.Generator,
    count: int,
    *,
    performance: tuple[int, int],
    unit_price: float,
    deviation: float,
    performance_values: str = "integer",
    price_values: str = "real",
) -> list[Node]:
    """Return ``count`` nodes ``n1..``: performance uniform in ``performance``.

    Performance is a uniform integer (Toporkov et al. 2012 §3.1: "a random
    integer variable in the interval [2; 10]") or, with
    ``performance_values="real"``, a uniform real rounded to 2 decimals (the
    wording of Toporkov et al. 2015 §5 and Toporkov & Yemelyanov 2018 §4.1).
    The price per quantum is ``unit_price * p * (1 + e)`` with
    ``e ~ N(0, deviation)`` clipped to ±3 deviations (the papers' "market
    value" with a normally distributed discount/extra charge), rounded to 2
    decimals or, with ``price_values="integer"``, to a whole number of money
    units per time unit (the ``int cash`` of the slot class printed in
    Toporkov et al. 2011 §3).
    """
    if performance_values == "real":
        perf = np.round(rng.uniform(performance[0], performance[1], size=count), 2)
    else:
        perf = rng.integers(performance[0], performance[1] + 1, size=count)
    dev = np.clip(rng.normal(0.0, deviation, size=count), -3 * deviation, 3 * deviation)
    digits = 0 if price_values == "integer" else 2
    return [
        Node(id=f"n{i + 1}", performance=float(p),
             price=float(round(float(unit_price * p * (1 + e)), digits)))
        for i, (p, e) in enumerate(zip(perf, dev, strict=True))
    ]  # fmt: skip


PERFORMANCE_VALUES = ("integer", "real")
"""Readings of the node performance draw (:func:`market_nodes`)."""

PRICE_VALUES = ("real", "integer")
"""Readings of the price per time unit (:func:`market_nodes`)."""


def load_level(rng: np.random.Generator, lo: float, hi: float) -> float:
    """Return one node's initial load share in ``[lo, hi]`` (hypergeometric, mean (lo+hi)/2)."""
    good, bad, draws = HYPERGEOMETRIC
    x = int(rng.hypergeometric(good, bad, draws))
    return lo + (hi - lo) * x / draws


def local_tasks(
    rng: np.random.Generator,
    node: str,
    horizon: tuple[int, int],
    share: float,
    task_length: tuple[int, int] = TASK_LENGTH,
) -> list[Busy]:
    """Return the local tasks of one node: total length ``round(share * L)``, randomly placed.

    Task lengths are uniform integers in ``task_length`` (:func:`task_lengths`);
    they are placed by :func:`placed`.
    """
    start, end = horizon
    target = min(round(share * (end - start)), end - start)
    return placed(rng, node, horizon, task_lengths(rng, target, task_length))


def task_lengths(rng: np.random.Generator, target: int, task_length: tuple[int, int]) -> list[int]:
    """Return uniform integer lengths in ``task_length`` summing to ``target``.

    The last one is cut to the remaining load (merged into its predecessor
    when shorter than the minimum).
    """
    lengths: list[int] = []
    total = 0
    while total < target:
        d = min(int(rng.integers(task_length[0], task_length[1] + 1)), target - total)
        if d < task_length[0] and lengths:
            lengths[-1] += d
        else:
            lengths.append(d)
        total += d
    return lengths


def placed(
    rng: np.random.Generator, node: str, horizon: tuple[int, int], lengths: list[int]
) -> list[Busy]:
    """Return tasks of ``lengths`` (in this order) on ``node`` at random gaps in ``horizon``.

    The free time is split into gaps by uniformly drawn cut points, so tasks
    may touch (and then form one busy interval).
    """
    start, end = horizon
    free = end - start - sum(lengths)
    cuts = np.sort(rng.integers(0, free + 1, size=len(lengths)))
    gaps = np.diff(np.concatenate(([0], cuts)))
    tasks: list[Busy] = []
    t = start
    for gap, d in zip(gaps, lengths, strict=True):
        t += int(gap)
        tasks.append(Busy(node, t, t + d))
        t += d
    return tasks


def loaded_domain(
    rng: np.random.Generator,
    nodes: list[Node],
    horizon: tuple[int, int],
    load: tuple[float, float],
    task_length: tuple[int, int] = TASK_LENGTH,
) -> list[Busy]:
    """Return the local tasks of every node, each node's load level drawn by :func:`load_level`."""
    busy: list[Busy] = []
    for node in nodes:
        busy.extend(local_tasks(rng, node.id, horizon, load_level(rng, *load), task_length))
    return busy
