"""Working time vs nodes and interval length (Toporkov et al. 2012, Tables 1–2) and DEP/COORD ms.

Table 1 varies the number of nodes (50–400, interval 600), Table 2 the
scheduling interval (600–3600, 100 nodes), on the instances of
``aep-criteria`` (family ``toporkov2012`` with its reading of the job and
prices). Per column: ``runs`` instances; per instance and algorithm one
untimed warm-up search (start-up, imports, caches), then ``repeats`` timed
searches whose median counts; the column reports the mean of those medians
(the paper averages 1000 experiments). CSA's time is the whole search (every
disjoint AMP alternative, then the selection); "CSA per Alt" divides it by
the alternatives found. The growth exponent of each algorithm is the
least-squares slope of log(ms) on log(nodes) or log(slots), fitted the same
way to the paper's tables, and checked against the paper's statements
(CSA near cubic in nodes, AEP at most quadratic, AMP near linear, all linear
in the interval length). Toporkov & Yemelyanov 2018's Table 1 ms column is
measured the same way on the ``dep-coord`` instances.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce.common import Comparison, citation, mean, reference

NAME = "timing"
DEFAULT_RUNS = 10
DEFAULT_REPEATS = 3
ALGORITHMS = ("csa", "amp", "min_runtime", "min_finish", "min_proc_time", "min_cost")
PLACEMENT = ("multiple_best", "first_fit", "dep", "dep_lite", "coord", "coord_lite")


def timed(call: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Return (median ms over ``repeats`` timed calls after one untimed warm-up, last result)."""
    result = call()
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        result = call()
        times.append(1000 * (time.perf_counter() - began))
    return statistics.median(times), result


def slope(xs: Sequence[float], ys: Sequence[float | None]) -> float | None:
    """Return the least-squares slope of log(y) on log(x) (None with fewer than 2 points)."""
    pts = [(math.log(x), math.log(y)) for x, y in zip(xs, ys, strict=True) if y and y > 0]
    if len(pts) < 2:
        return None
    mx = statistics.fmean(p[0] for p in pts)
    my = statistics.fmean(p[1] for p in pts)
    den = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / den if den else None


def column(seed: int, runs: int, repeats: int, params: dict[str, Any]) -> dict[str, Any]:
    """Return one table column: mean ms per algorithm, alternatives, CSA per alt, slots."""
    from instances import generate
    from planner import find_alternatives, search
    from validation.study.reproduce.cuts import alternatives_by_job

    ref = reference(NAME)
    ms: dict[str, list[float]] = {a: [] for a in ALGORITHMS}
    alts: list[float] = []
    rect: list[float] = []  # untimed: the count under the rectangle cut (docs/reproductions.md)
    slots: list[float] = []
    for r in track(range(runs), f"{NAME}: runs"):
        inst = generate(ref["family"], instance_seed(seed, r), **{**ref["params"], **params})
        job = inst.jobs[0]
        slots.append(len(inst.slots))
        for a in ALGORITHMS:
            ms[a].append(timed(lambda a=a, i=inst, j=job: search(i, j, a), repeats)[0])
        alts.append(len(find_alternatives(inst, "amp")))
        rect.append(len(alternatives_by_job(inst, "amp", "rectangle")[job.id]))
    out: dict[str, Any] = {a: mean(v) for a, v in ms.items()}
    out["alternatives"] = mean(alts)
    out["alternatives_rectangle_cut"] = mean(rect)
    out["slots"] = mean(slots)
    out["csa_per_alt"] = out["csa"] / out["alternatives"] if out["alternatives"] else None
    return out


def placement(seed: int, runs: int, repeats: int) -> dict[str, Any]:
    """Return mean median ms of the window-placement algorithms on the dep-coord instances."""
    from instances import generate
    from planner import search
    from validation.study.reproduce.dep_coord import USED_LAYOUT
    from validation.study.reproduce.dep_coord_readings import layout_instance

    ref = reference("dep-coord")
    ms: dict[str, list[float]] = {a: [] for a in PLACEMENT}
    for r in track(range(runs), f"{NAME}: runs"):
        inst = generate(ref["family"], instance_seed(seed, r), **ref["params"])
        inst = layout_instance(inst, USED_LAYOUT, instance_seed(seed, r))
        job = inst.jobs[0]
        for a in PLACEMENT:
            if a == "multiple_best":
                dep = dataclasses.replace(job, criterion="dep")
                ms[a].append(timed(lambda i=inst, j=dep: search(i, j, "csa"), repeats)[0])
            else:
                ms[a].append(timed(lambda a=a, i=inst, j=job: search(i, j, a), repeats)[0])
    return {a: mean(v) for a, v in ms.items()}


def run(
    seed: int = 0,
    runs: int = DEFAULT_RUNS,
    *,
    repeats: int = DEFAULT_REPEATS,
    nodes: Sequence[int] | None = None,
    intervals: Sequence[int] | None = None,
) -> Comparison:
    """Run both timing tables and the placement ms; return paper vs ours with exponents."""
    ref = reference(NAME)
    p_nodes, p_int = ref["paper"]["nodes"], ref["paper"]["interval"]
    nodes = list(nodes or p_nodes["columns"])
    intervals = list(intervals or p_int["columns"])
    by_nodes = [column(seed, runs, repeats, {"nodes": k}) for k in nodes]
    by_int = [column(seed, runs, repeats, {"interval": k}) for k in intervals]
    place = placement(seed, runs, repeats)
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, {ref['paper_runs']} runs per column",
                     runs, runs)  # fmt: skip
    ours_exp: dict[tuple[str, str], float | None] = {}
    for table, cols, xs, paper_t, x_paper in (
        ("nodes", by_nodes, nodes, p_nodes, p_nodes["columns"]),
        ("interval", by_int, [c["slots"] for c in by_int], p_int, p_int["slots"]["values"]),
    ):
        for a in ALGORITHMS:
            ours = slope(xs, [c[a] for c in cols])
            ours_exp[table, a] = ours
            theirs = slope(x_paper, paper_t[a]["values"])
            cmp.add(f"exponent vs {'nodes' if table == 'nodes' else 'slots'}", "log-log slope", a,
                    theirs, ours)  # fmt: skip
    for a in PLACEMENT:
        cmp.add("placement (2018)", "ms", a, ref["paper"]["placement"][a]["value"], place[a])
    for st in ref["statements"]:
        names = st["algorithm"] if isinstance(st["algorithm"], list) else [st["algorithm"]]
        vals = [ours_exp[st["table"], a] for a in names]
        lo, hi = st["low"], st["high"]
        cmp.check(f"{st['claim']}: exponent in [{lo}, {hi}]",
                  lambda vals=vals, lo=lo, hi=hi: all(lo <= v <= hi for v in vals))  # fmt: skip
    first = by_nodes[-1]
    cmp.check(ref["orderings"][0], lambda: first["csa"] == max(first[a] for a in ALGORITHMS)
              and first["amp"] == min(first[a] for a in ALGORITHMS)
              and max(first["min_proc_time"], first["min_cost"])
              < min(first["min_runtime"], first["min_finish"]))  # fmt: skip
    grow_n = slope(nodes, [c["alternatives"] for c in by_nodes])
    grow_i = slope([c["slots"] for c in by_int], [c["alternatives"] for c in by_int])
    cmp.check(ref["orderings"][1], lambda: 0.7 <= grow_n <= 1.4 and 0.7 <= grow_i <= 1.4)
    cmp.setting("instances", "those of aep-criteria (150 time units at performance 2, price p)")
    cmp.setting("timing", f"median of {repeats} timed searches after one untimed warm-up, "
                "mean over the runs of a column")  # fmt: skip
    for title, cols, xs, paper_t, label in (("ms vs nodes (interval 600)", by_nodes, nodes,
                                             p_nodes, "nodes"),
                                            ("ms vs interval length (100 nodes)", by_int,
                                             intervals, p_int, "interval")):  # fmt: skip
        head = [label, *(str(x) for x in xs)]
        rows: list[list[Any]] = []
        keys = (*(("slots",) if label == "interval" else ()), "alternatives",
                "alternatives_rectangle_cut", "csa_per_alt",
                *ALGORITHMS)  # fmt: skip
        for k in keys:
            vals = paper_t[k]["values"] if k in paper_t else None
            if vals is not None and len(xs) == len(paper_t["columns"]) and list(xs) == list(
                paper_t["columns"]
            ):
                rows.append([f"{k} paper", *vals])
            elif vals is not None:
                got = dict(zip(paper_t["columns"], vals, strict=True))
                rows.append([f"{k} paper", *(got.get(x, "-") for x in xs)])
            rows.append([f"{k} ours", *(c[k] for c in cols)])
        cmp.table(title, head, rows)
    cmp.notes += ref["notes"]
    return cmp
