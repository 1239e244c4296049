"""Independent checker of one stated window against its instance.

It checks what a file states, field by field (a placement's end, cost and
slot are compared with the values its node, the job and the free slot give,
never recomputed from the start and trusted), so a window whose end was
edited is caught. It imports the data classes and the two unit functions of
docs/concepts.md only, never the search or window code whose output it checks;
the combination problems' table (Toporkov et al. 2015 eqs. (6)–(9)) is restated
here for the same reason.

Each violation is a :class:`Violation` naming the line, the job, the
placement, the rule, the stated and the expected value. The rules are
listed in :data:`RULES`; whole files are checked by :mod:`validation.results.files`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from instances import CRITERIA, Instance, Job, Slot, budget_from_price, cost, duration
from validation.results.lines import StatedWindow

RULES: dict[str, str] = {
    "job": "the line names a job of the instance, once (alternatives: numbered 1, 2, ... per job)",
    "missing": "every job of the instance has a line",
    "count": "a window has exactly n placements",
    "node": "every placement is on a node of the instance",
    "distinct": "the placements are on distinct nodes",
    "suitability": "every node has performance >= P and meets every requirement",
    "start": "every placement starts at the window start",
    "release": "the window starts at or after the job's release",
    "deadline": "the window finishes at or before the job's deadline",
    "duration": "each task lasts its geometry's duration: ceil(V/p), square: ceil(V/min p)",
    "slot": "each task lies inside one free slot of its node; a stated slot is that slot",
    "cost": "each task costs cost(price of its slot, duration)",
    "budget": "the window costs at most the job's budget S",
    "price": "(ALP) every slot's price is at most the job's cap C",
    "metric": "every stated metric equals the one recomputed from the placements",
    "objective": "a stated objective is the value of the window or combination",
    "bound": "a stated bound is on the right side of the objective (min: <=, max: >=)",
    "overlap": "no two windows of a batch share a node's time",
    "order": "(alternatives) rounds in batch order; a job missing from a round never returns",
    "status": "statuses agree with the windows (a job with alternatives is placed)",
    "constraint": "(combination) the stated Σ g is that of the placed windows",
    "limit": "(combination) Σ g <= g*; g* is the default when the alternatives are given",
    "gap": "(combination) gap = |objective - bound| / max(|objective|, 1)",
    "optimum": "no feasible window is better than the proven optimum over the AEP space",
}
"""Rule name → what it requires (docs/verify.md)."""

PROBLEMS: dict[int, tuple[str, str, str]] = {
    6: ("cost", "time", "max"),
    7: ("time", "cost", "min"),
    8: ("cost", "time", "min"),
    9: ("time", "time", "max"),
}
"""Combination problem → (objective, constraint, sense): Toporkov et al. 2015 eqs. (6)–(9)."""

_REL = 1e-9


@dataclass(frozen=True)
class Violation:
    """One broken rule: where (line, job, alternative, placement), the stated and expected value."""

    rule: str
    stated: Any = None
    expected: Any = None
    detail: str = ""
    job: str | None = None
    line: int | None = None
    placement: int | None = None
    node: str | None = None
    alternative: int | None = None
    field: str = ""

    def text(self) -> str:
        """Return the one-line form: ``line 3, job 'j1', placement 0 on 'n1': rule: ...``."""
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.job is not None:
            where.append(f"job '{self.job}'")
        if self.alternative is not None:
            where.append(f"alternative {self.alternative}")
        if self.placement is not None:
            where.append(f"placement {self.placement} on '{self.node}'")
        head = ", ".join(where)
        what = f"{self.field} " if self.field else ""
        body = f"{self.rule}: {what}stated {_show(self.stated)}, expected {_show(self.expected)}"
        if self.detail:
            body += f" ({self.detail})"
        return f"{head}: {body}" if head else body

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON form (``planner check --json``)."""
        return {
            "line": self.line,
            "job": self.job,
            "alternative": self.alternative,
            "placement": self.placement,
            "node": self.node,
            "rule": self.rule,
            "field": self.field,
            "stated": _plain(self.stated),
            "expected": _plain(self.expected),
            "detail": self.detail,
        }


def _show(value: Any) -> str:
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"[{value[0]}, {value[1]})"
    if value is None:
        return "nothing"
    return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


@dataclass(frozen=True)
class Checked:
    """A window's violations and the metrics recomputed from its nodes and start (None when a
    node is unknown)."""

    violations: list[Violation]
    metrics: dict[str, float] | None = None
    hosts: tuple[Slot | None, ...] = field(default=())


def exact_price(x: float) -> Fraction:
    """Return ``x`` as the decimal the file wrote (``0.8`` is 4/5, not its binary neighbour)."""
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def price_cap(job: Job) -> tuple[Fraction, str] | None:
    """Return ALP's cap C as an exact rational and how it was derived (Toporkov et al. 2011 §3):
    ``max_price``, else ``budget / (volume · nodes)``; None when the job has neither."""
    if job.max_price is not None:
        return exact_price(job.max_price), f"C = max_price = {job.max_price:g}"
    if job.budget is not None:
        c = Fraction(job.budget) / (exact_price(job.volume) * job.nodes)
        return c, f"C = S/(V·n) = {job.budget}/({job.volume:g}·{job.nodes})"
    return None


def job_budget(job: Job) -> int | None:
    """Return S: the job's budget, else floor(C·V·n) from its max_price (docs/concepts.md)."""
    if job.budget is not None:
        return job.budget
    if job.max_price is not None:
        return budget_from_price(job.max_price, job.volume, job.nodes)
    return None


def _suitability(instance: Instance, job: Job, node_id: str) -> tuple[Any, Any] | None:
    node = instance.node(node_id)
    if node.performance < job.min_performance:
        return f"p = {node.performance:g}", f"p >= P = {job.min_performance:g}"
    for name, wanted in job.requirements.items():
        have = node.attributes.get(name)
        ok = have is not None and isinstance(have, str) == isinstance(wanted, str)
        if ok:
            ok = have == wanted if isinstance(wanted, str) else have >= wanted
        if not ok:
            want = f"{name} = {wanted}" if isinstance(wanted, str) else f"{name} >= {wanted:g}"
            return f"{name} = {have}" if have is not None else f"no {name}", want
    return None


def host_slot(slots: Sequence[Slot], node: str, start: int, end: int) -> Slot | None:
    """Return the first slot of ``node`` in ``slots`` that holds ``[start, end)``, or None."""
    for s in slots:
        if s.node == node and s.start <= start and end <= s.end:
            return s
    return None


def _free(slots: Sequence[Slot], node: str, limit: int = 4) -> str:
    mine = [f"[{s.start}, {s.end})" for s in slots if s.node == node]
    if not mine:
        return f"node '{node}' has no free slot"
    more = f" and {len(mine) - limit} more" if len(mine) > limit else ""
    return f"free slots of '{node}': {', '.join(mine[:limit])}{more}"


def _start(window: StatedWindow, need: dict[int, int]) -> int:
    """Return the start the window's tasks run from: the stated window start, unless all
    placements share another start that their ends and durations confirm (then the window's
    own start field is the one in error)."""
    starts = {p.start for p in window.placements}
    if len(starts) != 1 or window.start in starts:
        return window.start
    (common,) = starts
    ends_fit = all(window.placements[i].end - common == d for i, d in need.items())
    return common if ends_fit else window.start


def _starts(window: StatedWindow, t: int, bad: Any) -> int:
    """Flag every start that differs from ``t`` (the window's, or each placement's)."""
    if window.start != t:
        bad("start", window.start, t, "the window start is not its placements' common start",
            field="window start")
    for i, p in enumerate(window.placements):
        if p.start != t:
            bad("start", p.start, t, "a window's tasks start together", i, "start")
    return t


def check_window(
    instance: Instance,
    job: Job,
    window: StatedWindow,
    *,
    slots: Sequence[Slot] | None = None,
    constraint: str = "budget",
    within: bool = False,
    line: int | None = None,
    alternative: int | None = None,
) -> Checked:
    """Check one stated window of ``job`` field by field; return its violations and metrics.

    Parameters
    ----------
    instance, job
        The problem the window answers.
    window
        The window as the file states it.
    slots
        The free slot list the window was searched on (default: the instance's).
    constraint
        ``budget`` (the window costs at most S) or ``price_cap`` (ALP: every
        slot priced at most C, no budget; Toporkov et al. 2011 §3).
    within
        A stated slot may be a piece of a free slot (a combination's windows were found on
        slot lists shrunk by earlier alternatives); otherwise it must be the free slot itself.
    line, alternative
        Where the window stands in its file (for the messages).
    """
    slots = instance.slots if slots is None else slots
    out: list[Violation] = []

    def bad(rule: str, stated: Any, expected: Any, detail: str = "", i: int | None = None,
            field: str = "") -> None:  # fmt: skip
        node = window.placements[i].node if i is not None else None
        out.append(Violation(rule, stated, expected, detail, job.id, line, i, node, alternative,
                             field))  # fmt: skip

    placements = window.placements
    if len(placements) != job.nodes:
        bad("count", len(placements), job.nodes, "the job needs n tasks", field="placements")
    known: list[int] = []
    seen: dict[str, int] = {}
    for i, p in enumerate(placements):
        if p.node not in instance.node_index:
            bad("node", p.node, "a node of the instance", "unknown node", i, "node")
            continue
        if p.node in seen:
            bad("distinct", p.node, "another node", f"placement {seen[p.node]} is on it too", i,
                "node")
        seen.setdefault(p.node, i)
        known.append(i)
    if not known:
        _starts(window, window.start, bad)
        return Checked(out)
    perf = {i: instance.node(placements[i].node).performance for i in known}
    square = instance.geometry == "square"
    slowest = min(perf.values())
    need = {i: duration(job.volume, slowest if square else perf[i]) for i in known}
    t = _starts(window, _start(window, need), bad)
    hosts: dict[int, Slot | None] = {}
    prices: dict[int, float] = {}
    edges: dict[int, tuple[int, int] | None] = {}
    cap = price_cap(job) if constraint == "price_cap" else None
    for i in known:
        p = placements[i]
        d = need[i]
        why = _suitability(instance, job, p.node)
        if why is not None:
            bad("suitability", why[0], why[1], "the node does not suit the job", i)
        if p.end != t + d:
            p_used = slowest if square else perf[i]
            geometry = "square, the slowest node's p" if square else "rough"
            bad("duration", p.end, t + d,
                f"V = {job.volume:g} on p = {p_used:g} lasts {d} quanta, {geometry}", i,
                "end")  # fmt: skip
        host = host_slot(slots, p.node, p.start, p.end)
        if host is None:
            bad("slot", (p.start, p.end), "inside a free slot", _free(slots, p.node), i, "task")
            host = host_slot(slots, p.node, t, t + d)
        hosts[i] = host
        edges[i] = (host.start, host.end) if host is not None else p.slot
        if p.slot is not None and host is not None:
            if within:
                if not (host.start <= p.slot[0] <= p.start and p.end <= p.slot[1] <= host.end):
                    bad("slot", p.slot, f"a piece of [{host.start}, {host.end}) holding the task",
                        "", i, "slot")  # fmt: skip
                edges[i] = p.slot
            elif p.slot != (host.start, host.end):
                bad("slot", p.slot, (host.start, host.end), "the free slot holding the task", i,
                    "slot")
        price = instance.slot_price(host) if host is not None else instance.node(p.node).price
        prices[i] = price
        if cap is not None and exact_price(price) > cap[0]:
            bad("price", f"{price:g}", f"<= {float(cap[0]):g}", cap[1], i, "price")
        want = cost(price, d)
        if p.cost is not None and p.cost != want:
            bad("cost", p.cost, want, f"price {price:g} × {d} quanta", i, "cost")
    if job.release is not None and t < job.release:
        bad("release", t, f">= {job.release}", field="window start")
    finish = t + max(need.values())
    if job.deadline is not None and finish > job.deadline:
        bad("deadline", finish, f"<= {job.deadline}", field="window finish")
    total = sum(cost(prices[i], need[i]) for i in known)
    budget = job_budget(job)
    if constraint == "budget" and budget is not None and total > budget:
        bad("budget", total, f"<= {budget}", field="window cost")
    if len(known) != len(placements):
        return Checked(out)
    metrics: dict[str, float] = {
        "start": t,
        "finish": finish,
        "runtime": max(need.values()),
        "cost": total,
        "proc_time": sum(need.values()),
        "q": math.fsum(instance.node(placements[i].node).q for i in known),
    }
    if all(edges[i] is not None for i in known):
        near = [min(t - edges[i][0], edges[i][1] - t - need[i]) for i in known]  # type: ignore[index]
        far = [max(t - edges[i][0], edges[i][1] - t - need[i]) for i in known]  # type: ignore[index]
        metrics["near_distance"] = sum(near) / len(near)
        metrics["far_distance"] = sum(far) / len(far)
    for name, stated in window.metrics.items():
        if name not in metrics:
            continue
        if not math.isclose(stated, metrics[name], rel_tol=_REL, abs_tol=_REL):
            bad("metric", stated, metrics[name], field=name)
    return Checked(out, metrics, tuple(hosts.get(i) for i in range(len(placements))))


def criterion_value(metrics: dict[str, float] | None, criterion: str) -> float | None:
    """Return the value of ``criterion`` (a docs/concepts.md name) in recomputed ``metrics``."""
    if metrics is None:
        return None
    return metrics.get(CRITERIA[criterion].metric)


def better(criterion: str, a: float, b: float) -> bool:
    """Return True when value ``a`` is better than ``b`` for ``criterion`` (beyond float noise)."""
    if math.isclose(a, b, rel_tol=_REL, abs_tol=_REL):
        return False
    return a < b if CRITERIA[criterion].sense == "min" else a > b


