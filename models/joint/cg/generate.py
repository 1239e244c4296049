"""The column-generation loop (docs/exact-models.md): solve the master LP, price every job
exactly, add the improving windows, and keep the best Lagrangian bound.

Every round's Lagrangian value is a valid lower bound on the integer optimum (whatever
the duals), so the loop may stop at any time; when no job has an improving window the
bound equals the master LP value (the Dantzig–Wolfe bound of Gamst & Pisinger 2013).
"""

from __future__ import annotations

import time as _clock
from collections.abc import Sequence
from dataclasses import dataclass

from models.joint.cg.column import Column, Linear
from models.joint.cg.master import Master
from models.joint.cg.pricing import Prices, price
from models.joint.space import JobSpace

IMPROVING = 1e-7
"""A window enters the master when its reduced cost is below minus this."""


@dataclass
class Generation:
    """The outcome of :func:`generate`: best Lagrangian bound, last LP value, rounds, proof,
    and the multipliers of the best bound (``form``, ``prices``, ``mu``, each job's least
    priced value or None) for reduced-cost fixing (:mod:`models.joint.cg.fixing`)."""

    bound: float
    lp: float
    rounds: int
    converged: bool
    duals: tuple[Linear, Prices, float, list[float | None]] | None = None


def generate(
    spaces: Sequence[JobSpace],
    master: Master,
    *,
    free_start: bool = True,
    deadline: float | None = None,
    target: float | None = None,
) -> Generation:
    """Grow ``master`` by exact pricing until no window improves, ``deadline`` (a
    ``perf_counter`` time) passes, or the bound reaches ``target`` (an incumbent's value).
    """
    best, lp, rounds = -float("inf"), float("inf"), 0
    duals = None
    while True:
        rounds += 1
        lp = master.solve()
        form, prices, mu, pi = master.duals()
        values: list[float | None] = []
        added = 0
        for j, sp in enumerate(spaces):
            found = price(sp, form, prices, free_start=free_start)
            values.append(found[0] if found is not None else None)
            if found is not None and found[0] - mu - pi[j] < -IMPROVING:
                added += master.add(Column.build(j, sp, found[1], found[2]))
        bound = master.lagrangian(prices, mu, values)
        if bound > best:
            best, duals = bound, (form, prices, mu, values)
        if added == 0:
            return Generation(best, lp, rounds, True, duals)
        if target is not None and best >= target - IMPROVING:
            return Generation(best, lp, rounds, False, duals)
        if deadline is not None and _clock.perf_counter() > deadline:
            return Generation(best, lp, rounds, False, duals)
