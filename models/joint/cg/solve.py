"""The ``cg`` solver of :func:`models.solve_joint` (docs/exact-models.md): column generation
bounds, incumbents from the integer master and a large-neighbourhood search, and the gap
closed by enumeration (SCIP over every window a better solution may use), branch-and-price
or the compact CP-SAT model.

Lexicographic rule, in two phases. Phase 1 bounds the placed count: a job with no window
at all can never be placed, and otherwise the master LP with c_w = −1 gives
``count ≤ ⌊−L₁⌋``; when an incumbent meets that bound the count P is proven. Phase 2
fixes ``Σ x_w = P`` and minimises ``sign · metric`` (sign −1 for a maximised objective);
its Lagrangian bound L₂, rounded up to an integer (all objectives are integers) after a
relative margin of 10⁻⁶ for floating error, bounds every solution with P placed jobs.
If an incumbent meets ⌈L₂⌉ it is optimal; else the gap is closed as :data:`CLOSE` says.
"""

from __future__ import annotations

import math
import time as _clock
from collections.abc import Mapping, Sequence
from typing import Any

from models.joint.cg.branch import Tree, branch_and_price
from models.joint.cg.close import Closing, deepen, listing, pack, passes
from models.joint.cg.column import LINEAR_METRICS, Column, Linear
from models.joint.cg.compact import close_compact
from models.joint.cg.duals import MARGIN, Duals, round_up
from models.joint.cg.fixing import allowed_options, allowed_starts, job_thresholds
from models.joint.cg.generate import Generation, generate
from models.joint.cg.integer import integer_master
from models.joint.cg.lns import lns
from models.joint.cg.master import Master
from models.joint.cg.packing import batch_exact_enough
from models.joint.cg.pricing import Prices, price
from models.joint.cg.restrict import Limits, compatible
from models.joint.cpsat import JointModel
from models.joint.space import JobSpace
from models.progress import SearchProgress

CG_METRICS: tuple[str, ...] = tuple(LINEAR_METRICS)
"""Objectives (and "time"/"cost" of problems (6)–(9)) that the ``cg`` solver handles."""

Placement = Mapping[int, tuple[int, Sequence[int]]]

INTEGER_SHARE = 0.15
"""Share of the time limit the integer master may take after the root LP."""

HEURISTIC_SHARE = 0.03
"""Share of the time limit each integer-master run inside branch-and-price may take."""

LNS_SHARE = 0.3
"""Share of the time limit the large-neighbourhood search (:mod:`models.joint.cg.lns`) may
take after the integer master, before the gap is closed."""

LNS_ROUNDS = 100
"""Neighbourhoods the large-neighbourhood search solves when there is no time limit."""

CLOSE = "enumerate"
"""How the gap left by the root LP is closed: ``enumerate`` (every window that a better
solution may use is listed, :mod:`models.joint.cg.enumeration`, and the set-packing problem
over them solved by SCIP, :mod:`models.joint.cg.packing`; branch-and-price when there are
more than :data:`models.joint.cg.close.LISTING_LIMIT`), ``branch`` (branch-and-price,
:mod:`models.joint.cg.branch`) or ``compact`` (the compact CP-SAT model restricted by
reduced-cost fixing); docs/benchmarks.md compares them."""

EARLY_LIMIT = 8_000
"""Listing limit before the large-neighbourhood search: a listing this small goes to SCIP at
once, with the search's time; a larger one waits for the search's better incumbent, which
shrinks it (css2015 seed 3, problem (8): 21,700 windows before the search, 14,700 after)."""

TREE_SHARE = 0.05
"""Least share of the time limit left for branch-and-price to start after the levels: its
root node alone takes seconds on css2015 batches, so less would only overrun the limit."""

def heuristic_cap(time_limit: float | None, deadline: float | None, now: float) -> float | None:
    """Return the seconds one integer-master run inside branch-and-price may take:
    :data:`HEURISTIC_SHARE` of the time limit, never past ``deadline`` (0.0: none left;
    None: no limit)."""
    if time_limit is None:
        return None
    cap = HEURISTIC_SHARE * time_limit
    return cap if deadline is None else max(min(cap, deadline - now), 0.0)


def _share(began: float, time_limit: float | None, part: float) -> float | None:
    if time_limit is None:
        return None
    return max(began + part * time_limit - _clock.perf_counter(), 0.01 * time_limit)


def _until(began: float, time_limit: float | None, part: float | None) -> float | None:
    """Return the deadline ``part`` seconds from now, never past the time limit."""
    if time_limit is None or part is None:
        return None
    return min(_clock.perf_counter() + part, began + time_limit)


def solve_cg(
    jm: JointModel,
    goal: Any,
    sense: str,
    metric: str,
    sides: Sequence[tuple[str, int]],
    *,
    seeds: Sequence[Placement] = (),
    free_start: bool = True,
    time_limit: float | None = None,
    threads: int = 1,
    seed: int = 0,
    progress: bool | None = None,
) -> dict[str, Any]:
    """Solve the joint model by column generation; the dict of
    :func:`models.joint.lexicographic.solve_lexicographic` plus ``cg`` statistics.

    ``jm`` and ``goal`` (Σ ``metric`` over the placed jobs, with any combination
    constraint already in ``jm``) are used only to close the gap; ``sides`` are the
    ``(metric, limit)`` rows of the VO budget and the combination limit; ``seeds`` are
    heuristic placements (job index → start, option indices) that seed the columns.
    ``progress`` (None: on interactive runs, :mod:`models.progress`) shows the stage,
    pricing rounds, incumbent, bound and tree nodes on one line of stderr.
    """
    track = SearchProgress("joint (cg)", enabled=progress, sign=1 if sense == "min" else -1)
    ticker = track.ticking()
    try:
        return _solve(jm, goal, sense, metric, sides, seeds, free_start, time_limit, threads,
                      seed, track)
    finally:
        ticker.close()


def _solve(
    jm: JointModel,
    goal: Any,
    sense: str,
    metric: str,
    sides: Sequence[tuple[str, int]],
    seeds: Sequence[Placement],
    free_start: bool,
    time_limit: float | None,
    threads: int,
    seed: int,
    track: SearchProgress,
) -> dict[str, Any]:
    if metric not in LINEAR_METRICS:
        raise ValueError(f"the cg solver handles the objectives {', '.join(CG_METRICS)}")
    began = _clock.perf_counter()
    spaces, J = jm.spaces, len(jm.spaces)
    sign = 1 if sense == "min" else -1
    form = Linear.of(metric, sign)
    side_forms = [(Linear.of(m), float(b)) for m, b in sides]
    pool: dict[tuple[int, int, tuple[int, ...]], Column] = {}

    def add(col: Column) -> None:
        sp = spaces[col.j]
        if sp.budget is not None and col.cost > sp.budget:
            return
        if not free_start and col.T not in sp.slot_starts:
            return
        pool.setdefault(col.key, col)

    for placement in seeds:
        for j, (T, chosen) in placement.items():
            add(Column.build(j, spaces[j], T, chosen))
    reachable, singles = 0, []
    for j, sp in enumerate(spaces):
        alone = price(sp, form, Prices({}), free_start=free_start)
        singles.append(alone[0] if alone is not None else None)
        if alone is not None:
            reachable += 1
            add(Column.build(j, sp, alone[1], alone[2]))
    stats: dict[str, Any] = {"rounds": 0, "lp": None, "lagrangian": None, "closed_by": None}
    out: dict[str, Any] = {"stage1": None, "stage2": None, "bound": None, "placed_bound": None,
                           "cg": stats, "solution": None, "status": "unknown"}
    if any(limit < 0 for _, limit in sides):  # every sum of costs and times is >= 0
        out.update(status="infeasible", stage1="infeasible")
        return out
    inc = integer_master(J, list(pool.values()), None, sign, sides,
                         time_limit=_share(began, time_limit, 0.1), threads=threads, seed=seed)
    if inc is None:
        return out
    limit = reachable
    if len(inc) < reachable:  # phase 1: bound the count by column generation
        track.update(stage=f"jobs placed: {len(inc)} found, bounding by LP")
        m1 = Master(J, Linear(one=-1.0), side_forms, differenced=False)
        for col in pool.values():
            m1.add(col)
        gen = generate(spaces, m1, free_start=free_start,
                       deadline=began + 0.3 * time_limit if time_limit else None,
                       target=-float(len(inc)))
        stats["rounds"] += gen.rounds
        limit = min(reachable, -round_up(gen.bound))
        for col in m1.columns:
            add(col)
        again = integer_master(J, list(pool.values()), None, sign, sides, hint=inc,
                               time_limit=_share(began, time_limit, 0.4),
                               threads=threads, seed=seed)
        if again is not None and len(again) > len(inc):
            inc = again
    out["placed_bound"] = limit
    out["stage1"] = "optimal" if len(inc) == limit else "feasible"
    out["solution"] = _placement(inc)
    out["status"] = out["stage1"]
    if len(inc) < limit:  # the count is not proven: the compact model gets the time left
        from models.joint.lexicographic import solve_lexicographic

        left = None
        if time_limit is not None:
            left = max(time_limit - (_clock.perf_counter() - began), 0.01 * time_limit)
        track.update(stage="compact model")
        rest = solve_lexicographic(jm, goal, sense, hint=out["solution"], time_limit=left,
                                   threads=threads, seed=seed, progress=False)
        if rest["solution"] is not None and len(rest["solution"]) >= len(inc):
            out.update({k: rest[k] for k in ("status", "solution", "bound", "stage1", "stage2",
                                             "value")})
            if rest["placed_bound"] is not None:
                out["placed_bound"] = min(limit, rest["placed_bound"])
        stats["closed_by"] = "compact" if out["status"] == "optimal" else None
        return out
    P = len(inc)
    m2 = Master(J, form, side_forms, count=P, differenced=differenced(form))
    for col in [*inc, *pool.values()]:
        m2.add(col)
    best = sum(sign * c.metric(metric) for c in inc)
    track.update(stage="root LP", incumbent=best, bound=None)
    # zero prices, μ the P-th least single-job optimum: L = Σ of the P least (every job alone)
    mu = sorted(v for v in singles if v is not None)[P - 1] if P else 0.0
    start = Duals(form, Prices({}), mu, [0.0] * J, mu * P)
    gen = generate(spaces, m2, free_start=free_start, initial=(start, singles),
                   deadline=began + 0.55 * time_limit if time_limit else None, target=float(best))
    stats.update(rounds=stats["rounds"] + gen.rounds, lp=sign * gen.lp,
                 lagrangian=sign * gen.bound, converged=gen.converged, columns=len(m2.columns),
                 lp_restarts=m2.restarts)
    low = round_up(gen.bound) if math.isfinite(gen.bound) else None
    track.update(stage="integer master", rounds=stats["rounds"], bound=low)
    base = _limits(spaces, gen, best, free_start) if low is not None and best > low else None
    if low is None or best > low:
        share = _share(began, time_limit, 0.7)
        found = integer_master(J, _kept(m2.columns, spaces, base), metric, sign, sides, count=P,
                               hint=inc, time_limit=min(share, INTEGER_SHARE * time_limit)
                               if share else None, threads=threads, seed=seed,
                               below=best if base is not None else None)
        if found is not None and sum(sign * c.metric(metric) for c in found) < best:
            inc, best = found, sum(sign * c.metric(metric) for c in found)
            if base is not None and low is not None and best > low:
                base = _limits(spaces, gen, best, free_start)
    closing = Closing(spaces, gen, metric, sign, sides, P, free_start, seed, stats, track,
                      began + time_limit if time_limit else None)
    close = CLOSE if CLOSE != "enumerate" or batch_exact_enough(spaces, metric, sides) else (
        "compact")  # values past SCIP's exact range: CP-SAT's 64-bit integers
    listed = None
    if close == "enumerate" and low is not None and best > low:
        listed = listing(closing, best - gen.bound, EARLY_LIMIT)
    if listed is None and LNS_SHARE and (low is None or best > low):
        track.update(stage="neighbourhood search", incumbent=best)
        search = lns(spaces, inc, metric, sign, sides, free_start=free_start, seed=seed,
                     deadline=_until(began, time_limit, LNS_SHARE * time_limit
                                     if time_limit else None),
                     rounds=None if time_limit else LNS_ROUNDS, target=low)
        stats["lns"] = {"rounds": search.rounds, "improved": search.improved,
                        "from": sign * best, "to": sign * search.value}
        if search.value < best:
            inc, best = search.columns, search.value
            for col in inc:
                m2.add(col)
            if base is not None and low is not None and best > low:
                base = _limits(spaces, gen, best, free_start)
    end = began + time_limit if time_limit else None

    def tree(inc: list[Column], best: int, low: int, deadline: float | None
             ) -> tuple[list[Column], int, int]:
        """Branch-and-price until ``deadline``; return its incumbent, value and bound."""
        track.update(stage="branch-and-price", incumbent=best)
        done = stats["rounds"]

        def report(tree: Tree) -> None:
            track.update(rounds=done + tree.rounds, incumbent=tree.best, bound=tree.low,
                         nodes=tree.nodes, open=tree.open)

        def improve(columns: Sequence[Column], hint: Sequence[Column]) -> list[Column] | None:
            cap = heuristic_cap(time_limit, deadline, _clock.perf_counter())
            if cap == 0.0:
                return None
            value = sum(sign * c.metric(metric) for c in hint)
            return integer_master(J, _kept(columns, spaces, base), metric, sign, sides,
                                  count=P, hint=hint, time_limit=cap, threads=threads,
                                  seed=seed, below=value)

        found = branch_and_price(spaces, m2, metric, sign, inc, gen.bound,
                                 free_start=free_start, deadline=deadline, base=base,
                                 report=report, improve=improve,
                                 accept=lambda cols: passes(closing, cols))
        track.update(rounds=done + found.rounds, nodes=found.nodes, open=found.open)
        stats.update(nodes=stats.get("nodes", 0) + found.nodes, open=found.open,
                     depth=max(found.depth, stats.get("depth", 0)),
                     rounds=stats["rounds"] + found.rounds, columns=len(m2.columns),
                     lp_restarts=m2.restarts)
        if found.finished:
            stats["closed_by"] = "branch-and-price"
        return found.columns, found.best, min(max(low, found.low), found.best)

    if listed is None and close == "enumerate" and low is not None and best > low:
        listed = listing(closing, best - gen.bound)
    solution = _placement(inc)
    if low is not None and best <= low:
        stats["closed_by"] = stats["closed_by"] or "cg"
    elif low is None or close == "compact":
        fixed = _restrictions(spaces, gen, best, free_start) if low is not None else [
            (False, [(lo, hi)], set(range(len(sp.options)))) for sp, (lo, hi) in
            zip(spaces, jm.span, strict=True)]
        stats["fixed_starts"] = sum(hi - lo + 1 for _, spans, _ in fixed for lo, hi in spans)
        stats["fixed_options"] = sum(len(options) for _, _, options in fixed)
        track.update(stage="compact model", incumbent=best)
        solution, best, low = close_compact(jm, goal, sign, P, low, (solution, best), fixed,
                                            began, time_limit, threads, seed, stats)
    else:
        if listed is not None:  # every window of a better solution is listed
            stats["listed"] = len(listed[0])
            track.update(stage=f"set packing of {len(listed[0])} windows", incumbent=best)
            inc, best, low = pack(closing, listed, inc, best, low, None, end)
            solution = _placement(inc)
        elif close == "enumerate":  # a bound from the largest listing within the limit
            inc, best, low = deepen(closing, inc, best, low, end)
            solution = _placement(inc)
            for col in inc:
                m2.add(col)
        if best > low and listed is None and (
                end is None or end - _clock.perf_counter() > TREE_SHARE * time_limit):
            inc, best, low = tree(inc, best, low, end)
            solution = _placement(inc)
    proven = low is not None and best <= low
    track.update(stage="optimal" if proven else "stopped", incumbent=best, bound=low)
    out.update(solution=solution, bound=sign * low if low is not None else None, value=sign * best,
               stage2="optimal" if proven else "feasible", status="optimal" if proven else
               "feasible")
    return out


def differenced(form: Linear) -> bool:
    """Return whether the master holds its node-time rows in differenced form
    (:class:`models.joint.cg.master.Master`) for the objective ``form``: where it prices
    the start. Measured on css2015 (docs/exact-models.md): the root LP of Σ finish reached
    its optimum 2–2.5 times sooner so (seeds 3 and 6), that of problem (8) 1.9–2.4 times
    later (seeds 8 and 9)."""
    return form.T != 0


def _placement(columns: Sequence[Column]) -> dict[int, tuple[int, list[int]]]:
    return {c.j: (c.T, list(c.chosen)) for c in sorted(columns, key=lambda c: c.j)}


def _limits(
    spaces: Sequence[JobSpace], gen: Generation, best: int, free_start: bool
) -> list[Limits]:
    """Return :func:`_restrictions` as the branching limits every better solution obeys."""
    return [Limits(placed=True if must else None if spans else False, spans=spans,
                   banned=set(range(len(sp.options))) - options)
            for sp, (must, spans, options) in
            zip(spaces, _restrictions(spaces, gen, best, free_start), strict=True)]


def _kept(
    columns: Sequence[Column], spaces: Sequence[JobSpace], base: Sequence[Limits] | None
) -> list[Column]:
    """Return the columns a solution better than the incumbent may use (all if no limits)."""
    if base is None:
        return list(columns)
    return [c for c in columns if compatible(c, spaces[c.j], base[c.j])]


def _restrictions(
    spaces: Sequence[JobSpace], gen: Generation, best: int, free_start: bool
) -> list[tuple[bool, list[tuple[int, int]], set[int]]]:
    """Return per job (must be placed, allowed start intervals, allowed options) for
    solutions of value ≤ ``best − 1`` by reduced-cost fixing (:mod:`models.joint.cg.fixing`)."""
    assert gen.duals is not None and gen.values is not None
    form, prices, mu, values = gen.duals.form, gen.duals.prices, gen.duals.mu, gen.values
    slack = best - 1 - gen.bound + MARGIN * max(1.0, abs(gen.bound))
    out = []
    for sp, job in zip(spaces, job_thresholds(values, mu, slack), strict=True):
        if job is None:
            out.append((False, [], set()))
            continue
        threshold, must = job
        spans = allowed_starts(sp, form, prices, threshold, free_start)
        options = allowed_options(sp, form, prices, threshold, free_start)
        out.append((must, spans, options))
    return out
