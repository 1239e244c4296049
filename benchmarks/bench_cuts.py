"""Benchmark: how much of the joint root gap two families of cuts close over the converged
root master's columns (docs/exact-models.md, "Cuts"), on css2015 batches (Toporkov et al.
2015 §5).

Usage::

    python benchmarks/bench_cuts.py [--seeds 3,6,9] [--objectives finish,p8] [--rounds 10]
        [--families sr3,robust,clique] [--time-limit 400] [--nodes 24] [--jobs 20]
    python benchmarks/bench_cuts.py --built [--seeds 1-10] [--objectives finish]
        [--time-limit 400] [--family robust|subset-row|both]

``--built``: the solver's own root cuts (``models.joint.cg.strengthen``, with pricing
under the cuts' charges, so the bound is a proven one): per seed and objective the
root's Lagrangian bound before and after the cut rounds, the gap of each to ``BEST``,
the rounds, the cuts added, the pricing rounds, and the wall and CPU seconds of the root
and of the cut rounds (the run stops after them). ``--family`` picks the cuts built: the
robust ones (default), the subset-row cuts over three node-time points
(``models.joint.cg.subset_row``, priced exactly by ``models.joint.cg.rowpricing``) or
both; the cut count is then ``robust + subset-row``, and the pricing starts whose
subset-row search was capped (priced by a lower bound) are counted.

Per seed and objective the cg solver runs to its converged phase-2 root LP (the run stops
there). Its columns are copied into a fresh LP with every node-time row whole (the same
LP: its value is printed beside the master's), and each family of cuts is separated from
the LP solution and added for up to ``--rounds`` rounds, re-solving over the same columns:

- ``robust``: the single-node time-indexed inequalities of van den Akker, van Hoesel &
  Savelsbergh (1999): for node k, an interval I = [a, b) of length ≥ 2 and a job l,
  ``Σ (tasks of l on k meeting I) + Σ (tasks of other jobs on k covering I) ≤ 1``;
- ``clique``: cliques of windows in the conflict graph of the positive columns (two
  windows conflict when they are of one job or overlap on a node) of weight > 1 that no
  single row of the master holds (a maximum-weight clique per round, networkx, and a
  greedy clique from every column);
- ``sr3``: subset-row cuts over three rows (Jepsen, Petersen, Spoorendonk & Pisinger
  2008), ``Σ_w ⌊|S ∩ rows(w)| / 2⌋ x_w ≤ 1`` for the three rows S (job rows or node-time
  rows) through which a triangle of positive columns of weight > 1 conflicts pairwise: the
  form of a clique cut that stays valid for windows not generated yet;
- ``both``: ``robust`` and ``clique`` together.

A clique of the conflict graph of the generated columns is valid only for those columns
(two windows generated later may each conflict with the whole clique but not with each
other), so ``clique`` measures what the windows' conflicts could give, ``sr3`` what a cut
valid for every window gives.

The LP over fixed columns with cuts is not a bound (pricing could lower it); it says how
much of the gap a family can close at most at these columns. The gap is measured against
the best incumbent known (``BEST``, from docs/benchmarks.md), as ``(best − lp) / best``.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import defaultdict
from typing import Any

import networkx as nx
from bench_cg import StopSolve, seeds_of, solve_until  # a sibling script: run from benchmarks/
from ortools.linear_solver import pywraplp

import models.joint.cg.rowpricing as rowpricing
import models.joint.cg.solve as cg_solve
from instances import Instance, generate
from models.joint.cg.column import Column
from models.joint.cg.cuts import separate
from models.joint.cg.master import Master

BEST = {
    "finish": {1: 1657, 2: 1140, 3: 1727, 4: 1309, 5: 1430, 6: 1181, 7: 1619, 8: 2461,
               9: 1609, 10: 827},
    "p8": {1: 9867, 2: 8042, 3: 14303, 4: 9979, 5: 9317, 6: 12292, 7: 11207, 8: 18394,
           9: 14524, 10: 6900},
}
"""Best incumbent known per objective and seed (docs/benchmarks.md: the 60 s tables, the
dives of branch-and-price and the 300 s searches)."""

EPS = 1e-6
"""Least violation of a separated cut."""


def root(inst: Instance, objective: str, time_limit: float) -> Master:
    """Run the cg solver to its phase-2 root LP; return the master."""
    got: dict[str, Master] = {}
    generate_ = cg_solve.generate

    def phase(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("initial") is None:
            return generate_(*args, **kwargs)
        gen = generate_(*args, **kwargs)
        if not gen.converged:
            raise RuntimeError("the root LP did not converge within the time limit")
        got["master"] = args[1]
        raise StopSolve

    solve_until(inst, objective, time_limit, [(cg_solve, "generate", phase)])
    return got["master"]


class Plain:
    """The master's LP over fixed columns with whole rows, and cut rows on top."""

    def __init__(self, master: Master) -> None:
        self.cols: list[Column] = list(master.columns)
        lp = self.lp = pywraplp.Solver.CreateSolver("GLOP")
        inf = lp.infinity()
        self.x = [lp.NumVar(0.0, inf, "") for _ in self.cols]
        obj = lp.Objective()
        for x, c in zip(self.x, self.cols, strict=True):
            obj.SetCoefficient(x, c.value(master.objective))
        jobs = defaultdict(list)
        for i, c in enumerate(self.cols):
            jobs[c.j].append(i)
        for idx in jobs.values():
            row = lp.Constraint(-inf, 1.0)
            for i in idx:
                row.SetCoefficient(self.x[i], 1.0)
        for form, b in master.sides:
            row = lp.Constraint(-inf, float(b))
            for x, c in zip(self.x, self.cols, strict=True):
                row.SetCoefficient(x, c.value(form))
        if master.count is not None:
            row = lp.Constraint(master.count, master.count)
            for x in self.x:
                row.SetCoefficient(x, 1.0)
        tasks = defaultdict(list)
        for x, c in zip(self.x, self.cols, strict=True):
            for k, s, e in c.tasks:
                tasks[k].append((x, s, e))
        for node, points in master.points.items():
            for t in points:
                row = lp.Constraint(-inf, 1.0)
                for x, s, e in tasks[node]:
                    if s <= t < e:
                        row.SetCoefficient(x, 1.0)
        obj.SetMinimization()
        self.cuts = 0

    def solve(self) -> float:
        if self.lp.Solve() != pywraplp.Solver.OPTIMAL:
            raise RuntimeError("GLOP failed")
        return self.lp.Objective().Value()

    def values(self) -> list[float]:
        return [x.solution_value() for x in self.x]

    def add(self, coef: dict[int, float], rhs: float) -> None:
        row = self.lp.Constraint(-self.lp.infinity(), rhs)
        for i, a in coef.items():
            row.SetCoefficient(self.x[i], a)
        self.cuts += 1


def robust_cuts(cols: list[Column], x: list[float]) -> list[dict[int, float]]:
    """Return the most violated robust inequality per (node, job l) (module docstring;
    :func:`models.joint.cg.cuts.separate`, the solver's own separation) as its coefficients
    over the columns (right-hand side 1)."""
    return [{i: 1.0 for i, c in enumerate(cols) if cut.coefficient(c)}
            for cut in separate(cols, x, most=len(cols) * len(cols[0].tasks) * 10)]


def _conflict(c: Column, d: Column) -> bool:
    if c.j == d.j:
        return True
    tasks = {k: (s, e) for k, s, e in d.tasks}
    return any(k in tasks and s < tasks[k][1] and tasks[k][0] < e for k, s, e in c.tasks)


def _one_row(clique: list[Column]) -> bool:
    """Whether one row of the master (a job's, or a node-time row) holds the clique."""
    if len({c.j for c in clique}) == 1:
        return True
    common = set.intersection(*({k for k, _, _ in c.tasks} for c in clique))
    for k in common:
        spans = [next((s, e) for kk, s, e in c.tasks if kk == k) for c in clique]
        if max(s for s, _ in spans) < min(e for _, e in spans):
            return True
    return False


def clique_cuts(cols: list[Column], x: list[float]) -> list[dict[int, float]]:
    """Return violated cliques of windows (module docstring), extended greedily over every
    column, as coefficients (right-hand side 1)."""
    pos = [i for i, v in enumerate(x) if v > EPS]
    g = nx.Graph()
    scale = 10**6
    for i in pos:
        g.add_node(i, weight=round(x[i] * scale))
    for i, j in itertools.combinations(pos, 2):
        if _conflict(cols[i], cols[j]):
            g.add_edge(i, j)
    found: set[frozenset[int]] = set()
    seeds = [list(nx.max_weight_clique(g, weight="weight")[0])] if len(pos) <= 400 else []
    for i in pos:  # greedy: the heaviest neighbour that keeps a clique
        clique = [i]
        cand = set(g[i])
        while cand:
            j = max(cand, key=lambda v: x[v])
            clique.append(j)
            cand &= set(g[j])
        seeds.append(clique)
    out = []
    for clique in seeds:
        if sum(x[i] for i in clique) <= 1 + EPS or _one_row([cols[i] for i in clique]):
            continue
        key = frozenset(clique)
        if key in found:
            continue
        found.add(key)
        # extend over every column (zero-valued ones too): a larger clique, the same cut
        members = [cols[i] for i in clique]
        coef = {i: 1.0 for i in clique}
        for i, c in enumerate(cols):
            if i not in coef and all(_conflict(c, d) for d in members):
                coef[i] = 1.0
                members.append(c)
        out.append(coef)
    return out


Row = tuple[str, int]
"""A row of the set packing: ``("", j)`` job j's, ``(k, t)`` node k's at time t."""


def _hits(c: Column, row: Row) -> bool:
    k, t = row
    if k == "":
        return c.j == t
    return any(kk == k and s <= t < e for kk, s, e in c.tasks)


def _shared(c: Column, d: Column) -> Row | None:
    """Return a row both windows hit (None: they do not conflict)."""
    if c.j == d.j:
        return ("", c.j)
    tasks = {k: (s, e) for k, s, e in d.tasks}
    for k, s, e in c.tasks:
        if k in tasks and s < tasks[k][1] and tasks[k][0] < e:
            return (k, max(s, tasks[k][0]))
    return None


def subset_row_cuts(cols: list[Column], x: list[float]) -> list[dict[int, float]]:
    """Return violated subset-row cuts over three rows (Jepsen et al. 2008):
    ``Σ_w ⌊|S ∩ rows(w)| / 2⌋ x_w ≤ 1``, S the rows of a triangle of positive columns that
    conflict pairwise through three different rows (valid for every window, generated or
    not: the coefficient depends on the rows a window hits). Only triangles of weight > 1
    are looked at (a heuristic separation)."""
    pos = [i for i, v in enumerate(x) if v > EPS]
    share = {}
    for i, j in itertools.combinations(pos, 2):
        r = _shared(cols[i], cols[j])
        if r is not None:
            share[i, j] = r
    adj = defaultdict(set)
    for i, j in share:
        adj[i].add(j)
        adj[j].add(i)
    seen: set[frozenset[Row]] = set()
    scored = []
    for i, j in share:
        for k in adj[i] & adj[j]:
            if k <= j or x[i] + x[j] + x[k] <= 1 + EPS:  # the triangle alone violates it
                continue
            rows = frozenset({share[i, j], share[min(i, k), max(i, k)],
                              share[min(j, k), max(j, k)]})
            if len(rows) < 3 or rows in seen:
                continue
            seen.add(rows)
            lhs = sum(x[w] for w in pos if sum(_hits(cols[w], r) for r in rows) >= 2)
            if lhs > 1 + EPS:
                scored.append((lhs, rows))
    scored.sort(key=lambda p: -p[0])
    out = []
    for _, rows in scored[:100]:  # the coefficients over every column of the 100 most violated
        out.append({w: 1.0 for w, c in enumerate(cols)
                    if sum(_hits(c, r) for r in rows) >= 2})
    return out


FAMILIES = {"robust": (robust_cuts,), "clique": (clique_cuts,),
            "sr3": (subset_row_cuts,), "both": (robust_cuts, clique_cuts)}


def run(master: Master, family: str, rounds: int) -> tuple[float, int, int, float]:
    """Return (LP value after the cuts, rounds that added cuts, cuts, seconds)."""
    began = time.perf_counter()
    lp = Plain(master)
    value = lp.solve()
    done = 0
    for _ in range(rounds):
        x = lp.values()
        cuts = [c for sep in FAMILIES[family] for c in sep(lp.cols, x)]
        if not cuts:
            break
        for coef in cuts:
            lp.add(coef, 1.0)
        value = lp.solve()
        done += 1
    return value, done, lp.cuts, time.perf_counter() - began


def built(
    inst: Instance, objective: str, time_limit: float, family: str = "robust"
) -> dict[str, Any]:
    """Run the cg solver with its root cuts on to the end of the cut rounds; return the
    bound before and after, the counts and the seconds."""
    got: dict[str, Any] = {}
    real = cg_solve.strengthen
    began, cpu = time.perf_counter(), time.process_time()

    def rounds(*args: Any, **kwargs: Any) -> Any:
        got.update(root_s=time.perf_counter() - began, root_cpu=time.process_time() - cpu,
                   before=args[2].bound)
        t, c = time.perf_counter(), time.process_time()
        out = real(*args, **kwargs)
        got.update(after=out.gen.bound, rounds=out.rounds, cuts=out.cuts, rows=out.rows,
                   pricing=out.pricing, converged=out.gen.converged,
                   cut_s=time.perf_counter() - t, cut_cpu=time.process_time() - c)
        raise StopSolve

    solve_until(inst, objective, time_limit,
                [(cg_solve, "strengthen", rounds), (cg_solve, "CUTS", family != "subset-row"),
                 (cg_solve, "SUBSET_ROW", family != "robust")])
    return got


def main_built(a: argparse.Namespace) -> None:
    """Print one row per seed and objective of the solver's own root cuts."""
    print("| seed | objective | best | root L | gap % | with cuts L | gap % | closed % |"
          " rounds | cuts | pricing rounds | root s (cpu) | cuts s (cpu) | capped |")
    print("|" + "---|" * 14)
    for seed in seeds_of(a.seeds):
        inst = generate("css2015", seed=seed, nodes=a.nodes, jobs=a.jobs)
        for objective in a.objectives.split(","):
            capped = rowpricing.TALLY["capped"]
            g = built(inst, objective, a.time_limit, a.family)
            if "before" not in g:
                print(f"| {seed} | {objective} | the root did not converge or the bound met"
                      " the incumbent |")
                continue
            best = BEST.get(objective, {}).get(seed)
            lo, hi = g["before"], g["after"]
            gap0 = (best - lo) / best * 100 if best else float("nan")
            gap1 = (best - hi) / best * 100 if best else float("nan")
            closed = (hi - lo) / (best - lo) * 100 if best and best > lo else 0.0
            cuts = str(g["cuts"]) if a.family == "robust" else (
                str(g["rows"]) if a.family == "subset-row" else f"{g['cuts']} + {g['rows']}")
            print(f"| {seed} | {objective} | {best} | {lo:.2f} | {gap0:.2f} | {hi:.2f} |"
                  f" {gap1:.2f} | {closed:.1f} | {g['rounds']} | {cuts} |"
                  f" {g['pricing']} | {g['root_s']:.1f} ({g['root_cpu']:.1f}) |"
                  f" {g['cut_s']:.1f} ({g['cut_cpu']:.1f}) |"
                  f" {rowpricing.TALLY['capped'] - capped} |", flush=True)


def main() -> None:
    """Print one row per seed and objective."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="3,6,9")
    ap.add_argument("--objectives", default="finish")
    ap.add_argument("--families", default="robust,clique,both")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=400.0)
    ap.add_argument("--nodes", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=20)
    ap.add_argument("--family", default="robust", choices=("robust", "subset-row", "both"),
                    help="the cuts built (with --built)")
    ap.add_argument("--built", action="store_true",
                    help="the solver's own root cuts, a proven bound (module docstring)")
    a = ap.parse_args()
    if a.built:
        main_built(a)
        return
    fams = a.families.split(",")
    print("seed objective  best   root_lp  gap%  " + "  ".join(
        f"{f}: lp / closed% (rounds, cuts, s)" for f in fams))
    for seed in seeds_of(a.seeds):
        inst = generate("css2015", seed=seed, nodes=a.nodes, jobs=a.jobs)
        for objective in a.objectives.split(","):
            began = time.perf_counter()
            master = root(inst, objective, a.time_limit)
            lp0 = Plain(master).solve()
            best = BEST.get(objective, {}).get(seed)
            gap = (best - lp0) / best * 100 if best else float("nan")
            row = (f"{seed:4d} {objective:>9} {best!s:>5} {lp0:9.2f} {gap:5.2f}"
                   f" (master {master.lp.Objective().Value():.2f},"
                   f" {len(master.columns)} columns, {time.perf_counter() - began:.1f} s)")
            for fam in fams:
                v, r, n, s = run(master, fam, a.rounds)
                closed = (v - lp0) / (best - lp0) * 100 if best and best > lp0 else 0.0
                row += f"  {fam}: {v:.2f} / {closed:.1f}% ({r}, {n}, {s:.1f} s)"
            print(row, flush=True)


if __name__ == "__main__":
    main()
