"""Benchmark: exact single-job window selection (CP-SAT, DP, MILP) on the paper-sized families.

Targets (issue 5): CP-SAT proves optimality on ``toporkov2012`` (100 nodes,
about 450 slots) in <= 300 ms median for every criterion, model building
included; the DP for ``max_q`` on ``toporkov2018`` in <= 100 ms. Baselines in
the same run: CP-SAT on the plain compact model (``reduce=False``) and the
DP solving every candidate step (``prune=False``). The machine is shared and
noisy: compare ratios within one run.

Run from the repository root::

    python benchmarks/bench_exact_window.py                # both tables, 5 seeds x 3 repeats
    python benchmarks/bench_exact_window.py --seeds 3 --repeats 1 --milp
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from instances import CRITERIA, Instance, generate
from models import solve_window
from models.window.reduce import reduce_space
from models.window.space import WindowSpace


def _median_ms(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return 1000 * statistics.median(times)


def _row(
    insts: list[Instance], criterion: str, variants: dict[str, dict], repeats: int
) -> list[str]:
    """Return the table cells of one criterion: sizes, then each variant's median ms."""
    job = insts[0].jobs[0]
    sizes = [WindowSpace(i, i.jobs[0], CRITERIA[criterion]) for i in insts]
    kept = [len(reduce_space(sp).t) for sp in sizes]
    total = [len(sp.candidates(False)[0]) for sp in sizes]
    cells = [criterion, f"{job.nodes}", f"{statistics.median(sp.m for sp in sizes):.0f}",
             f"{statistics.median(total):.0f}", f"{statistics.median(kept):.0f}"]  # fmt: skip
    for solver, options in variants.values():
        per_seed, statuses = [], set()
        for inst in insts:
            res = solve_window(inst, inst.jobs[0], criterion, solver, **options)
            statuses.add(res.status)
            per_seed.append(
                _median_ms(
                    lambda i=inst, s=solver, o=options: solve_window(
                        i, i.jobs[0], criterion, s, **o
                    ),
                    repeats,
                )
            )
        flag = "" if statuses == {"optimal"} else f" ({'/'.join(sorted(statuses))})"
        cells.append(f"{statistics.median(per_seed):.0f}{flag}")
    return cells


def table(family: str, criteria: list[str], variants: dict, seeds: int, repeats: int) -> None:
    """Print one markdown table: per criterion, the medians over seeds of per-seed medians."""
    insts = [generate(family, s) for s in range(seeds)]
    solve_window(insts[0], insts[0].jobs[0], "min_cost", "cpsat")  # warm-up: imports, JIT caches
    head = ["criterion", "n", "slots", "candidates", "kept", *variants]
    print(f"\n{family} ({insts[0].geometry}), seeds 0..{seeds - 1}, median ms of {repeats} runs\n")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for criterion in criteria:
        print("| " + " | ".join(_row(insts, criterion, variants, repeats)) + " |", flush=True)


def free_start_gain(family: str, seeds: int) -> None:
    """Print how much the free start improves DEP and COORD over the AEP space
    (docs/concepts.md)."""
    insts = [generate(family, s) for s in range(seeds)]
    print(f"\n{family}: AEP vs free start (DP optimum, mean distance), seeds 0..{seeds - 1}\n")
    print("| criterion | AEP mean | free mean | seeds improved | candidates AEP | free |")
    print("|---|---|---|---|---|---|")
    for criterion in ("dep", "coord"):
        aep, free, better, sizes = [], [], 0, ([], [])
        for inst in insts:
            job = inst.jobs[0]
            a = solve_window(inst, job, criterion, "dp").objective
            f = solve_window(inst, job, criterion, "dp", free_start=True).objective
            aep.append(a)
            free.append(f)
            better += CRITERIA[criterion].better(f, a)
            sp = WindowSpace(inst, job, CRITERIA[criterion])
            sizes[0].append(len(sp.candidates(False)[0]))
            sizes[1].append(len(sp.candidates(True)[0]))
        cells = [criterion, f"{statistics.mean(aep):.2f}", f"{statistics.mean(free):.2f}",
                 f"{better}/{seeds}", f"{statistics.median(sizes[0]):.0f}",
                 f"{statistics.median(sizes[1]):.0f}"]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    """Parse the options and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--milp", action="store_true", help="also time the CBC MILP (slow)")
    args = ap.parse_args()
    cp = {
        "cpsat ms": ("cpsat", {}),
        "cpsat plain ms": ("cpsat", {"reduce": False, "time_limit": 10.0}),
        "dp ms": ("dp", {}),
    }
    if args.milp:
        cp["milp ms"] = ("milp", {})
    table("toporkov2012", list(CRITERIA), cp, args.seeds, args.repeats)
    dp = {"dp ms": ("dp", {}), "dp every step ms": ("dp", {"prune": False}),
          "cpsat ms": ("cpsat", {})}  # fmt: skip
    table("toporkov2018", list(CRITERIA), dp, args.seeds, args.repeats)
    for family in ("toporkov2012", "toporkov2018"):
        free_start_gain(family, args.seeds)


if __name__ == "__main__":
    main()
