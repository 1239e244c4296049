"""Shrinking a failing instance: delta debugging over jobs, nodes and slots, then its numbers
toward small round values (Zeller & Hildebrandt 2002's ddmin; docs/verify.md).

Two steps go beyond removing parts one kind at a time: a node dropped together
with one task of every job (and, tried next, that task's cost taken off the
budgets, so a budget met exactly stays met exactly), and all money divided by
one factor (prices in the hundreds and budgets in the thousands become single
digits, where no price or budget could shrink alone). The rounds repeat while
simpler numbers free more parts.

The shrinker knows nothing of programs: it asks ``first(candidates)`` for
the index of the first candidate instance that still shows the
disagreement (None if none does). A caller that can run a program on many
instances at once evaluates a whole list in one run; otherwise it tries them
in order and stops at the first that fails. Every candidate is a valid
instance (an invalid one is dropped before it is tried), and every accepted
step makes the instance strictly smaller or simpler, so shrinking ends.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from instances import DataError, Instance, Job, Node, Slot, cost, duration

T = TypeVar("T")
First = Callable[[list[Instance]], "int | None"]
Every = Callable[[list[Instance]], "list[bool]"]


def make(nodes: Sequence[Node], slots: Sequence[Slot], jobs: Sequence[Job], base: Instance,
         geometry: str | None = None) -> Instance | None:  # fmt: skip
    """Return the instance of these parts (slots form, no horizon), or None when invalid."""
    try:
        return Instance(nodes=tuple(nodes), slots=tuple(slots), jobs=tuple(jobs), name=base.name,
                        geometry=geometry or base.geometry)  # fmt: skip
    except (DataError, ValueError):
        return None


class Shrinker:
    """Shrink instances with a ``first`` oracle and at most ``budget`` oracle calls.

    ``every(candidates)``, when given, tells for each candidate whether it fails, in one call
    (a program run on many instances at once): the numbers are then simplified field by
    field in one call per pass, and all fields' simplest failing values are tried together.
    """

    def __init__(self, first: First, budget: int = 300, every: Every | None = None) -> None:
        self._first = first
        self._every = every
        self.budget = budget
        self.calls = 0

    def first(self, candidates: list[Instance | None]) -> tuple[int, Instance] | None:
        """Return (position, instance) of the first candidate that still fails (invalid ones
        skipped, an unchanged one never tried), or None."""
        valid = [(k, c) for k, c in enumerate(candidates) if c is not None]
        if not valid or self.calls >= self.budget:
            return None
        self.calls += 1
        got = self._first([c for _, c in valid])
        return None if got is None else valid[got]

    def shrink(self, instance: Instance, keep_job: str | None = None) -> Instance:
        """Return a smaller instance that still fails. ``keep_job``: try that job alone first
        (jobs are searched independently by a single-job search)."""
        inst = make(instance.nodes, instance.slots, instance.jobs, instance) or instance
        if keep_job is not None and len(inst.jobs) > 1:
            alone = make(inst.nodes, inst.slots, [j for j in inst.jobs if j.id == keep_job], inst)
            got = self.first([alone])
            inst = got[1] if got else inst
        for _ in range(4):  # simpler numbers (fewer tasks, a lower n) can free nodes and slots
            start = inst
            for kind in ("jobs", "nodes", "slots"):
                inst = self._ddmin(inst, kind)
            inst = self._fewer(inst)
            for _ in range(8):
                before = inst
                inst = self._simplify(inst)
                if inst == before:
                    break
            if inst == start or self.calls >= self.budget:
                break
        got = self.first([_renamed(inst)])
        return got[1] if got else inst

    def _fewer(self, inst: Instance) -> Instance:
        """Drop one node and one task of every job of n > 1 together, while that still fails: a
        disagreement can need n nodes only because the job asks for n tasks. Each node is tried
        as is, then with the budgets lowered by its task's cost (a budget met exactly stays
        met exactly)."""
        while len(inst.nodes) > 1 and any(j.nodes > 1 for j in inst.jobs):
            plain = [_without(inst, gone, False) for gone in inst.nodes]
            cheaper = [_without(inst, gone, True) for gone in inst.nodes]
            got = self.first(plain + cheaper)
            if got is None:
                break
            inst = got[1]
        return inst

    def _parts(self, inst: Instance, kind: str, keep: list[Any]) -> Instance | None:
        if kind == "jobs":
            return make(inst.nodes, inst.slots, keep, inst)
        if kind == "nodes":
            ids = {n.id for n in keep}
            return make(keep, [s for s in inst.slots if s.node in ids], inst.jobs, inst)
        return make(inst.nodes, keep, inst.jobs, inst)

    def _ddmin(self, inst: Instance, kind: str) -> Instance:
        """ddmin over one part: try each chunk, then each complement; refine when none fails."""
        items: list[Any] = list(getattr(inst, kind))
        n = 2
        while len(items) >= 2:
            chunks = _split(items, n)
            rest = [[x for c in chunks if c is not chunk for x in c] for chunk in chunks]
            options = chunks + (rest if len(chunks) > 2 else [])
            got = self.first([self._parts(inst, kind, o) for o in options])
            if got is not None:
                k, inst = got
                items = options[k]
                n = 2 if k < len(chunks) else max(n - 1, 2)
                continue
            if n >= len(items):
                break
            n = min(len(items), 2 * n)
        return inst

    def _simplify(self, inst: Instance) -> Instance:
        """One pass over every number and optional field, each toward simpler values."""
        if self._every is not None:
            return self._simplify_together(inst)
        for field in _fields(inst):
            got = self.first([c for _, c in _candidates(inst, field)])
            if got is not None:
                inst = got[1]
        return inst

    def _simplify_together(self, inst: Instance) -> Instance:
        """All fields' candidates in one call; then every field's simplest failing value at
        once, or, if that combination passes, the first field's alone."""
        assert self._every is not None
        flat = [(f, v, c) for f in _fields(inst) for v, c in _candidates(inst, f) if c is not None]
        if not flat or self.calls >= self.budget:
            return inst
        self.calls += 1
        fails = self._every([c for _, _, c in flat])
        winners: dict[Field, tuple[Any, Instance]] = {}
        for (f, v, c), bad in zip(flat, fails, strict=True):
            if bad and f not in winners:
                winners[f] = (v, c)
        if not winners:
            return inst
        first = next(iter(winners.values()))[1]
        if len(winners) == 1:
            return first
        combined: Instance | None = inst
        for f, (v, _) in winners.items():
            combined = _apply(combined, f, v) if combined is not None else None
        got = self.first([combined])
        return got[1] if got else first


def _split(items: list[T], n: int) -> list[list[T]]:
    size, extra = divmod(len(items), n)
    out, at = [], 0
    for k in range(n):
        step = size + (1 if k < extra else 0)
        out.append(items[at : at + step])
        at += step
    return [c for c in out if c]


def simpler_ints(x: int, low: int | None = None) -> list[int]:
    """Return integers simpler than ``x`` (smaller magnitude, rounder), simplest first."""
    out = []
    for c in (0, 1, 2, 5, 10, _round(x, 1), _round(x, 2), x // 2, x - 1 if x > 0 else x + 1):
        if abs(c) < abs(x) and (low is None or c >= low) and c not in out:
            out.append(c)
    return out


def _round(x: int, digits: int) -> int:
    if x == 0:
        return 0
    scale = 10 ** max(len(str(abs(x))) - digits, 0)
    return int(round(x / scale) * scale)


def _weight(x: float) -> tuple[int, Fraction]:
    """Return (decimal places, magnitude) of ``x`` as written: 0.8 weighs (1, 4/5)."""
    exponent = Decimal(repr(float(x))).normalize().as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return places, abs(Fraction(repr(float(x))))


def simpler_reals(x: float, positive: bool = False) -> list[float]:
    """Return reals simpler than ``x`` (fewer decimals, then smaller; never above |x| rounded
    up), simplest first."""
    out: list[float] = []
    top = max(1, math.ceil(abs(x)))
    for c in (0.0, 1.0, 2.0, float(round(x)), round(x, 1), round(x, 2), float(int(x) or 1)):
        if (positive and c <= 0) or abs(c) > top:
            continue
        if _weight(c) < _weight(x) and c not in out:
            out.append(c)
    return out


Field = tuple[str, int, str]
"""(part, index, key): ``("nodes", 0, "price")``; ``("shift", 0, "")`` moves all times to 0;
``("money", 0, "")`` divides every price, budget and price cap by one factor."""

FACTORS = (1000, 500, 250, 200, 100, 50, 25, 20, 10, 5, 4, 2)
"""Factors the money is divided by (largest first): a bug met on budgets in the thousands is
usually met on the same instance in smaller units, where no single price or budget can shrink
alone without breaking an equality between them."""

_JOB_KEYS = ("requirements", "min_performance", "release", "deadline", "max_price", "budget",
             "volume", "nodes", "criterion", "priority")  # fmt: skip


def _fields(inst: Instance) -> list[Field]:
    out: list[Field] = [("shift", 0, ""), ("money", 0, ""), ("geometry", 0, "")]
    out += [("nodes", i, k) for i in range(len(inst.nodes))
            for k in ("performance", "price", "q", "attributes")]  # fmt: skip
    out += [("slots", i, k) for i in range(len(inst.slots)) for k in ("price", "end", "start")]
    out += [("jobs", i, k) for i in range(len(inst.jobs)) for k in _JOB_KEYS]
    return out


def _values(item: Any, key: str) -> list[Any]:
    """Return the simpler values of ``item.key``, simplest first."""
    v = getattr(item, key)
    if key in ("attributes", "requirements"):
        return [{}] if v else []
    if key in ("priority", "deadline") or (key == "price" and isinstance(item, Slot)):
        return [None] if v is not None else []
    if key == "criterion":
        return ["min_start"] if v != "min_start" else []
    if key == "end":
        return [item.start + d for d in simpler_ints(item.length, 1)]
    if v is None:
        return []
    if key in ("release", "start"):
        return ([None] if key == "release" else []) + simpler_ints(v)
    if key in ("budget", "nodes"):
        return ([None] if key == "budget" else []) + simpler_ints(v, 0 if key == "budget" else 1)
    if key == "max_price":
        return [None, *simpler_reals(v)]
    return simpler_reals(v, positive=key in ("performance", "volume"))


def _candidates(inst: Instance, field: Field) -> list[tuple[Any, Instance | None]]:
    """Return (value, instance) with ``field`` simplified to each simpler value, simplest first."""
    part, i, key = field
    if part == "shift":
        lo = min((s.start for s in inst.slots), default=0)
        return [(lo, _apply(inst, field, lo))] if lo != 0 else []
    if part == "geometry":
        return [("rough", _apply(inst, field, "rough"))] if inst.geometry == "square" else []
    if part == "money":
        budgets = [j.budget for j in inst.jobs if j.budget]
        money = budgets + [x for x in (*(n.price for n in inst.nodes), *(s.price for s in
                           inst.slots), *(j.max_price for j in inst.jobs)) if x]  # fmt: skip
        if not money:
            return []
        fit = [f for f in FACTORS if all(b % f == 0 for b in budgets)]
        return [(f, _apply(inst, field, f)) for f in fit[:3]]
    return [(v, _apply(inst, field, v)) for v in _values(getattr(inst, part)[i], key)]


def _apply(inst: Instance, field: Field, value: Any) -> Instance | None:
    """Return ``inst`` with ``field`` set to ``value`` (None when that makes it invalid)."""
    part, i, key = field
    nodes, slots, jobs = list(inst.nodes), list(inst.slots), list(inst.jobs)
    if part == "shift":
        try:
            moved = [dataclasses.replace(s, start=s.start - value, end=s.end - value)
                     for s in slots]  # fmt: skip
        except (DataError, ValueError):
            return None
        return make(nodes, moved, [_shift_job(j, -value) for j in jobs], inst)
    if part == "geometry":
        return make(nodes, slots, jobs, inst, value)
    if part == "money":
        return _divided(inst, value)
    parts = {"nodes": nodes, "slots": slots, "jobs": jobs}
    if i >= len(parts[part]):
        return None
    try:
        parts[part][i] = dataclasses.replace(parts[part][i], **{key: value})
    except (DataError, ValueError):
        return None
    return make(nodes, slots, jobs, inst)


def _without(inst: Instance, gone: Node, cheaper: bool) -> Instance | None:
    """Return ``inst`` without node ``gone`` and one task fewer for every job of n > 1; with
    ``cheaper``, those jobs' budgets S (a cap's floor(C·V·n) becoming a budget) also lose the
    cost of a task on ``gone`` (None when that changes nothing or leaves a negative budget)."""
    jobs = []
    for j in inst.jobs:
        if j.nodes == 1:
            jobs.append(j)
            continue
        budget, cap = j.budget, j.max_price
        if cheaper and j.effective_budget is not None:  # a cap's S = floor(C·V·n) as a budget
            budget = j.effective_budget - cost(gone.price, duration(j.volume, gone.performance))
            cap = None
            if budget < 0:
                return None
        jobs.append(dataclasses.replace(j, nodes=j.nodes - 1, budget=budget, max_price=cap))
    if cheaper and all(j.effective_budget is None for j in inst.jobs):
        return None
    return make([n for n in inst.nodes if n.id != gone.id],
                [s for s in inst.slots if s.node != gone.id], jobs, inst)  # fmt: skip


def _divided(inst: Instance, factor: int) -> Instance | None:
    """Return ``inst`` with every price, price cap and budget divided by ``factor`` (reals as
    the decimals they are written as), or None when that makes it invalid."""

    def cut(x: float | None) -> float | None:
        return None if x is None else float(Fraction(repr(float(x))) / factor)

    try:
        nodes = [dataclasses.replace(n, price=cut(n.price)) for n in inst.nodes]
        slots = [dataclasses.replace(s, price=cut(s.price)) for s in inst.slots]
        jobs = [dataclasses.replace(j, max_price=cut(j.max_price),
                                    budget=None if j.budget is None else j.budget // factor)
                for j in inst.jobs]  # fmt: skip
    except (DataError, ValueError):
        return None
    return make(nodes, slots, jobs, inst)


def _shift_job(job: Job, by: int) -> Job:
    return dataclasses.replace(
        job,
        release=None if job.release is None else job.release + by,
        deadline=None if job.deadline is None else job.deadline + by,
    )


def _renamed(inst: Instance) -> Instance | None:
    """Return the instance with nodes ``n1, n2, ...`` and jobs ``j1, j2, ...`` (same order)."""
    names = {n.id: f"n{k + 1}" for k, n in enumerate(inst.nodes)}
    if all(k == v for k, v in names.items()) and all(
        j.id == f"j{k + 1}" for k, j in enumerate(inst.jobs)
    ):
        return None
    nodes = [dataclasses.replace(n, id=names[n.id]) for n in inst.nodes]
    slots = [dataclasses.replace(s, node=names[s.node]) for s in inst.slots]
    jobs = [dataclasses.replace(j, id=f"j{k + 1}") for k, j in enumerate(inst.jobs)]
    return make(nodes, slots, jobs, inst)
