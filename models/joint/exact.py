"""The exact re-check of a joint solution (docs/guarantees.md, "What makes a proof a proof").

Every solution a joint solver returns, and every solution a floating-point solver (SCIP, the
master LP of branch-and-price) offers as an incumbent, is checked here in Python integers
against every constraint of the joint model (docs/exact-models.md): per placed job, n
distinct options on distinct nodes, each task inside its slot, the start rule, the job's
budget, the square level rule; no two tasks sharing a node's time; the side rows (VO
budget, combination limit t* or b*). A float tolerance (SCIP's is relative: 10⁻⁶ of 10¹⁵
is 10⁹ units) never admits a solution, because none of these sums is a float.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import pairwise

from models.joint.space import JobSpace

Placement = Mapping[int, tuple[int, Sequence[int]]]
"""Job index → (start T, option indices of the job's :class:`JobSpace`)."""


def window_metric(sp: JobSpace, T: int, chosen: Sequence[int], name: str) -> int:
    """Return the integer metric ``name`` (proc_time, cost, runtime, start, finish) of job
    ``sp``'s window at ``T`` on the options ``chosen``."""
    opts = [sp.options[k] for k in chosen]
    d = [o.d for o in opts]
    values = {"proc_time": sum(d), "cost": sum(o.cost for o in opts),
              "runtime": max(d, default=0), "start": T, "finish": T + max(d, default=0)}
    return values[name]


def largest(sp: JobSpace, name: str) -> int:
    """Return a bound on |``name``| (proc_time, cost, runtime, start, finish) over every
    window of the job: n times the longest task, the n dearest tasks, the longest task, the
    start range's farther end (plus the longest task for finish)."""
    ds = sorted(o.d for o in sp.options)
    longest = ds[-1] if ds else 0
    if name == "proc_time":
        return sp.n * longest
    if name == "cost":
        return sum(sorted(o.cost for o in sp.options)[-sp.n:]) if sp.options else 0
    if name == "runtime":
        return longest
    span = sp.start_range
    edge = max(abs(span[0]), abs(span[1])) if span is not None else 0
    return edge + (longest if name == "finish" else 0)


def broken(
    spaces: Sequence[JobSpace],
    placement: Placement,
    sides: Sequence[tuple[str, int]] = (),
    *,
    free_start: bool = True,
) -> str | None:
    """Return the first rule ``placement`` breaks (None: it is a solution of the joint model
    with the side rows ``(metric, limit)``: Σ metric over the placed jobs ≤ limit)."""
    busy: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for j, (T, chosen) in placement.items():
        if not 0 <= j < len(spaces):
            return f"job {j}: not in the batch"
        sp, T = spaces[j], int(T)
        picked = [int(k) for k in chosen]
        if len(set(picked)) != len(picked) or len(picked) != sp.n:
            return f"job {j}: {len(set(picked))} distinct options, not {sp.n}"
        if any(not 0 <= k < len(sp.options) for k in picked):
            return f"job {j}: an option index out of range"
        opts = [sp.options[k] for k in picked]
        if len({o.node for o in opts}) != len(opts):
            return f"job {j}: two tasks on one node"
        if not free_start and T not in sp.slot_starts:
            return f"job {j}: start {T} is no slot start"
        for o in opts:
            if not o.slot.start <= T or T + o.d > o.slot.end:
                return f"job {j}: task [{T}, {T + o.d}) leaves its slot on '{o.node}'"
            busy[o.node].append((T, T + o.d))
        if sp.budget is not None and sum(o.cost for o in opts) > sp.budget:
            return f"job {j}: cost {sum(o.cost for o in opts)} over its budget {sp.budget}"
        if sp.square and (len({o.level for o in opts}) != 1 or not any(o.exact for o in opts)):
            return f"job {j}: breaks the square level rule"
    for node, spans in busy.items():
        spans.sort()
        for (_, end), (start, _) in pairwise(spans):
            if start < end:
                return f"node '{node}': two tasks share time"
    for metric, limit in sides:
        total = sum(window_metric(spaces[j], int(T), chosen, metric)
                    for j, (T, chosen) in placement.items())
        if total > limit:
            return f"Σ {metric} = {total} over its limit {limit}"
    return None
