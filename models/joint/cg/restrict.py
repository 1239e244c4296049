"""Branching rules of the joint branch-and-price (docs/exact-models.md) and the job spaces
they leave to the pricing oracle.

A rule fixes one decision of one job: placed or not, a node used or banned, an option
(task position) used or banned, or a bound on the window start (T ≤ t or T ≥ t). A set
of rules leaves each job a :class:`Restricted` space that the oracle of
:mod:`models.joint.cg.pricing` searches exactly as a whole :class:`JobSpace`: banned
options are dropped, a start bound clips every option's slot to the starts it allows
(an option at T needs ``s ≤ T ≤ e − d``), and a required node's options get a bonus
−M larger than any difference of two window values, so the least window holds every
required node whenever such a window exists.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from instances import Slot
from models.joint.cg.column import Column, Linear
from models.joint.cg.pricing import Prices, price_many
from models.joint.space import JobSpace, Option

KINDS: tuple[str, ...] = ("placed", "node", "option", "start")
"""What a :class:`Rule` fixes: the job placed, a node, an option, or its start."""


@dataclass(frozen=True)
class Rule:
    """One branching decision on job ``j``.

    ``kind`` "placed": the job is placed (``on``) or not; "node": node ``at`` is used
    (``on``) or banned; "option": option index ``at`` is used or banned; "start":
    ``T ≥ at`` (``on``) or ``T ≤ at``.
    """

    j: int
    kind: str
    on: bool
    at: int | str = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a rule's kind is one of {', '.join(KINDS)}, not '{self.kind}'")
        whole = isinstance(self.at, Integral) and not isinstance(self.at, bool)
        if not (isinstance(self.j, Integral) and not isinstance(self.j, bool) and self.j >= 0):
            raise ValueError(f"a rule's job index j is >= 0, not {self.j!r}")
        if self.kind == "node" and not isinstance(self.at, str):
            raise ValueError(f"a node rule's at is a node id, not {self.at!r}")
        if self.kind == "option" and not (whole and int(self.at) >= 0):
            raise ValueError(f"an option rule's at is an option index >= 0, not {self.at!r}")
        if self.kind == "start" and not whole:
            raise ValueError(f"a start rule's at is an integer time, not {self.at!r}")


@dataclass
class Limits:
    """The rules on one job, gathered."""

    placed: bool | None = None
    banned_nodes: set[str] = field(default_factory=set)
    required_nodes: set[str] = field(default_factory=set)
    banned: set[int] = field(default_factory=set)
    required: set[int] = field(default_factory=set)
    lo: int | None = None
    hi: int | None = None
    spans: list[tuple[int, int]] | None = None
    """Allowed start intervals (reduced-cost fixing at the root), None: any start."""


def gather(
    rules: Sequence[Rule], jobs: int, base: Sequence[Limits] | None = None
) -> list[Limits]:
    """Return each job's :class:`Limits` under ``rules``, added to ``base`` (copied) if given."""
    out = [Limits() for _ in range(jobs)] if base is None else [copy.deepcopy(b) for b in base]
    for r in rules:
        lim = out[r.j]
        if r.kind == "placed":  # "not placed" wins whatever the order: no window obeys both
            lim.placed = r.on and lim.placed is not False
        elif r.kind == "node":
            (lim.required_nodes if r.on else lim.banned_nodes).add(str(r.at))
        elif r.kind == "option":
            (lim.required if r.on else lim.banned).add(int(r.at))
        elif r.on:
            lim.lo = int(r.at) if lim.lo is None else max(lim.lo, int(r.at))
        else:
            lim.hi = int(r.at) if lim.hi is None else min(lim.hi, int(r.at))
    return out


def compatible(col: Column, space: JobSpace, lim: Limits) -> bool:
    """Return True when the window ``col`` obeys the job's rules."""
    if lim.placed is False:
        return False
    lo = -(2**62) if lim.lo is None else lim.lo
    hi = 2**62 if lim.hi is None else lim.hi
    if not lo <= col.T <= hi:
        return False
    if lim.spans is not None and not any(a <= col.T <= b for a, b in lim.spans):
        return False
    chosen = set(col.chosen)
    if chosen & lim.banned or not lim.required <= chosen:
        return False
    nodes = {space.options[k].node for k in col.chosen}
    required = lim.required_nodes | {space.options[k].node for k in lim.required}
    return not (nodes & lim.banned_nodes) and required <= nodes


@dataclass
class Restricted:
    """A job's options under its rules, searched by the pricing oracle like a JobSpace.

    ``index`` maps each option back to the job's whole space (an option cut by several
    allowed start intervals appears once per interval); ``offset`` is the bonus of the
    required nodes' options; ``nodes`` the required nodes.
    """

    options: list[Option]
    index: np.ndarray
    offset: np.ndarray
    nodes: frozenset[str]
    n: int
    budget: int | None
    square: bool
    levels: list[int]
    slot_starts: list[int]


def restrict(space: JobSpace, lim: Limits) -> Restricted | None:
    """Return the job's space under ``lim`` (None: the rules leave the job no window)."""
    if lim.placed is False:
        return None
    required = set(lim.required_nodes)
    banned = set(lim.banned)
    for k in lim.required:
        node = space.options[k].node
        required.add(node)
        banned.update(i for i, o in enumerate(space.options) if o.node == node and i != k)
    if len(required) > space.n or required & lim.banned_nodes:
        return None
    lo = -(2**62) if lim.lo is None else lim.lo
    hi = 2**62 if lim.hi is None else lim.hi
    allowed = [(lo, hi)] if lim.spans is None else lim.spans  # []: no start at all
    spans = [(max(int(a), lo), min(int(b), hi)) for a, b in allowed]
    spans = [(a, b) for a, b in spans if a <= b]
    options, index = [], []
    for k, o in enumerate(space.options):
        if k in banned or o.node in lim.banned_nodes:
            continue
        for a, b in spans:  # an option per allowed interval of starts
            s, e = max(o.slot.start, a), min(o.slot.end, b + o.d)
            if e - s < o.d:
                continue
            part = o if (s, e) == (o.slot.start, o.slot.end) else dataclasses.replace(
                o, slot=Slot(o.node, s, e, o.slot.price))
            options.append(part)
            index.append(k)
    if not required <= {o.node for o in options}:
        return None
    if not options:
        return None
    return Restricted(
        options=options,
        index=np.array(index, dtype=np.int64),
        offset=np.zeros(len(options)),
        nodes=frozenset(required),
        n=space.n,
        budget=space.budget,
        square=space.square,
        levels=space.levels,
        slot_starts=[t for t in space.slot_starts if any(a <= t <= b for a, b in spans)],
    )


def _bonus(rs: Restricted, form: Linear, prices: Prices) -> float:
    """Return M: more than the spread of any two window values of the job (any start).

    The tasks of a window lie on distinct nodes inside the options' span, so its prices sum
    to at most the prices there; duals out of reach do not enlarge M (nor blur the values).
    """
    if not rs.options:
        return 1.0
    base = max(abs(form.pt) * o.d + abs(form.cost) * o.cost for o in rs.options)
    lo = min(o.slot.start for o in rs.options)
    hi = max(o.slot.end for o in rs.options)
    mass = 0.0
    for node in {o.node for o in rs.options}:
        t, rho = prices.by_node.get(node, (np.zeros(0), np.zeros(0)))
        mass += float(rho[(t >= lo) & (t < hi)].sum())
        mass += sum(eta for *_, eta in prices.on(node))  # a task's cut charges, at most
    mass += sum(sigma for _, sigma in prices.rows)  # a window's subset-row charges, at most
    ends = max(max(abs(o.slot.start), abs(o.slot.end)) for o in rs.options)
    far = abs(form.rt) * max(o.d for o in rs.options) + abs(form.T) * ends + abs(form.one)
    return 2.0 * (rs.n * base + mass + far) + 1.0


def _value(
    rs: Restricted, form: Linear, prices: Prices, T: int, chosen: Sequence[int], rows: bool
) -> float:
    """Return the priced value of the window at ``T`` on the restricted options ``chosen``,
    summed afresh (without the bonus, which would cost its magnitude's rounding), with its
    subset-row charges when ``rows``."""
    opts = [rs.options[k] for k in chosen]
    total = form.rt * max(o.d for o in opts) + form.T * T + form.one
    if rows:
        total += prices.row_charge([(o.node, T, T + o.d) for o in opts])
    for o in opts:
        t, P = prices.prefix(o.node)
        covered = P[np.searchsorted(t, T + o.d)] - P[np.searchsorted(t, T)]
        total += form.pt * o.d + form.cost * o.cost + float(covered)
        total += prices.charge(o.node, T, o.d)
    return float(total)


def price_in(
    rs: Restricted, form: Linear, prices: Prices, *, free_start: bool = True
) -> tuple[float, int, tuple[int, ...]] | None:
    """Return the least priced window of the restricted job as :func:`price` does, with the
    option indices of the whole space (None: no window obeys the rules)."""
    found = price_many_in(rs, form, prices, 1, free_start=free_start)
    return found[0] if found else None


def price_many_in(
    rs: Restricted, form: Linear, prices: Prices, k: int, *, free_start: bool = True
) -> list[tuple[float, int, tuple[int, ...]]]:
    """Return up to ``k`` windows of the restricted job as :func:`price_many` does, with the
    option indices of the whole space; the first is :func:`price_in`'s least window, and
    the list is empty when no window obeys the rules. A start whose subset-row search was
    capped gets its window's charge-free value, a lower bound (:func:`price_many`)."""
    bonus = _bonus(rs, form, prices) if rs.nodes else 0.0
    rs.offset = np.array([-bonus if o.node in rs.nodes else 0.0 for o in rs.options])
    out = []
    capped: set[int] = set()
    for value, T, chosen in price_many(rs, form, prices, k,  # type: ignore[arg-type]
                                       free_start=free_start, capped=capped):
        if not rs.nodes <= {rs.options[c].node for c in chosen}:
            if not out:
                return []
            continue
        if rs.nodes:
            value = _value(rs, form, prices, T, chosen, T not in capped)
        out.append((value, T, tuple(sorted(int(rs.index[c]) for c in chosen))))
    return out
