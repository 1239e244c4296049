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

Each stage below is one function with a typed result, run under its share of the one
deadline (:mod:`models.joint.cg.budget`): seeding, the count, the root, the integer master,
the neighbourhood search, the close.
"""

from __future__ import annotations

import math
import time as _clock
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from instances.text import plural
from models.joint.cg.branch import Tree, branch_and_price
from models.joint.cg.budget import BUDGET, SEARCH_ROUNDS
from models.joint.cg.close import Closing, deepen, listing, pack, passes
from models.joint.cg.column import LINEAR_METRICS, Column, Linear
from models.joint.cg.compact import close_compact
from models.joint.cg.diving import dive_root
from models.joint.cg.duals import Duals, round_up
from models.joint.cg.generate import Generation, generate
from models.joint.cg.lns import Search, lns
from models.joint.cg.master import Master
from models.joint.cg.packing import batch_exact_enough
from models.joint.cg.pricing import Prices, price
from models.joint.cg.state import (
    Incumbent,
    Placement,
    Restriction,
    Root,
    Run,
    kept,
    limits,
    placement,
    restrictions,
)
from models.joint.cg.strengthen import strengthen
from models.joint.space import JobSpace
from models.progress import SearchProgress
from planner.deadline import Deadline

__all__ = ["CG_METRICS", "CLOSE", "CUTS", "DIVING", "EARLY_LIMIT", "SUBSET_ROW", "differenced",
           "round_up", "solve_cg"]

CG_METRICS: tuple[str, ...] = tuple(LINEAR_METRICS)
"""Objectives (and "time"/"cost" of problems (6)–(9)) that the ``cg`` solver handles."""

Compact = Callable[[], tuple[Any, Any, float]]
"""Builds the compact model when a stage needs it: ``(JointModel, goal, scale)`` (the goal
Σ ``metric`` over the placed jobs, any combination constraint already in the model, and the
factor of the goal over the objective's own units)."""

CLOSE = "enumerate"
"""How the gap left by the root LP is closed: ``enumerate`` (every window that a better
solution may use is listed, :mod:`models.joint.cg.enumeration`, and the set-packing problem
over them solved by SCIP, :mod:`models.joint.cg.packing`; branch-and-price when there are
more than :data:`models.joint.cg.close.LISTING_LIMIT`), ``branch`` (branch-and-price,
:mod:`models.joint.cg.branch`) or ``compact`` (the compact CP-SAT model restricted by
reduced-cost fixing); docs/benchmarks.md compares them."""

DIVING = False
"""Whether the cg solver dives with limited discrepancy from the root for incumbents
(:mod:`models.joint.cg.diving`), in its share of the limit before the neighbourhood
search. Off: measured on css2015 20 × 24 seeds 1–3 (docs/benchmarks.md), with half a core
each, it improved the integer master's incumbent once in six runs (problem (8) seed 1:
9971 to 9927 in 6.1 s) and found nothing within its 6 s on the other five."""

CUTS = False
"""Whether the cg solver adds rounds of robust cuts at the converged root
(:mod:`models.joint.cg.strengthen`, :mod:`models.joint.cg.cuts`) in its share of the limit;
the cuts stay in the master for every later stage (their multipliers are charged by
pricing, reduced-cost fixing and the listing alike)."""

SUBSET_ROW = False
"""Whether the cg solver adds subset-row cuts over three node-time points (Jepsen et al.
2008; :mod:`models.joint.cg.subset_row`) in the rounds at the converged root, beside the
robust cuts when :data:`CUTS` is on too. Pricing charges them exactly
(:mod:`models.joint.cg.rowpricing`); reduced-cost fixing and the listing leave their
nonnegative charges out, which only keeps more windows (docs/exact-models.md, "Cuts")."""

EARLY_LIMIT = 8_000
"""Listing limit before the large-neighbourhood search: a listing this small goes to SCIP at
once, with the search's time; a larger one waits for the search's better incumbent, which
shrinks it (css2015 seed 3, problem (8): 21,700 windows before the search, 14,700 after)."""


@dataclass
class Seeded:
    """The seeding stage: each job's least window value alone (None: the job has none), how
    many jobs have a window, and the integer master's first solution (None: none found)."""

    singles: list[float | None]
    reachable: int
    incumbent: list[Column] | None


@dataclass
class Counted:
    """Phase 1: the most placed jobs found and the proven bound on the placed count."""

    columns: list[Column]
    bound: int


@dataclass
class Closed:
    """The close: the solution, its ``sign``-value and the proven bound (None: none)."""

    solution: Placement
    value: int
    low: int | None


def solve_cg(
    spaces: Sequence[JobSpace],
    compact: Compact,
    sense: str,
    metric: str,
    sides: Sequence[tuple[str, int]],
    *,
    seeds: Sequence[Placement] = (),
    free_start: bool = True,
    deadline: Deadline | None = None,
    threads: int = 1,
    seed: int = 0,
    track: SearchProgress | None = None,
) -> dict[str, Any]:
    """Solve the joint model by column generation; the dict of
    :func:`models.joint.lexicographic.solve_lexicographic` plus ``cg`` statistics.

    ``compact`` builds the compact model, used only to close the gap; ``sides`` are the
    ``(metric, limit)`` rows of the VO budget and the combination limit; ``seeds`` are
    heuristic placements (job index → start, option indices) that seed the columns.
    Every stage stops at ``deadline`` or its share of it (:mod:`models.joint.cg.budget`;
    None: no limit). ``track`` (optional) shows the stage, pricing rounds, incumbent,
    bound and tree nodes.
    """
    if metric not in LINEAR_METRICS:
        raise ValueError(f"the cg solver handles the objectives {', '.join(CG_METRICS)}")
    sign = 1 if sense == "min" else -1
    run = Run(spaces, metric, sign, sides, free_start, threads, seed,
              deadline if deadline is not None else Deadline(None),
              track if track is not None else SearchProgress("cg", enabled=False, sign=sign))
    out: dict[str, Any] = {"stage1": None, "stage2": None, "bound": None, "placed_bound": None,
                           "cg": run.stats, "solution": None, "status": "unknown"}
    if any(limit < 0 for _, limit in sides):  # every sum of costs and times is >= 0
        out.update(status="infeasible", stage1="infeasible")
        return out
    seeded = _seed(run, seeds)
    if seeded.incumbent is None:
        return out
    counted = _count(run, seeded)
    out["placed_bound"] = counted.bound
    out["stage1"] = "optimal" if len(counted.columns) == counted.bound else "feasible"
    out["solution"] = placement(counted.columns)
    out["status"] = out["stage1"]
    if len(counted.columns) < counted.bound:
        return _count_by_compact(run, compact, sense, counted, out)
    root, inc = _root(run, counted, seeded.singles)
    inc = _integer(run, root, inc)
    closing = Closing(spaces, root.gen, metric, sign, sides, root.count, free_start, seed,
                      run.stats, run.track, run.deadline)
    inc = _dive(run, root, inc, closing)
    close = CLOSE if CLOSE != "enumerate" or batch_exact_enough(spaces, metric, sides) else (
        "compact")  # values past SCIP's exact range: CP-SAT's 64-bit integers
    listed = None
    if close == "enumerate" and inc.low is not None and inc.open:
        listed = listing(closing, inc.value - root.gen.bound, EARLY_LIMIT)
    if listed is None:
        inc = _search(run, root, inc)
    closed = _close(run, root, inc, closing, listed, compact, close)
    proven = closed.low is not None and closed.value <= closed.low
    run.track.update(stage="optimal" if proven else "stopped", incumbent=closed.value,
                     bound=closed.low)
    out.update(solution=closed.solution, bound=sign * closed.low if closed.low is not None
               else None, value=sign * closed.value, stage2="optimal" if proven else "feasible",
               status="optimal" if proven else "feasible")
    return out


def _seed(run: Run, seeds: Sequence[Placement]) -> Seeded:
    """Seed the pool with the heuristic placements and each job's best window alone; find a
    first solution (most jobs placed) by the integer master over them."""
    run.track.update(stage="seeding")
    for found in seeds:
        for j, (T, chosen) in found.items():
            run.add(Column.build(j, run.spaces[j], T, chosen))
    singles: list[float | None] = []
    for j, sp in enumerate(run.spaces):
        alone = price(sp, run.form, Prices({}), free_start=run.free_start)
        singles.append(alone[0] if alone is not None else None)
        if alone is not None:
            run.add(Column.build(j, sp, alone[1], alone[2]))
    inc = run.master(list(run.pool.values()), run.deadline.stage(BUDGET.seed_master),
                     objective=False)
    return Seeded(singles, sum(v is not None for v in singles), inc)


def _count(run: Run, seeded: Seeded) -> Counted:
    """Phase 1: bound the placed count by column generation unless the first solution
    places every job that has a window; look for more placed jobs over the new columns."""
    assert seeded.incumbent is not None
    inc = seeded.incumbent
    if len(inc) >= seeded.reachable:
        return Counted(inc, seeded.reachable)
    run.track.update(stage=f"jobs placed: {len(inc)} found, bounding by LP")

    def report(gen: Generation) -> None:
        if math.isfinite(gen.bound):
            run.track.update(stage=f"jobs placed: {len(inc)} found, at most "
                             f"{min(seeded.reachable, -round_up(gen.bound))}", rounds=gen.rounds)

    m1 = Master(run.jobs, Linear(one=-1.0), _side_forms(run), differenced=False)
    for col in run.pool.values():
        m1.add(col)
    gen = generate(run.spaces, m1, free_start=run.free_start,
                   deadline=run.deadline.stage(BUDGET.count_lp), target=-float(len(inc)),
                   report=report)
    run.stats["rounds"] += gen.rounds
    bound = seeded.reachable  # the deadline may stop the first round: no LP bound then
    if math.isfinite(gen.bound):
        bound = min(bound, -round_up(gen.bound))
    for col in m1.columns:
        run.add(col)
    again = run.master(list(run.pool.values()), run.deadline.stage(BUDGET.count_master),
                       objective=False, hint=inc)
    return Counted(again if again is not None and len(again) > len(inc) else inc, bound)


def _count_by_compact(
    run: Run, compact: Compact, sense: str, counted: Counted, out: dict[str, Any]
) -> dict[str, Any]:
    """The placed count is not proven: the compact model gets the time left."""
    from models.joint.lexicographic import solve_lexicographic

    run.track.update(stage="compact model")
    jm, goal, scale = compact()
    rest = solve_lexicographic(jm, goal, sense, hint=out["solution"], deadline=run.deadline,
                               threads=run.threads, seed=run.seed, scale=scale, track=run.track)
    if rest["solution"] is not None and len(rest["solution"]) >= len(counted.columns):
        out.update({k: rest[k] for k in ("status", "solution", "bound", "stage1", "stage2",
                                         "value")})
        if rest["placed_bound"] is not None:
            out["placed_bound"] = min(counted.bound, rest["placed_bound"])
    run.stats["closed_by"] = "compact" if out["status"] == "optimal" else None
    return out


def _root(run: Run, counted: Counted, singles: list[float | None]) -> tuple[Root, Incumbent]:
    """Phase 2's root: fix the count P, generate columns to the root bound ⌈L₂⌉ from the
    bound of every job alone, and derive the reduced-cost limits of a better solution."""
    inc, P = counted.columns, len(counted.columns)
    master = Master(run.jobs, run.form, _side_forms(run), count=P,
                    differenced=differenced(run.form))
    for col in [*inc, *run.pool.values()]:
        master.add(col)
    best = run.value(inc)
    run.track.update(stage="root LP", incumbent=best, bound=None)
    # zero prices, μ the P-th least single-job optimum: L = Σ of the P least (every job alone)
    mu = sorted(v for v in singles if v is not None)[P - 1] if P else 0.0
    start = Duals(run.form, Prices({}), mu, [0.0] * run.jobs, mu * P)
    done = run.stats["rounds"]

    def report(gen: Generation) -> None:
        run.track.update(rounds=done + gen.rounds,
                         bound=round_up(gen.bound) if math.isfinite(gen.bound) else None)

    gen = generate(run.spaces, master, free_start=run.free_start, initial=(start, singles),
                   deadline=run.deadline.stage(BUDGET.root_lp), target=float(best),
                   report=report)
    if (CUTS or SUBSET_ROW) and gen.converged:
        run.track.update(stage="root cuts")
        before, priced = gen.bound, gen.rounds
        family = "both" if CUTS and SUBSET_ROW else "robust" if CUTS else "subset-row"
        more = strengthen(run.spaces, master, gen, free_start=run.free_start,
                          deadline=run.deadline.stage(BUDGET.root_cuts), target=float(best),
                          family=family, report=report)
        gen = more.gen
        gen.rounds = priced + more.pricing
        run.stats["cuts"] = {"rounds": more.rounds, "added": more.cuts + more.rows,
                             "robust": more.cuts, "subset_row": more.rows,
                             "before": float(run.sign * before),
                             "after": float(run.sign * gen.bound)}
    run.stats.update(rounds=done + gen.rounds, lp=run.sign * gen.lp,
                     lagrangian=run.sign * gen.bound, converged=gen.converged,
                     columns=len(master.columns), lp_restarts=master.restarts)
    low = round_up(gen.bound) if math.isfinite(gen.bound) else None
    run.track.update(rounds=run.stats["rounds"], bound=low)
    base = limits(run.spaces, gen, best, run.free_start, run.deadline) \
        if low is not None and best > low else None
    return Root(master, gen, P), Incumbent(list(inc), best, low, base)


def _integer(run: Run, root: Root, inc: Incumbent) -> Incumbent:
    """The integer master over the root's columns (those a better solution may use)."""
    if not inc.open:
        return inc
    run.track.update(stage="integer master")
    found = run.master(kept(root.master.columns, run.spaces, inc.base),
                       run.deadline.stage(BUDGET.integer_master), count=root.count,
                       hint=inc.columns, below=inc.value if inc.base is not None else None)
    return inc.offer(run, root, found)


def _dive(run: Run, root: Root, inc: Incumbent, closing: Closing) -> Incumbent:
    """Diving with limited discrepancy from the root (:mod:`models.joint.cg.diving`), beside
    the integer master and the neighbourhood search; every solution re-checked exactly."""
    if not DIVING or not BUDGET.dive.most or not inc.open or inc.low is None:
        return inc
    run.track.update(stage="diving", incumbent=inc.value)
    began = _clock.perf_counter()
    found = dive_root(run.spaces, root.master, run.metric, run.sign, inc.value,
                      accept=lambda cols: passes(closing, cols), free_start=run.free_start,
                      deadline=run.deadline.stage(BUDGET.dive), base=inc.base)
    run.stats["dive"] = {"nodes": found.nodes, "rounds": found.rounds,
                         "found": [run.sign * v for v in found.found],
                         "from": run.sign * inc.value, "to": run.sign * found.value,
                         "seconds": round(_clock.perf_counter() - began, 2)}
    run.stats["rounds"] += found.rounds
    return inc.offer(run, root, found.columns)


def _search(run: Run, root: Root, inc: Incumbent) -> Incumbent:
    """The large-neighbourhood search from the incumbent (:mod:`models.joint.cg.lns`)."""
    if not BUDGET.search.most or not inc.open:
        return inc
    run.track.update(stage="neighbourhood search", incumbent=inc.value)

    def report(search: Search) -> None:
        run.track.update(incumbent=search.value)

    search = lns(run.spaces, inc.columns, run.metric, run.sign, run.sides,
                 free_start=run.free_start, seed=run.seed,
                 deadline=run.deadline.stage(BUDGET.search),
                 rounds=None if run.deadline.limit is not None else SEARCH_ROUNDS,
                 target=inc.low, report=report)
    run.stats["lns"] = {"rounds": search.rounds, "improved": search.improved,
                        "from": run.sign * inc.value, "to": run.sign * search.value}
    if search.value >= inc.value:
        return inc
    for col in search.columns:
        root.master.add(col)
    return inc.offer(run, root, search.columns)


def _close(
    run: Run,
    root: Root,
    inc: Incumbent,
    closing: Closing,
    listed: tuple[list[Column], list[int]] | None,
    compact: Compact,
    close: str,
) -> Closed:
    """Close the gap as ``close`` says (:data:`CLOSE`, or "compact" for values past SCIP's
    exact range), until the deadline; each step starts only with
    :attr:`~models.joint.cg.budget.Budget.close_least` of the limit left."""
    if listed is None and close == "enumerate" and inc.low is not None and inc.open \
            and _time_for(run):
        listed = listing(closing, inc.value - root.gen.bound)
    if not inc.open:
        run.stats["closed_by"] = run.stats["closed_by"] or "cg"
        return Closed(placement(inc.columns), inc.value, inc.low)
    if inc.low is None or close == "compact":
        return _close_compact(run, root, inc, compact)
    assert inc.low is not None
    columns, best, low = inc.columns, inc.value, inc.low
    if listed is not None and _time_for(run):  # every window of a better solution is listed
        run.stats["listed"] = len(listed[0])
        run.track.update(stage=f"set packing of {plural(len(listed[0]), 'window')}", incumbent=best)
        columns, best, low = pack(closing, listed, columns, best, low, None, run.deadline)
    elif listed is None and close == "enumerate" and _time_for(run):
        # a bound from the largest listing within the limit
        columns, best, low = deepen(closing, columns, best, low, run.deadline)
        for col in columns:
            root.master.add(col)
    if best > low and listed is None and _time_for(run):
        columns, best, low = _tree(run, root, Incumbent(columns, best, low, inc.base),
                                   closing)
    return Closed(placement(columns), best, low)


def _time_for(run: Run) -> bool:
    """Return whether a step of the close may start: at least ``close_least`` of the limit
    is left (always, without a limit)."""
    return run.deadline.more_than(run.deadline.seconds(BUDGET.close_least))


def _close_compact(run: Run, root: Root, inc: Incumbent, compact: Compact) -> Closed:
    """The compact CP-SAT model restricted by reduced-cost fixing (all starts when the root
    gave no bound) searches for a better solution (:mod:`models.joint.cg.compact`)."""
    fixed: list[Restriction] | None = None
    if inc.low is not None:
        fixed = restrictions(run.spaces, root.gen, inc.value, run.free_start, run.deadline)
    if fixed is None:  # no bound, or the deadline passed first: every start
        fixed = [(False, [sp.start_range or (0, 0)], set(range(len(sp.options))))
                 for sp in run.spaces]
    run.stats["fixed_starts"] = sum(hi - lo + 1 for _, spans, _ in fixed for lo, hi in spans)
    run.stats["fixed_options"] = sum(len(options) for _, _, options in fixed)
    run.track.update(stage="compact model", incumbent=inc.value)
    jm, goal, _ = compact()
    solution, best, low = close_compact(jm, goal, run.sign, root.count, inc.low,
                                        (placement(inc.columns), inc.value), fixed,
                                        run.deadline, run.threads, run.seed, run.stats)
    return Closed(solution, best, low)


def _tree(run: Run, root: Root, inc: Incumbent, closing: Closing
          ) -> tuple[list[Column], int, int]:  # fmt: skip
    """Branch-and-price until the deadline; return its incumbent, value and bound (every
    incumbent re-checked exactly by :func:`~models.joint.cg.close.passes`)."""
    assert inc.low is not None
    run.track.update(stage="branch-and-price", incumbent=inc.value)
    done = run.stats["rounds"]

    def report(tree: Tree) -> None:
        run.track.update(rounds=done + tree.rounds, incumbent=tree.best, bound=tree.low,
                         nodes=tree.nodes, open=tree.open)

    def improve(columns: Sequence[Column], hint: Sequence[Column]) -> list[Column] | None:
        heuristic = run.deadline.stage(BUDGET.tree_heuristic)
        if heuristic.passed():
            return None
        return run.master(kept(columns, run.spaces, inc.base), heuristic, count=root.count,
                          hint=hint, below=run.value(hint))

    found = branch_and_price(run.spaces, root.master, run.metric, run.sign, inc.columns,
                             root.gen.bound, free_start=run.free_start, deadline=run.deadline,
                             base=inc.base, report=report, improve=improve,
                             accept=lambda cols: passes(closing, cols))
    stats = run.stats
    run.track.update(rounds=done + found.rounds, nodes=found.nodes, open=found.open)
    stats.update(nodes=stats.get("nodes", 0) + found.nodes, open=found.open,
                 depth=max(found.depth, stats.get("depth", 0)),
                 rounds=stats["rounds"] + found.rounds, columns=len(root.master.columns),
                 lp_restarts=root.master.restarts)
    if found.finished:
        stats["closed_by"] = "branch-and-price"
    return found.columns, found.best, min(max(inc.low, found.low), found.best)


def differenced(form: Linear) -> bool:
    """Return whether the master holds its node-time rows in differenced form
    (:class:`models.joint.cg.master.Master`) for the objective ``form``: where it prices
    the start. Measured on css2015 (docs/exact-models.md): the root LP of Σ finish reached
    its optimum 2–2.5 times sooner so (seeds 3 and 6), that of problem (8) 1.9–2.4 times
    later (seeds 8 and 9)."""
    return form.T != 0


def _side_forms(run: Run) -> list[tuple[Linear, float]]:
    return [(Linear.of(m), float(b)) for m, b in run.sides]
