"""Seed 004 §4.3, Table 1: window placement by DEP / COORD (and Lite) vs MultipleBest, FirstFit.

Same instances as ``maxq`` (family ``toporkov2018``). For every algorithm the
window's mean distance to the nearest and to the farthest neighbouring task
(SPEC §3 ``near_distance``, ``far_distance``) and its run time. MultipleBest
picks, among the disjoint FirstFit alternatives, the one with the largest
near distance and (separately) the one with the smallest far distance, as
the paper does. The exact column is the CP-SAT optimum over any integer
start (``free_start``): ``dep`` for the near distance, ``coord`` for the far.
"""

from __future__ import annotations

import itertools
import statistics
import time

from validation.study.reproduce.common import Comparison, mean, reference
from validation.study.spec import instance_seed

NAME = "dep-coord"
ALGORITHMS = ("multiple_best", "first_fit", "dep", "dep_lite", "coord", "coord_lite")
DEFAULT_RUNS = 20


def run(seed: int = 0, runs: int = DEFAULT_RUNS) -> Comparison:
    """Run the experiment and return paper vs ours."""
    from instances import generate
    from models import solve_window
    from planner import find_alternatives, search

    ref = reference(NAME)
    near: dict[str, list[float]] = {a: [] for a in (*ALGORITHMS, "exact")}
    far: dict[str, list[float]] = {a: [] for a in (*ALGORITHMS, "exact")}
    ms: dict[str, list[float]] = {a: [] for a in ALGORITHMS}
    for r in range(runs):
        inst = generate(ref["family"], instance_seed(seed, r))
        job = inst.jobs[0]
        for name in ALGORITHMS:
            began = time.perf_counter()
            if name == "multiple_best":
                alts = find_alternatives(inst, "amp").windows
                ms[name].append(1000 * (time.perf_counter() - began))
                if alts:
                    near[name].append(max(w.near_distance for w in alts))
                    far[name].append(min(w.far_distance for w in alts))
                continue
            w = search(inst, job, name)
            ms[name].append(1000 * (time.perf_counter() - began))
            if w is not None:
                near[name].append(w.near_distance)
                far[name].append(w.far_distance)
        for crit, into in (("dep", near), ("coord", far)):
            res = solve_window(inst, job, crit, free_start=True)
            if res.status == "optimal":
                into["exact"].append(res.objective)
    cmp = Comparison(NAME, ref["title"], f"seed {ref['seed_file']} {ref['section']}, "
                     f"{ref['paper_runs']} runs", runs, runs)  # fmt: skip
    n = {a: mean(v) for a, v in near.items()}
    f = {a: mean(v) for a, v in far.items()}
    for name in ALGORITHMS:
        paper = ref["paper"][name]
        cmp.add("nearest", "near_distance", name, paper["near_distance"], n[name],
                n["exact"] if name == "dep" else None)  # fmt: skip
    for name in ALGORITHMS:
        paper = ref["paper"][name]
        cmp.add("farthest", "far_distance", name, paper["far_distance"], f[name],
                f["exact"] if name == "coord" else None)  # fmt: skip
    for name in ALGORITHMS:
        cmp.add("time", "median ms", name, ref["paper"][name]["ms"], statistics.median(ms[name]))
    order_n = ("dep", "dep_lite", "multiple_best", "first_fit", "coord_lite", "coord")
    pairs_n = list(itertools.pairwise(order_n))
    cmp.check(ref["orderings"][0], lambda: all(n[a] >= n[b] for a, b in pairs_n))
    order_f = ("coord", "coord_lite", "multiple_best", "first_fit", "dep_lite", "dep")
    pairs_f = list(itertools.pairwise(order_f))
    cmp.check(ref["orderings"][1], lambda: all(f[a] <= f[b] for a, b in pairs_f))
    cmp.notes += ref["notes"]
    return cmp
