"""Benchmark: column generation (``solver="cg"``) vs the compact CP-SAT model (``cpsat``) for
joint co-allocation (docs/exact-models.md), on css2015 batches (Toporkov et al. 2015 §5).

Usage::

    python benchmarks/bench_cg.py seeds [--seeds 1-10] [--objectives p8,finish]
        [--solvers cpsat,cg,cg-branch,cg-compact,cg-dive,cg-nodive,cg-cuts,cg-nocuts,cg-sr]
        [--time-limit 60] [--nodes 24]
        [--jobs 20]
    python benchmarks/bench_cg.py frontier [--frontier-nodes 24,48,100] [--solvers cpsat,cg]
        [--time-limit 60] [--objective proc_time] [--step 4] [--cap 40] [--seed 1]

``seeds``: one row per seed, objective and solver: status, placed jobs, objective,
proven bound, gap (Result.gap, %), wall seconds, CPU seconds of this process (the
machine may be shared: CPU seconds say how much work the limit allowed) and the
machine-independent counts of the cg solver (pricing rounds, columns, windows listed for
the last set packing and its level, branch-and-price nodes solved and left open, what
closed the gap), the root cuts (``rounds/cuts before>after``, the Lagrangian bound
before and after them), and the incumbents of the root dive and of the neighbourhood
search (``from>to`` values, the dive's seconds). The solvers ``cg-branch`` and ``cg-compact``
are ``cg`` with its gap closed by branch-and-price alone, or on the compact model, instead
of by enumeration; ``cg-dive`` and ``cg-nodive`` are ``cg`` with and without the root dive
(docs/exact-models.md); ``cg-cuts`` and ``cg-nocuts`` with and without the robust cuts
at the root, ``cg-sr`` with the subset-row cuts at the root (Jepsen et al. 2008) and
without the robust ones. An objective ``pN`` is
combination problem N solved as ``planner combine --problem N --joint`` does: its
limit and hint come from the two-phase run (AMP alternatives, DP combination).
Then per objective and solver: seeds proven optimal and the median gap.

``frontier``: per node count and solver, the largest prefix batch (step ``--step``)
of a ``--cap``-job css2015 instance proven optimal within the limit.
One CP-SAT worker, seed 0; every solution passes the joint checker.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from instances import Instance, generate
from models import Result, solve_combination, solve_joint
from models.joint.cg import solve as cg_solve
from planner import find_alternatives
from validation import check_alternatives

CLOSES = {"cg-branch": "branch", "cg-compact": "compact"}
"""Benchmark solver name → the ``cg`` solver's way of closing the gap (default: enumerate)."""


def seeds_of(text: str) -> list[int]:
    """Parse ``1-10`` or ``1,3,5``."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",") if x]


def solve(
    inst: Instance, objective: str, solver: str, time_limit: float, jobs: list[str] | None = None
) -> tuple[Result, float]:
    """Solve one case as the CLI does; return the Result and the CPU seconds it took."""
    ids = [j.id for j in inst.jobs] if jobs is None else jobs
    close, diving, cuts, rows = cg_solve.CLOSE, cg_solve.DIVING, cg_solve.CUTS, \
        cg_solve.SUBSET_ROW
    if solver in CLOSES:  # cg, its gap closed another way than the default
        solver, cg_solve.CLOSE = "cg", CLOSES[solver]
    if solver in ("cg-dive", "cg-nodive"):
        solver, cg_solve.DIVING = "cg", solver == "cg-dive"
    if solver in ("cg-cuts", "cg-nocuts", "cg-sr"):
        solver, cg_solve.CUTS, cg_solve.SUBSET_ROW = "cg", solver == "cg-cuts", solver == "cg-sr"
    try:
        return _solve(inst, objective, solver, time_limit, ids)
    finally:
        cg_solve.CLOSE, cg_solve.DIVING, cg_solve.CUTS, cg_solve.SUBSET_ROW = \
            close, diving, cuts, rows


def solve_as_cli(
    inst: Instance, objective: str, solver: str, time_limit: float, ids: list[str]
) -> Result:
    """Solve one case as ``planner combine --joint`` does: an objective ``pN`` is combination
    problem N with the limit and hint of the two-phase run (AMP alternatives, DP
    combination); any other objective is passed to :func:`models.solve_joint`."""
    if objective[:1] == "p" and objective[1:].isdigit():
        problem = int(objective[1:])
        two = solve_combination(find_alternatives(inst, "amp", jobs=ids).by_job(), problem, "dp")
        return solve_joint(inst, problem=problem, solver=solver, jobs=ids,
                           hint=list(two.windows), t_star=two.info["t_star"],
                           b_star=two.info["b_star"], time_limit=time_limit)
    return solve_joint(inst, objective, solver, jobs=ids, time_limit=time_limit)


class StopSolve(Exception):
    """Raised by a patched stage of :func:`solve_until` once it has measured what it wanted."""


def solve_until(
    inst: Instance, objective: str, time_limit: float, patches: list[tuple[object, str, object]]
) -> None:
    """Solve one case with ``cg`` as the CLI does, each ``(module, name, value)`` of
    ``patches`` set for the run, until a patched stage raises :class:`StopSolve`; the
    patched names are restored whatever happens."""
    saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
    for module, name, value in patches:
        setattr(module, name, value)
    try:
        solve_as_cli(inst, objective, "cg", time_limit, [j.id for j in inst.jobs])
    except StopSolve:
        pass
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def _solve(
    inst: Instance, objective: str, solver: str, time_limit: float, ids: list[str]
) -> tuple[Result, float]:
    cpu = time.process_time()
    r = solve_as_cli(inst, objective, solver, time_limit, ids)
    assert check_alternatives(inst, r.windows, sequential=False) == []
    return r, time.process_time() - cpu


def cell(value: object) -> str:
    """Format a table cell ('-' for None)."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def run_seeds(args: argparse.Namespace) -> None:
    """Print the per-seed table and the proven counts."""
    head = ["seed", "objective", "solver", "status", "placed", "value", "bound", "gap %",
            "wall s", "cpu s", "rounds", "columns", "listed", "level", "nodes", "open", "closed",
            "cuts", "dive", "search"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    gaps: dict[tuple[str, str], list[float]] = {}
    proven: dict[tuple[str, str], int] = {}
    for seed in seeds_of(args.seeds):
        size = {k: v for k, v in (("nodes", args.nodes), ("jobs", args.jobs)) if v is not None}
        inst = generate("css2015", seed, **size)
        for objective in args.objectives.split(","):
            for solver in args.solvers.split(","):
                r, cpu = solve(inst, objective, solver, args.time_limit)
                cg = r.info.get("cg") or {}
                gap = None if r.gap is None else 100 * r.gap
                key = (objective, solver)
                name = solver if solver.startswith("cg-") else r.solver
                dive, search, cuts = cg.get("dive"), cg.get("lns"), cg.get("cuts")
                proven[key] = proven.get(key, 0) + (r.status == "optimal")
                gaps.setdefault(key, []).append(gap if gap is not None else float("inf"))
                row = [seed, objective, name, r.status, len(r.info["placed"]), r.objective,
                       r.bound, gap, r.runtime, cpu, cg.get("rounds"), cg.get("columns"),
                       cg.get("listed"), cg.get("level"), cg.get("nodes"), cg.get("open"),
                       cg.get("closed_by"),
                       f"{cuts['rounds']}/{cuts['added']} {cuts['before']:.2f}>"
                       f"{cuts['after']:.2f}" if cuts else None,
                       f"{dive['from']}>{dive['to']} ({dive['seconds']:.1f} s)" if dive else None,
                       f"{search['from']}>{search['to']}" if search else None]
                print("| " + " | ".join(cell(v) for v in row) + " |", flush=True)
    print()
    for (objective, solver), values in gaps.items():
        n = len(values)
        print(f"{objective} {solver}: {proven[(objective, solver)]}/{n} proven optimal, "
              f"median gap {statistics.median(values):.2f} %")


def run_frontier(args: argparse.Namespace) -> None:
    """Print the largest proven prefix batch per node count and solver."""
    print(f"frontier: {args.objective}, limit {args.time_limit:g} s, seed {args.seed}")
    print("| nodes | " + " | ".join(f"{s} largest proven (s) | {s} first unproven"
                                     for s in args.solvers.split(",")) + " |")
    print("|---|" + "---|---|" * len(args.solvers.split(",")))
    for nodes in seeds_of(args.frontier_nodes):
        inst = generate("css2015", args.seed, nodes=nodes, jobs=args.cap)
        cells = [str(nodes)]
        for solver in args.solvers.split(","):
            best, nxt = "-", "none up to the cap"
            for k in range(args.step, args.cap + 1, args.step):
                ids = [j.id for j in inst.jobs[:k]]
                r, _ = solve(inst, args.objective, solver, args.time_limit, ids)
                if r.status != "optimal":
                    gap = "-" if r.gap is None else f"{100 * r.gap:.2f} %"
                    nxt = f"{k} ({r.status}, gap {gap})"
                    break
                best = f"{k} ({r.runtime:.1f})"
            cells += [best, nxt]
        print("| " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    """Run the chosen part."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=["seeds", "frontier"])
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--objectives", default="p8,finish")
    ap.add_argument("--objective", default="proc_time")
    ap.add_argument("--solvers", default="cpsat,cg")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--frontier-nodes", default="24,48,100")
    ap.add_argument("--step", type=int, default=4)
    ap.add_argument("--cap", type=int, default=40)
    args = ap.parse_args()
    print("$ python benchmarks/bench_cg.py " + " ".join(sys.argv[1:]))
    (run_seeds if args.part == "seeds" else run_frontier)(args)


if __name__ == "__main__":
    main()
