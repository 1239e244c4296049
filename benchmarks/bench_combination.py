"""Benchmark: batch combination (docs/concepts.md, Toporkov et al. 2015 §2.3) by DP, CP-SAT and
MILP.

Usage::

    python benchmarks/bench_combination.py [--repeats 5] [--seed 0] [--no-milp]

Random batches (seeded) of jobs × alternatives, each alternative a window of
1–3 tasks with durations 10–200 and costs 0–500, as the alternatives search
yields them; plus, when ``planner.find_alternatives`` is available, the real
alternatives (AMP) of ``css2015`` batches. For every problem (6)–(9) it
prints the machine-independent sizes (jobs, alternatives, the limit g* that
indexes the DP) beside the median wall time of each method and checks the
three objectives agree. Target: DP for 20 jobs × 50 alternatives ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time

import numpy as np

from models import PROBLEMS, solve_combination
from planner import Placement, Window

SIZES: tuple[tuple[int, int], ...] = ((5, 4), (10, 20), (20, 50), (40, 50), (20, 200))


def random_batch(rng: np.random.Generator, jobs: int, alts: int) -> dict[str, list[Window]]:
    """Return ``jobs`` jobs with ``alts`` random alternatives each."""
    batch: dict[str, list[Window]] = {}
    for j in range(jobs):
        windows = []
        for _ in range(alts):
            tasks = [
                (int(rng.integers(10, 200)), int(rng.integers(0, 500)))
                for _ in range(int(rng.integers(1, 4)))
            ]
            placements = tuple(
                Placement(f"n{k}", 0, d, c, 0, 10_000) for k, (d, c) in enumerate(tasks)
            )
            windows.append(Window(f"j{j}", 0, placements))
        batch[f"j{j}"] = windows
    return batch


def css_batches(seeds: range) -> list[tuple[str, dict[str, list[Window]]]]:
    """Return the AMP alternatives of css2015 instances (empty if the search is not built)."""
    import planner
    from instances import generate

    if not hasattr(planner, "find_alternatives"):
        return []
    out = []
    for seed in seeds:
        inst = generate("css2015", seed)
        alts = planner.find_alternatives(inst, "amp").by_job()
        out.append((f"css2015 seed {seed}", {j.id: list(alts.get(j.id, [])) for j in inst.jobs}))
    return out


def median_ms(fn, repeats: int) -> tuple[float, object]:
    """Return the median wall time (ms) over ``repeats`` calls and the last result."""
    times, result = [], None
    for _ in range(repeats):
        began = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), result


def main() -> None:
    """Print the benchmark table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-milp", action="store_true", help="skip the CBC runs")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    cases = [(f"random {j}x{a}", random_batch(rng, j, a)) for j, a in SIZES]
    cases += css_batches(range(3))
    solvers = ["dp", "cpsat"] + ([] if args.no_milp else ["milp"])
    for solver in solvers:  # untimed warm-up: the first solve pays the solver's start-up
        solve_combination(cases[0][1], next(iter(PROBLEMS)), solver)
    head = f"{'batch':<22}{'prob':>5}{'jobs':>6}{'alts':>7}{'g*':>8}"
    print(head + "".join(f"{s + ' ms':>11}" for s in solvers) + f"{'objective':>11}  agree")
    for name, batch in cases:
        placed = [a for a in batch.values() if a]
        for problem in PROBLEMS:
            row, objectives = [], set()
            for solver in solvers:
                call = functools.partial(solve_combination, batch, problem, solver)
                ms, r = median_ms(call, args.repeats)
                row.append(f"{ms:>11.1f}")
                objectives.add((r.status, r.objective))
            limit = r.info["limit"]
            alts = sum(len(a) for a in placed)
            objective = sorted(objectives, key=str)[0][1]
            print(
                f"{name:<22}{problem:>5}{len(placed):>6}{alts:>7}{limit:>8}"
                + "".join(row)
                + f"{objective!s:>11}  {'yes' if len(objectives) == 1 else 'NO'}"
            )


if __name__ == "__main__":
    main()
