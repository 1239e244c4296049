"""The column-generation loop (docs/exact-models.md): solve the master LP, price every job
exactly, add the improving windows, and keep the best Lagrangian bound.

Every round's Lagrangian value is a valid lower bound on the integer optimum (whatever
the multipliers), so the loop may stop at any time; when no job has an improving window
the bound equals the master LP value. With ``smoothing`` on, pricing runs at a point between
the multipliers of the best bound so far and the LP duals (self-adjusting Wentges smoothing,
with directional smoothing, :mod:`models.joint.cg.stabilise`): when it yields no window
improving the LP (a mispricing), the round is repeated at points nearer the LP duals, and
at the LP duals at last, so the loop ends only at the LP optimum. Each job may add up to
``columns`` windows a round: its least priced windows at distinct starts
(:func:`models.joint.cg.pricing.price_many`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.joint.cg.column import Column
from models.joint.cg.duals import Duals
from models.joint.cg.master import Master
from models.joint.cg.pricing import price_many
from models.joint.cg.stabilise import MODES, Smoother, Space
from models.joint.space import JobSpace
from planner.deadline import Deadline

IMPROVING = 1e-7
"""A window enters the master when its reduced cost is below minus this."""

SMOOTHING = "auto"
"""Default stabilisation: one of :data:`models.joint.cg.stabilise.MODES` — ``off``,
``wentges`` (self-adjusting α) or ``directional`` (self-adjusting α with directional
smoothing) — or ``auto``: ``wentges`` from :data:`SMOOTH_JOBS` jobs on, else ``off``.

Measured (docs/benchmarks.md, ``benchmarks/bench_cg_rounds.py --smoothing``): on css2015's
20 jobs and 24 nodes plain column generation reaches the LP optimum in 16–30 rounds, and
smoothing took problem (8)'s root 1.4–2.4 times longer (seeds 1–3); on 100 jobs and 100
nodes the root is far from converged at its share of a 120 s limit, and after the same 25
rounds Wentges's bound was 6.6 % higher than plain column generation's (directional 5.0 %)."""

SMOOTH_JOBS = 50
"""Jobs from which ``auto`` smoothing is on (measured at 20 and 100 jobs only)."""

COLUMNS = 10
"""Most windows (at distinct starts) one job adds per round."""

ROUND_WINDOWS = 200
"""Default windows per round over all jobs: each job adds ``ROUND_WINDOWS // jobs`` (1 to
:data:`COLUMNS`) of its least windows.

Measured (docs/benchmarks.md, ``benchmarks/bench_cg_rounds.py``): on css2015's 20 jobs,
1, 3, 6, 10 windows per job took 99, 44, 26, 20 rounds to the LP optimum on seed 1's
Σ finish (131, 33, 19, 16 on problem (8)) and the wall time fell with each step; on 100
jobs and 100 nodes the LP re-solves dominate and 1 window per job gave the best bound
after 60 s (3 and 10 gave lower ones), so the count per job falls with the batch."""


@dataclass
class Generation:
    """The outcome of :func:`generate`: best Lagrangian bound, last LP value, pricing rounds,
    whether the LP optimum was reached, and the multipliers of the best bound with each
    job's least priced value under them (for :mod:`models.joint.cg.fixing`), the rounds
    repeated after a mispricing and the smoothing state (None: no smoothing)."""

    bound: float
    lp: float
    rounds: int
    converged: bool
    duals: Duals | None = None
    values: list[float | None] | None = None
    mispricings: int = 0
    smoother: Smoother | None = None


def _round(
    spaces: Sequence[JobSpace],
    master: Master,
    point: Duals,
    lp_duals: Duals,
    free_start: bool,
    columns: int = 1,
    deadline: Deadline | None = None,
) -> tuple[float | None, list[float | None], int, list[tuple[float, Column] | None]]:
    """Price every job at ``point``; add its (up to ``columns``) least windows that improve
    the LP; return the bound, each job's least priced value, the number added and each
    job's least window with its value. When ``deadline`` passes before every job is priced
    the round stops there without a bound (None: a Lagrangian bound needs every job's
    least value)."""
    values: list[float | None] = []
    least: list[tuple[float, Column] | None] = []
    added = 0
    for j, sp in enumerate(spaces):
        if deadline is not None and deadline.passed():
            return None, values, added, least
        found = price_many(sp, point.form, point.prices.of(j), columns,
                           free_start=free_start)
        values.append(found[0][0] if found else None)
        least.append(None)
        for i, (v, T, chosen) in enumerate(found):
            col = Column.build(j, sp, T, chosen)
            if i == 0:
                least[-1] = (v, col)
            if lp_duals.reduced(col) < -IMPROVING:
                added += master.add(col)
    return point.lagrangian(values), values, added, least


def generate(
    spaces: Sequence[JobSpace],
    master: Master,
    *,
    free_start: bool = True,
    deadline: Deadline | None = None,
    target: float | None = None,
    smoothing: str | None = None,
    initial: tuple[Duals, list[float | None]] | None = None,
    columns: int | None = None,
    report: Callable[[Generation], None] | None = None,
) -> Generation:
    """Grow ``master`` by exact pricing until no window improves, ``deadline`` passes (the
    LP solve and each job's pricing stop there), or the bound reaches ``target`` (an
    incumbent's value).

    ``smoothing``: ``auto`` or one of :data:`models.joint.cg.stabilise.MODES` (None:
    :data:`SMOOTHING`); ``initial``: multipliers and each job's least priced value under
    them, whose bound the loop starts from (e.g. every job alone); ``columns``: windows per
    job and round (None: :data:`ROUND_WINDOWS` shared by the jobs, at most :data:`COLUMNS`
    each); ``report`` is called with the generation so far after every round.
    """
    mode = SMOOTHING if smoothing is None else smoothing
    if mode == "auto":
        mode = "wentges" if len(spaces) >= SMOOTH_JOBS else "off"
    if mode not in MODES:
        raise ValueError(f"smoothing must be auto or one of {', '.join(MODES)}, not {mode!r}")
    out = Generation(-float("inf"), float("inf"), 0, False)
    if columns is None:
        columns = max(1, min(COLUMNS, ROUND_WINDOWS // max(len(spaces), 1)))
    if initial is not None:
        out.bound, out.duals, out.values = initial[0].lagrangian(initial[1]), *initial
    smoother = Smoother(Space(master.objective, master.sides, master.count),
                        directional=mode == "directional") if mode != "off" else None
    out.smoother = smoother
    centre, centre_bound = None, -float("inf")  # the stability centre: the best point priced
    while True:
        try:
            out.lp = master.solve(deadline)
        except RuntimeError:  # GLOP gave up: keep the bounds proven so far
            return out
        current = master.duals()
        if smoother is not None:
            smoother.misprices = 0
        while True:  # the LP duals only after mispricings
            if smoother is None or centre is None:
                point, exact = current, True
            else:
                point, exact = smoother.point(centre, current)
            out.rounds += 1
            bound, values, added, least = _round(spaces, master, point, current, free_start,
                                                 columns, deadline)
            if bound is None:  # stopped by the deadline
                return out
            if smoother is not None and not exact and added and not smoother.misprices:
                assert centre is not None
                smoother.adjust(smoother.space.subgradient(point, least, master.points,
                                                           master.cuts, master.subset_rows),
                                centre, current)
            if bound > out.bound:
                out.bound, out.duals, out.values = bound, point, values
            if smoother is not None and bound > centre_bound:
                centre, centre_bound = point, bound
                if smoother.directional:
                    smoother.centre_subgradient = smoother.space.subgradient(
                        point, least, master.points, master.cuts, master.subset_rows)
            if report is not None:
                report(out)
            if added or exact:
                break
            assert smoother is not None
            smoother.misprices += 1
            out.mispricings += 1
        if not added and master.confirm():  # none at PDLP's duals: again, tighter or by GLOP
            if target is None or out.bound < target - IMPROVING:
                continue
            return out
        if not added:
            out.converged = True
            return out
        if target is not None and out.bound >= target - IMPROVING:
            return out
        if deadline is not None and deadline.passed():
            return out
