"""Benchmark: convergence of the joint column generation's LP (phase 2 of the cg solver,
docs/exact-models.md) on css2015 batches (Toporkov et al. 2015 §5).

Usage::

    python benchmarks/bench_cg_rounds.py [--seeds 1] [--objectives finish,p8]
        [--columns auto,1,3] [--smoothing off,directional] [--repeat 1]
        [--time-limit 400] [--nodes 24] [--jobs 20]

One row per seed, objective, windows per job and round (``--columns``; ``auto``: the
default of :func:`models.joint.cg.generate.generate`), stabilisation (``--smoothing``,
:data:`models.joint.cg.stabilise.MODES`; ``default``: the solver's) and repetition:
the wall seconds from the first to the last LP of phase 2, its pricing rounds (a
machine-independent count), the mean seconds of one pricing round (all jobs priced), the
columns in the master, the LP value, the best Lagrangian bound and whether the LP optimum
was reached within the phase's share of ``--time-limit``, and the rounds repeated after a
mispricing. The run stops after phase 2
(no integer master). Run with an older checkout on ``PYTHONPATH`` it times that code (one
window per job and round when its ``generate`` has no ``columns``).
An objective ``pN`` is combination problem N as ``planner combine --problem N --joint``
builds it (AMP alternatives, DP combination). Then per case the median seconds.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import time
from typing import Any

from bench_cg import StopSolve, solve_until  # a sibling script: run from benchmarks/

import models.joint.cg.generate as cg_generate
import models.joint.cg.solve as cg_solve
from instances import Instance, generate


def phase2(
    inst: Instance, objective: str, columns: int | None, time_limit: float,
    smoothing: str | None = None,
) -> dict[str, Any]:
    """Run the cg solver up to the end of its phase 2; return its figures."""
    stats: dict[str, Any] = {"pricing": 0.0}
    generate_, round_ = cg_solve.generate, cg_generate._round

    def timed_round(*args: Any) -> Any:
        began = time.perf_counter()
        try:
            return round_(*args)
        finally:
            stats["pricing"] += time.perf_counter() - began

    def phase(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("initial") is None:
            return generate_(*args, **kwargs)
        stats["columns"] = "1"  # code before the option added one window per job and round
        if "columns" in inspect.signature(generate_).parameters:
            kwargs["columns"], stats["columns"] = columns, str(columns or "auto")
        if smoothing is not None:
            kwargs["smoothing"] = smoothing
        began = time.perf_counter()
        gen = generate_(*args, **kwargs)
        stats.update(seconds=time.perf_counter() - began, rounds=gen.rounds, lp=gen.lp,
                     bound=gen.bound,
                     converged=gen.converged, size=len(args[1].columns),
                     mispricings=getattr(gen, "mispricings", 0))
        raise StopSolve

    solve_until(inst, objective, time_limit,
                [(cg_solve, "generate", phase), (cg_generate, "_round", timed_round)])
    return stats


def main() -> None:
    """Print one row per case and repetition, then the medians."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--objectives", default="finish,p8")
    ap.add_argument("--columns", default="auto")
    ap.add_argument("--smoothing", default="default")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=400.0)
    ap.add_argument("--nodes", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=20)
    a = ap.parse_args()
    seconds: dict[tuple[int, str, int | None, str], list[float]] = {}
    print("seed objective columns smoothing  seconds rounds  s/round  columns_in          lp"
          "       bound converged mispriced")
    for _ in range(a.repeat):
        for seed in [int(x) for x in a.seeds.split(",")]:
            inst = generate("css2015", seed=seed, nodes=a.nodes, jobs=a.jobs)
            for objective in a.objectives.split(","):
                for k in [None if x == "auto" else int(x) for x in a.columns.split(",")]:
                    for mode in a.smoothing.split(","):
                        smooth = None if mode == "default" else mode
                        s = phase2(inst, objective, k, a.time_limit, smooth)
                        if "seconds" not in s:
                            print(f"{seed:4d} {objective:>9} {k} {mode}  (phase 2 not reached)")
                            continue
                        seconds.setdefault((seed, objective, k, mode), []).append(s["seconds"])
                        per = s["pricing"] / max(s["rounds"], 1)
                        print(f"{seed:4d} {objective:>9} {s['columns']:>7} {mode:>9}"
                              f" {s['seconds']:8.2f} {s['rounds']:6d}"
                              f" {per:8.3f} {s['size']:11d} {s['lp']:11.2f} {s['bound']:11.2f}"
                              f" {s['converged']!s:>9} {s['mispricings']:9d}",
                              flush=True)
    for (seed, objective, k, mode), xs in seconds.items():
        print(f"median seed {seed} {objective} columns {k} {mode}: "
              f"{statistics.median(xs):.2f} s over {len(xs)} runs")


if __name__ == "__main__":
    main()
