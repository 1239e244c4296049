"""Running time of the slot-search heuristics (designs of Toporkov et al. 2012 Tables 1–2, Toporkov
& Yemelyanov 2018 Table 1).

Three experiments (``--experiment``):

- ``nodes``    (Toporkov et al. 2012 Table 1): ``toporkov2012`` with 50, 100, 200, 300, 400
  nodes on the interval [0, 600];
- ``interval`` (Toporkov et al. 2012 Table 2): ``toporkov2012`` with 100 nodes on
  intervals of 600, 1200, ..., 3600;
- ``square``   (Toporkov & Yemelyanov 2018 §4): ``toporkov2018`` (square windows, n = 7,
  V = 800, S = 644, 100 nodes, interval 1200).

For each point it generates ``--instances`` instances (seeds 0, 1, ...), times
``planner.search`` for the family's job ``--repeats`` times per instance
(process CPU time, ``time.process_time``, best of the repeats: the machine
is shared, and CPU time is what other processes disturb least) and prints
the mean number of slots, the median over instances of the time per call
(ms) of every algorithm and, for CSA, the mean number of alternatives and
the time per alternative. The last line of the ``nodes`` and ``interval`` tables gives each
algorithm's growth exponent in slots (least-squares slope of log time on log
slots). Times depend on the machine and its load; compare ratios from one run.

    python benchmarks/bench_heuristics.py --experiment interval --instances 5
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

from instances import generate
from planner import find_alternatives, search

AEP_2012 = ["amp", "min_finish", "min_cost", "min_runtime", "min_proc_time", "min_finish_exact",
            "min_runtime_exact", "min_proc_time_exact", "csa"]  # fmt: skip
SQUARE_2018 = ["first_fit", "multiple_best", "max_q", "max_q_lite", "dep", "dep_lite", "coord",
               "coord_lite"]  # fmt: skip
SEED_2012_TABLE2 = {"amp": 2.14, "min_finish": 84.1, "min_cost": 43.5, "min_runtime": 84.6,
                    "min_proc_time": 35.8, "csa": 2424.4}  # fmt: skip
"""Toporkov et al. 2012 Table 2 at interval 3600 (about 2,030 slots), ms, Java on a 2.93 GHz Core
i3."""

EXPERIMENTS = {
    "nodes": ("toporkov2012", "nodes", [50, 100, 200, 300, 400], {}, AEP_2012),
    "interval": ("toporkov2012", "interval", [600, 1200, 1800, 2400, 3000, 3600], {}, AEP_2012),
    "square": ("toporkov2018", None, [None], {}, SQUARE_2018),
}


def _time(inst, job, name: str, repeats: int) -> float:
    """Return the least CPU time of ``repeats`` calls (robust to load from other processes)."""
    best = math.inf
    for _ in range(repeats):
        t0 = time.process_time()
        search(inst, job, name)
        best = min(best, time.process_time() - t0)
    return best


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Return the least-squares slope of log y on log x (the growth exponent)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-9)) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / den if den else 0.0


def run(experiment: str, instances: int, repeats: int, algorithms: list[str] | None) -> None:
    """Print the table of one experiment."""
    family, param, values, fixed, names = EXPERIMENTS[experiment]
    names = algorithms or names
    print(f"## {experiment}: {family}, {instances} instances per point, "
          f"median over instances of the best of {repeats} runs (CPU ms)")  # fmt: skip
    header = [param or "setting", "slots", *names]
    if "csa" in names or "multiple_best" in names:
        header += ["csa alts", "csa/alt"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    slots_col: list[float] = []
    times: dict[str, list[float]] = {n: [] for n in names}
    for value in values:
        params = dict(fixed)
        if param is not None:
            params[param] = value
        per: dict[str, list[float]] = {n: [] for n in names}
        sizes, alts = [], []
        for seed in range(instances):
            inst = generate(family, seed, **params)
            job = inst.jobs[0]
            sizes.append(len(inst.slots))
            for name in names:
                per[name].append(_time(inst, job, name, repeats))
            if "csa" in names or "multiple_best" in names:
                alts.append(len(find_alternatives(inst, "amp", jobs=[job])))
        slots_col.append(statistics.fmean(sizes))
        row = [str(value if param else "default"), f"{slots_col[-1]:.1f}"]
        for name in names:
            med = statistics.median(per[name]) * 1000
            times[name].append(med)
            row.append(f"{med:.2f}")
        if alts:
            csa = times["csa" if "csa" in names else "multiple_best"][-1]
            row += [f"{statistics.fmean(alts):.1f}", f"{csa / max(statistics.fmean(alts), 1):.3f}"]
        print("| " + " | ".join(row) + " |")
    if len(values) > 1:
        row = ["exponent", "-"] + [f"{slope(slots_col, times[n]):.2f}" for n in names]
        print("| " + " | ".join(row) + (" | | |" if len(header) > len(row) else " |"))
    print()


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options and run the experiments."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--experiment", choices=[*EXPERIMENTS, "all"], default="all")
    p.add_argument("--instances", type=int, default=5, help="instances per point (default 5)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per instance (default 3)")
    p.add_argument("--algorithms", help="comma-separated registry names (default: the paper's)")
    args = p.parse_args(argv)
    algorithms = args.algorithms.split(",") if args.algorithms else None
    for name in EXPERIMENTS if args.experiment == "all" else [args.experiment]:
        run(name, args.instances, args.repeats, algorithms)


if __name__ == "__main__":
    main()
