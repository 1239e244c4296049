"""An alternative layout of the local load, for the ``aep-criteria`` sensitivity table.

The families place each node's local tasks at uniformly drawn cut points of
its free time (``instances.generators.environment.local_tasks``); the papers
state only the load level and the minimum task length. :func:`evenly_spaced`
keeps every node's tasks (count, lengths, order) and spreads them with equal
gaps, so the slot count and the free time stay the same and only where the
gaps fall changes.
"""

from __future__ import annotations

from collections import defaultdict

from instances import Busy, Instance


def evenly_spaced(instance: Instance) -> Instance:
    """Return ``instance`` with each node's local tasks moved to equal gaps (same tasks)."""
    if instance.busy is None or instance.horizon is None:
        raise ValueError("evenly_spaced needs an instance generated with busy intervals")
    start, end = instance.horizon
    tasks: dict[str, list[Busy]] = defaultdict(list)
    for b in sorted(instance.busy, key=lambda b: b.start):
        tasks[b.node].append(b)
    moved: list[Busy] = []
    for node, own in tasks.items():
        free = (end - start) - sum(b.end - b.start for b in own)
        t, gap = float(start), free / (len(own) + 1)
        for b in own:
            t += gap
            first = round(t)
            moved.append(Busy(node, first, first + b.end - b.start))
            t += b.end - b.start
    return Instance(
        nodes=instance.nodes,
        jobs=instance.jobs,
        name=instance.name,
        horizon=instance.horizon,
        geometry=instance.geometry,
        busy=tuple(moved),
    )
