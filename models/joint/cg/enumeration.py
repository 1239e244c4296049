"""Every window of a job whose priced value is at most a threshold (docs/exact-models.md,
"Closing the gap by enumeration"), as route enumeration does for vehicle routing
(Baldacci, Christofides & Mingozzi 2008).

With multipliers of a Lagrangian bound L, every solution of value at most U uses only
windows whose reduced cost is at most U − L (:mod:`models.joint.cg.fixing`), so listing
those windows turns the joint problem into a set-packing problem over an explicit,
usually small, set of columns.

Between two consecutive left-end candidate starts of the pricing oracle
(:mod:`models.joint.cg.levels`) every option is alive throughout or not at all and every
node value is constant, so a window's value there is ``Σ z + a_rt·R + a_T·T + a_1``. Per
such piece and duration level, a depth-first search over the alive nodes in increasing
value lists each n-subset whose values can still meet the threshold somewhere in the
piece, within the job's budget and the level rule (rough geometry with a priced runtime
lists a window at the level of its longest task only); each subset is then expanded to
the starts of the piece where its value meets the threshold.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from models.joint.cg.column import Linear
from models.joint.cg.levels import _Group, _groups
from models.joint.cg.prices import Prices
from models.joint.space import JobSpace
from planner.deadline import Deadline

Listed = tuple[float, int, tuple[int, ...]]
"""A listed window: priced value, start T and option indices of the job's space."""

TOLERANCE = 1e-9
"""Floating slack with which a value is compared with the threshold (keeps ties listed)."""


CHECK_EVERY = 1024
"""Steps of the subset search (and rows of a level) between two looks at the deadline."""


class TooMany(Exception):
    """Raised when a listing would exceed its ``limit``, or its deadline passes."""


class _Room:
    """What a listing may still take: windows (None: any number) and time (a deadline,
    None: any)."""

    def __init__(self, limit: int | None, deadline: Deadline | None) -> None:
        self.limit, self.deadline, self.steps = limit, deadline, 0

    def take(self, out: list[Listed], more: int) -> None:
        """Raise :class:`TooMany` before ``out`` would grow past the limit by ``more``."""
        if self.limit is not None and len(out) + more > self.limit:
            raise TooMany

    def tick(self) -> None:
        """Count a step; every :data:`CHECK_EVERY` steps, raise :class:`TooMany` past the
        deadline."""
        self.steps += 1
        if self.deadline is not None and self.steps % CHECK_EVERY == 0 and (
                self.deadline.passed()):
            raise TooMany


def windows_below(
    sp: JobSpace,
    form: Linear,
    prices: Prices,
    threshold: float,
    *,
    free_start: bool = True,
    limit: int | None = None,
    deadline: Deadline | None = None,
) -> list[Listed]:
    """Return every window of the job whose priced value under ``form`` and ``prices`` is at
    most ``threshold``, each once, with its exact value.

    ``limit``: raise :class:`TooMany` before more windows than that would be held (a piece's
    starts are counted before they are written, so memory stays within the limit);
    ``deadline``: raise it once the deadline has passed, looked at
    inside every loop.
    """
    out: list[Listed] = []
    room = _Room(limit, deadline)
    for R, idx, rule in _groups(sp, form):
        if len(idx) >= sp.n:
            _level(sp, _Group(sp, idx, form, prices, R), form, threshold, free_start,
                   rule or (not sp.square and form.rt != 0), out, room)
    return out


def _level(
    sp: JobSpace,
    g: _Group,
    form: Linear,
    threshold: float,
    free_start: bool,
    exact_rule: bool,
    out: list[Listed],
    room: _Room,
) -> None:
    n = sp.n
    if free_start:
        T = g.breakpoints("left")
        final = int((g.e - g.d).max())
        ends = np.append(T[1:] - 1, final)
    else:
        T = np.array(sp.slot_starts, dtype=np.int64)
        ends = T
    if not len(T):
        return
    zn, which = g.values(T)
    if zn.shape[1] < n:
        return
    fixed = form.rt * g.R + form.one
    least = fixed + np.minimum(form.T * T, form.T * ends)  # the piece's least start term
    smallest = np.partition(zn, n - 1, axis=1)[:, :n].sum(axis=1) + least
    for row in np.flatnonzero(smallest <= threshold + TOLERANCE):
        room.tick()
        z = zn[row]
        cells = np.flatnonzero(np.isfinite(z))
        order = cells[np.argsort(z[cells], kind="stable")]
        opts = which[row][order]
        found = _subsets(z[order], g.c[opts], g.exact[opts] if exact_rule else None, n,
                         sp.budget, threshold - least[row], room, len(out))
        lo, hi = int(T[row]), int(ends[row])
        for total, picked in found:
            chosen = tuple(sorted(int(g.idx[opts[k]]) for k in picked))
            base = total + fixed
            starts = _starts(lo, hi, base, form.T, threshold)
            room.take(out, len(starts))  # counted before written: a long slot has many
            out.extend((base + form.T * t, t, chosen) for t in starts)


def _starts(lo: int, hi: int, base: float, slope: float, threshold: float) -> range:
    """Return the starts t of [lo, hi] with ``base + slope·t ≤ threshold``."""
    if slope == 0:
        return range(lo, hi + 1) if base <= threshold + TOLERANCE else range(0)
    edge = (threshold + TOLERANCE - base) / slope
    if slope > 0:
        return range(lo, hi + 1 if edge >= hi else int(np.floor(edge)) + 1 if edge >= lo else lo)
    return range(lo if edge <= lo else int(np.ceil(edge)) if edge <= hi else hi + 1, hi + 1)


def _subsets(
    z: np.ndarray,
    c: np.ndarray,
    exact: np.ndarray | None,
    n: int,
    budget: int | None,
    cap: float,
    room: _Room | None = None,
    held: int = 0,
) -> list[tuple[float, tuple[int, ...]]]:
    """Return every n-subset (positions into ``z``, sorted increasingly) with ``Σ z ≤ cap``,
    ``Σ c ≤ budget`` and, if ``exact`` is given, at least one exact position.

    ``room``: its deadline is looked at while searching, and each subset (which has at
    least one start meeting the threshold, so becomes a window) counts against its limit
    beside the ``held`` windows already listed."""
    room = room or _Room(None, None)
    m = len(z)
    cum = np.concatenate([[0.0], np.cumsum(z)]).tolist()
    zl, cl = z.tolist(), c.tolist()
    el = exact.tolist() if exact is not None else None
    found: list[tuple[float, tuple[int, ...]]] = []
    picked: list[int] = []
    cap += TOLERANCE

    def walk(pos: int, r: int, total: float, spent: int, has: bool) -> None:
        room.tick()
        if r == 0:
            if el is None or has:
                if room.limit is not None and held + len(found) >= room.limit:
                    raise TooMany
                found.append((total, tuple(picked)))
            return
        for k in range(pos, m - r + 1):
            if total + cum[k + r] - cum[k] > cap:  # the r smallest from k on already exceed
                return
            if budget is not None and spent + cl[k] > budget:
                continue
            picked.append(k)
            walk(k + 1, r - 1, total + zl[k], spent + cl[k], has or (el is not None and el[k]))
            picked.pop()

    walk(0, n, 0.0, 0, False)
    return found


def count_below(
    spaces: Sequence[JobSpace],
    form: Linear,
    prices: Prices,
    thresholds: Sequence[float | None],
    *,
    free_start: bool = True,
    limit: int | None = None,
    deadline: Deadline | None = None,
) -> list[list[Listed]] | None:
    """Return :func:`windows_below` for every job (None threshold: the job gets no window),
    or None when together they exceed ``limit`` or ``deadline`` passes."""
    out: list[list[Listed]] = []
    left = limit
    try:
        for j, (sp, theta) in enumerate(zip(spaces, thresholds, strict=True)):
            found = [] if theta is None else windows_below(
                sp, form, prices.of(j), theta, free_start=free_start, limit=left, deadline=deadline)
            out.append(found)
            if left is not None:
                left -= len(found)
    except TooMany:
        return None
    return out
