"""Independent checker of an execution replay (Toporkov et al. 2015, §7.2).

Given a cycle's instance, its preliminary schedule, the real/reserved
factor of every task and the replay's rows, it recomputes from the data
alone (never importing the replay) that:

- ``rows``: one row per reserved job;
- ``times``: scheduled start and time are the reservation's; real start is
  the start of the window run, real time Σ factor × task time, real finish
  start + the longest real task;
- ``fixed``: without re-planning every job runs in its reservation;
- ``busy``: every task really runs inside a free slot of the instance, and
  no two tasks really run on one node at once (a task holds its node up to
  the next whole quantum after it ends);
- ``move``: with re-planning, each move at a release instant t is a valid
  window (:func:`validation.check.check_window`) on the free slots at that
  moment — the instance's slots minus every other job's reservation, minus
  only the part before its release for a task already released — starting
  at or after t, earlier than the job's previous window and at the earliest
  feasible start (brute force of :mod:`validation.brute`);
- ``compress``: with re-planning, at every release instant no job waiting
  (not moved then) had a feasible window earlier than its own.

Use small instances (the brute force is exponential).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from instances import Instance, Slot
from validation.brute import brute_force
from validation.check import check_window


def _tasks(w: Any, f: Sequence[float]) -> list[tuple[str, int, int, int]]:
    """(node, start, real end rounded up to a quantum, reserved end) per task."""
    return [(p.node, p.start, p.start + math.ceil(float(f[i]) * (p.end - p.start)), p.end)
            for i, p in enumerate(w.placements)]  # fmt: skip


def _free(instance: Instance, held: list[tuple[str, int, int]]) -> list[Slot]:
    out = []
    for s in instance.slots:
        cuts = sorted((a, b) for node, a, b in held if node == s.node and a < s.end and b > s.start)
        at = s.start
        for a, b in cuts:
            if a > at:
                out.append(Slot(s.node, at, a, s.price))
            at = max(at, b)
        if at < s.end:
            out.append(Slot(s.node, at, s.end, s.price))
    order = instance.node_index
    return sorted(out, key=lambda s: (s.start, order[s.node]))


def _earliest(instance: Instance, job: str, free: list[Slot], t: int) -> int | None:
    order = instance.node_index
    clipped = sorted((Slot(s.node, max(s.start, t), s.end, s.price) for s in free if s.end > t),
                     key=lambda s: (s.start, order[s.node]))  # fmt: skip
    got = brute_force(instance, job, "min_start", slots=clipped, max_slots=64)
    return None if got is None else got.start


def check_replay(
    instance: Instance,
    reservations: Sequence[Any],
    factors: Mapping[str, Sequence[float]],
    rows: Sequence[Any],
    *,
    replan: bool,
) -> list[str]:
    """Return the violations of the replay ``rows`` (empty when sound); see the module doc."""
    plan = {w.job: w for w in reservations}
    out: list[str] = []
    if sorted(r.job for r in rows) != sorted(plan):
        return ["rows: the rows are not one per reserved job"]
    final = {r.job: r.window for r in rows}
    for r in rows:
        w, f = r.window, factors[r.job]
        real = [float(f[i]) * (p.end - p.start) for i, p in enumerate(w.placements)]
        sched = plan[r.job]
        reserved = sum(p.end - p.start for p in sched.placements)
        if (r.scheduled_start, r.scheduled_time) != (sched.start, reserved):
            out.append(f"times: '{r.job}' scheduled start or time is not its reservation's")
        if r.real_start != w.start or not math.isclose(r.real_time, sum(real)) \
                or not math.isclose(r.real_finish, w.start + max(real)):  # fmt: skip
            out.append(f"times: '{r.job}' real start, time or finish does not match its run")
        if not replan and (r.moves or _key(w) != _key(sched)):
            out.append(f"fixed: '{r.job}' did not run in its reservation")
    busy = sorted((node, a, b) for r in rows for node, a, b, _ in _tasks(r.window, factors[r.job]))
    for node, a, b in busy:
        if not any(s.node == node and s.start <= a and b <= s.end for s in instance.slots):
            out.append(f"busy: a task on '{node}' over [{a}, {b}) is outside the free slots")
    for (n1, _, b1), (n2, a2, _) in itertools.pairwise(busy):
        if n1 == n2 and b1 > a2:
            out.append(f"busy: two tasks run on '{n1}' at {a2}")
    if replan:
        out += _check_moves(instance, plan, factors, rows, final)
    return out


def _key(w: Any) -> tuple[Any, ...]:
    return (w.start, tuple((p.node, p.start, p.end) for p in w.placements))


def _check_moves(
    instance: Instance, plan: Mapping[str, Any], factors: Mapping[str, Sequence[float]],
    rows: Sequence[Any], final: Mapping[str, Any],
) -> list[str]:  # fmt: skip
    out: list[str] = []
    queue = [j.id for j in instance.jobs if j.id in plan]
    moves = {r.job: list(r.moves) for r in rows}
    ends = [(e, end) for j in queue for _, _, e, end in _tasks(final[j], factors[j])]
    releases = sorted({e for e, end in ends if e < end})
    for t in releases:
        for pos, j in enumerate(queue):
            now = _window_at(plan, moves, queue, t, pos)
            w = now[j]
            if w.start <= t:
                continue
            held = []
            for k in queue:
                if k == j:
                    continue
                started = now[k].start < t
                for node, a, e, end in _tasks(now[k], factors[k]):
                    held.append((node, a, e if started and e <= t and e < end else end))
            free = _free(instance, held)
            best = _earliest(instance, j, free, t)
            moved = [m for at, m in moves[j] if at == t]
            if moved:
                m = moved[0]
                bad = check_window(instance, j, m, slots=free)
                if bad:
                    out.append(f"move: '{j}' at {t}: {bad[0]}")
                if not t <= m.start < w.start or m.start != best:
                    out.append(f"move: '{j}' at {t} to {m.start}, earliest {best}, was {w.start}")
            elif best is not None and best < w.start:
                out.append(f"compress: '{j}' could start at {best} at instant {t}, kept {w.start}")
    return out


def _window_at(
    plan: Mapping[str, Any], moves: Mapping[str, list[Any]], queue: list[str], t: int, pos: int
) -> dict[str, Any]:
    """Each job's window when job ``queue[pos]`` is considered at instant ``t`` (queue order)."""
    now = {}
    for k, j in enumerate(queue):
        done = [m for at, m in moves[j] if at < t or (at == t and k < pos)]
        now[j] = done[-1] if done else plan[j]
    return now
