"""Window placement by DEP / COORD (and Lite) vs MultipleBest, FirstFit: Toporkov & Yemelyanov 2018.

Table 1 of §4.3, on the instances of ``maxq`` (family ``toporkov2018``). For
every algorithm the window's mean distance to the nearest and to the
farthest neighbouring task and its run time. MultipleBest is ``csa`` with
the job's criterion set to ``dep`` (for the nearest distance) and to
``coord`` (for the farthest), as the paper picks a different alternative for
each; its alternatives are valued on the job's own slot list, not on the
list shrunk by earlier alternatives (whose edges would be other
alternatives, not local tasks). The exact column is the CP-SAT optimum over
any integer start (``free_start``): ``dep`` for the near distance, ``coord``
for the far.

Load layout used: ``history-1200``. The nodes ran local jobs before the
interval starts (drawn by the same process on [-1200, 0]); the schedule is
known up to the interval's end, which stays an edge. It is the one layout
measured under which the paper's FirstFit distances and COORD's small ones
both appear (docs/reproductions.md).

Three sensitivity tables measure the readings of
:mod:`validation.study.reproduce.dep_coord_readings` on the same instances:
where the local load sits (random gaps; every node busy at the interval
start; local schedules running ``L`` quanta beyond both edges, ``wide-L``,
or only before the start, ``history-L``) and whether the interval's edges
count as neighbouring tasks; which window FirstFit returns (and so which
alternatives MultipleBest sees); and how the distances are aggregated. A
fourth measures the readings of the domain of §4.1 (:data:`DOMAINS`: node
performance integer or uniform real, no price deviation or a wider one,
the earlier price scale, no budget, a 30% load on every node, and
:data:`LOAD_READINGS`: local jobs longer than Toporkov et al. 2012's, half
the load as advance reservations, load levels spread uniformly) on the
layout used, and real-valued performance on two more layouts.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
import time
from typing import Any

from instances.text import plural
from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce import dep_coord_readings as readings
from validation.study.reproduce.common import (
    SAMPLING_HEAD,
    Comparison,
    citation,
    mean,
    paper,
    reference,
    sampling_rows,
)

NAME = "dep-coord"
ALGORITHMS = ("multiple_best", "first_fit", "dep", "dep_lite", "coord", "coord_lite")
DEFAULT_RUNS = 20
LAYOUTS = {"gaps": "local tasks at random gaps", "busy-start": "every node busy at the start",
           **{f"wide-{w}": f"load on [-{w}, 1200+{w}]" for w in (100, 200, 300, 600)},
           **{f"history-{w}": f"history: load on [-{w}, 1200]"
              for w in (200, 600, 1200)}}  # fmt: skip
FIRST_FIT = {"earliest start, n cheapest (used)": (False, False),
             "first group's first window, n cheapest (FF1)": (True, False),
             "earliest start, first n by start": (False, True),
             "first group's first window, first n by start": (True, True)}  # fmt: skip
READING_LAYOUTS = ("gaps", "busy-start", "history-1200")
USED_LAYOUT = "history-1200"
"""The load layout the paper's distances imply (docs/reproductions.md, ``dep-coord``)."""
LOAD_READINGS: dict[str, dict[str, Any]] = {
    "local jobs 20-206 long (Toporkov et al. 2012's 10-103 scaled by 1200 / 600)": {
        "task_length_min": 20, "task_length_max": 206},
    "local jobs 80-400 long (the job's window range, §4.1)": {
        "task_length_min": 80, "task_length_max": 400},
    "half the load advance reservations 80-400 long, half local jobs 10-103 (§4.1's two kinds)": {
        "reserved": 0.5},
    "half the load reservations 80-400 long of 7 nodes each (co-allocated windows), half local "
    "jobs 10-103": {"reserved": 0.5, "reservation_width": 7},
    "load levels uniform in [0, 30%] instead of hypergeometric (wider spread, same mean)": {
        "uniform_levels": True},
}
"""Readings of "the initial resource load with advanced reservations and local jobs" (Toporkov
& Yemelyanov 2018 §4.1), which gives no task length: how each node's load is cut into tasks,
and the spread of the load levels; shared with ``maxq``."""
BUDGET_LEVELS: dict[str, dict[str, Any]] = {
    f"budget S = {s}, {p}% above the market cost c V n (a level, not a reading)": {"budget": s}
    for s, p in ((676, 5), (708, 10))
}
"""Levels of the budget around S = 644 (the paper's), at the same prices: which numbers move
with how much S binds; shared with ``maxq``."""
DOMAINS: dict[str, dict[str, Any]] = {
    "integer performance, c = 0.115, sigma = 0.15": {},
    "performance uniform real in [2, 10] (the §4.1 wording)": {"performance_values": "real"},
    "no discount/extra charge (sigma = 0; §4.1 names none)": {"price_deviation": 0.0},
    "price spread sigma = 0.20 (prices to +-60%)": {"price_deviation": 0.2},
    "c = 0.08 (earlier price scale)": {"unit_price": 0.08},
    "no budget S (bound)": {"budget": None},
    **BUDGET_LEVELS,
    "30% load on every node ('up to 30% ... for each node' as each level)": {"load_min": 0.3},
    **LOAD_READINGS,
}
"""Readings of the domain of Toporkov & Yemelyanov 2018 §4.1 (node performance, price, budget,
load level, how the load is cut into tasks): family parameters overriding the reference's,
``budget=None``, or a load reading of
:func:`~validation.study.reproduce.dep_coord_readings.reading_instance`."""
USED_DOMAIN, REAL_DOMAIN = list(DOMAINS)[:2]
ORDER_NEAR = ("dep", "dep_lite", "multiple_best", "first_fit", "coord_lite", "coord")
ORDER_FAR = ("coord", "coord_lite", "multiple_best", "first_fit", "dep_lite", "dep")


def _windows(inst: Any) -> dict[str, tuple[Any, Any, float]]:
    """Return algorithm -> (window for the near distance, window for the far, ms)."""
    from planner import search

    job = inst.jobs[0]
    out: dict[str, tuple[Any, Any, float]] = {}
    for name in ALGORITHMS:
        began = time.perf_counter()
        if name == "multiple_best":
            near = search(inst, dataclasses.replace(job, criterion="dep"), "csa")
            ms = 1000 * (time.perf_counter() - began)
            far = search(inst, dataclasses.replace(job, criterion="coord"), "csa")
        else:
            near = far = search(inst, job, name)
            ms = 1000 * (time.perf_counter() - began)
        out[name] = (near, far, ms)
    return out


def best_alternative(found: list[Any], metric: str) -> Any:
    """Return MultipleBest's pick: max near (``dep``) or min far (``coord``); ties: the earlier
    start, then the alternative found first."""
    if not found:
        return None
    sign = -1 if metric == "near_distance" else 1
    return min(enumerate(found), key=lambda iw: (round(sign * getattr(iw[1], metric), 9),
                                                 iw[1].start, iw[0]))[1]  # fmt: skip


def _first_fit_readings(inst: Any, into: dict[str, dict[str, list[float]]]) -> None:
    """Append FirstFit's and MultipleBest's numbers under every :data:`FIRST_FIT` reading."""
    from planner.heuristics.algorithms import build
    from planner.heuristics.feed import Feed

    job = inst.jobs[0]
    for label, (first_level, by_start) in FIRST_FIT.items():
        d = into.setdefault(label, {})
        feed = Feed(inst, job)
        got = readings.first_fit_pick(feed, first_level=first_level, by_start=by_start)
        found = readings.alternatives(inst, job, first_level=first_level, by_start=by_start)
        d.setdefault("missing", []).append(got is None)
        d.setdefault("alternatives", []).append(len(found))
        if got is not None:
            w = build(feed, *got)
            for k, v in (("ff_near", w.near_distance), ("ff_far", w.far_distance),
                         ("ff_start", w.start)):  # fmt: skip
                d.setdefault(k, []).append(v)
        if found:
            d.setdefault("mb_near", []).append(best_alternative(found, "near_distance")
                                               .near_distance)  # fmt: skip
            d.setdefault("mb_far", []).append(best_alternative(found, "far_distance").far_distance)


def measure(seed: int, runs: int, layout: str, *, exact: bool = False,
            with_readings: bool = False,
            params: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """Return mean near/far distances (both edge readings), median ms, exact optima and
    MultipleBest's mean alternative count; with ``with_readings`` also FirstFit's readings and
    the distance definitions. ``params`` is a reading of the domain (a value of
    :data:`DOMAINS`: family parameters overriding the reference's, a budget, or ``budget=None``)."""
    from models import solve_window
    from planner import find_alternatives

    ref = reference(NAME)
    near: dict[str, list[float]] = {a: [] for a in (*ALGORITHMS, "exact")}
    far: dict[str, list[float]] = {a: [] for a in (*ALGORITHMS, "exact")}
    near_free: dict[str, list[float]] = {a: [] for a in ALGORITHMS}
    far_free: dict[str, list[float]] = {a: [] for a in ALGORITHMS}
    start: dict[str, list[float]] = {a: [] for a in ALGORITHMS}
    ms: dict[str, list[float]] = {a: [] for a in ALGORITHMS}
    ff: dict[str, dict[str, list[float]]] = {}
    defs: dict[str, dict[str, list[float]]] = {}
    alternatives: list[float] = []
    for r in track(range(runs), f"{NAME}: runs"):
        inst = readings.reading_instance(ref["family"], ref["params"], instance_seed(seed, r),
                                         {**(params or {}), "layout": layout})  # fmt: skip
        alternatives.append(len(find_alternatives(inst, "amp").windows))
        for name, (wn, wf, t) in _windows(inst).items():
            ms[name].append(t)
            if wn is None or wf is None:
                continue
            near[name].append(wn.near_distance)
            far[name].append(wf.far_distance)
            start[name].append(wn.start)
            fn = readings.edge_free(wn, inst.horizon)[0]
            ff_ = readings.edge_free(wf, inst.horizon)[1]
            if fn is not None and ff_ is not None:
                near_free[name].append(fn)
                far_free[name].append(ff_)
            if with_readings:
                for label, measure_ in readings.DEFINITIONS.items():
                    d = defs.setdefault(label, {})
                    d.setdefault(f"{name} near", []).append(measure_(wn)[0])
                    d.setdefault(f"{name} far", []).append(measure_(wf)[1])
        if with_readings:
            _first_fit_readings(inst, ff)
        if exact:
            job = inst.jobs[0]
            for crit, into in (("dep", near), ("coord", far)):
                res = solve_window(inst, job, crit, free_start=True)
                if res.status == "optimal":
                    into["exact"].append(res.objective)
    agg: dict[str, Any] = {k: {a: mean(v) for a, v in d.items()}
                           for k, d in (("near", near), ("far", far), ("near_free", near_free),
                                        ("far_free", far_free), ("start", start))}  # fmt: skip
    agg["ms"] = {a: statistics.median(v) if v else None for a, v in ms.items()}
    agg["alternatives"] = mean(alternatives)
    agg["first_fit_readings"] = {k: {q: mean(v) if q != "missing" else sum(v)
                                     for q, v in d.items()} for k, d in ff.items()}  # fmt: skip
    agg["definitions"] = {k: {q: mean(v) for q, v in d.items()} for k, d in defs.items()}
    agg["raw"] = {"near": near, "far": far, "alternatives": alternatives}
    return agg


def rel_error(ours: dict[str, float | None], ref: dict[str, Any]) -> float | None:
    """Return the mean |ours - paper| / paper over the paper's twelve distances."""
    errs = []
    for a in ALGORITHMS:
        for q in ("near", "far"):
            p, o = paper(ref, a, f"{q}_distance"), ours.get(f"{a} {q}")
            if p is None or o is None:
                return None
            errs.append(abs(o - p) / p)
    return statistics.fmean(errs)


def orderings(ours: dict[str, float | None]) -> str:
    """Return whether the paper's near / far orderings hold in ``ours`` ("yes/no" pair)."""
    try:
        n_ok = all(ours[f"{a} near"] >= ours[f"{b} near"]  # type: ignore[operator]
                   for a, b in itertools.pairwise(ORDER_NEAR))  # fmt: skip
        f_ok = all(ours[f"{a} far"] <= ours[f"{b} far"]  # type: ignore[operator]
                   for a, b in itertools.pairwise(ORDER_FAR))  # fmt: skip
    except TypeError:
        return "-"
    return f"{'yes' if n_ok else 'no'}/{'yes' if f_ok else 'no'}"


def _twelve(res: dict[str, Any], kn: str = "near", kf: str = "far") -> dict[str, float | None]:
    return {**{f"{a} near": res[kn][a] for a in ALGORITHMS},
            **{f"{a} far": res[kf][a] for a in ALGORITHMS}}  # fmt: skip


def run(seed: int = 0, runs: int = DEFAULT_RUNS) -> Comparison:
    """Run the experiment and return paper vs ours, with the three sensitivity tables."""
    ref = reference(NAME)
    results = {k: measure(seed, runs, k, exact=k == USED_LAYOUT,
                          with_readings=k in READING_LAYOUTS) for k in LAYOUTS}  # fmt: skip
    domains = {(USED_LAYOUT, k): measure(seed, runs, USED_LAYOUT, params=v,
                                         with_readings=k == REAL_DOMAIN)
               for k, v in DOMAINS.items() if k != USED_DOMAIN}  # fmt: skip
    domains[USED_LAYOUT, USED_DOMAIN] = results[USED_LAYOUT]
    for layout in ("gaps", "busy-start"):
        domains[layout, USED_DOMAIN] = results[layout]
        domains[layout, REAL_DOMAIN] = measure(seed, runs, layout, params=DOMAINS[REAL_DOMAIN])
    m = results[USED_LAYOUT]
    n, f = m["near"], m["far"]
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, {ref['paper_runs']} runs", runs, runs)
    for name in ALGORITHMS:
        cmp.add("nearest", "near_distance", name, paper(ref, name, "near_distance"), n[name],
                n["exact"] if name == "dep" else None)  # fmt: skip
    for name in ALGORITHMS:
        cmp.add("farthest", "far_distance", name, paper(ref, name, "far_distance"), f[name],
                f["exact"] if name == "coord" else None)  # fmt: skip
    for name in ALGORITHMS:
        cmp.add("time", "median ms", name, paper(ref, name, "ms"), m["ms"][name])
    held = {"yes": True, "no": False}  # "-" (a missing distance): KeyError, i.e. n/a
    cmp.check(ref["orderings"][0], lambda: held[orderings(_twelve(m)).split("/")[0]])
    cmp.check(ref["orderings"][1], lambda: held[orderings(_twelve(m)).split("/")[-1]])
    for k, v in ref["settings"].items():
        cmp.setting(k, v)
    cols = ("first_fit", "multiple_best", "dep", "dep_lite", "coord", "coord_lite")
    short = {"first_fit": "FF", "multiple_best": "MB", "dep": "DEP", "dep_lite": "DEP Lite",
             "coord": "COORD", "coord_lite": "COORD Lite"}  # fmt: skip
    twelve = [f"{a} {q}" for a in cols for q in ("near", "far")]
    head = ["layout / interval edges", *(f"{short[a]} {q}" for a in cols for q in ("near", "far")),
            "FF start", "mean rel. error", "orderings near/far"]  # fmt: skip
    pap = {k: paper(ref, k.split()[0], f"{k.split()[1]}_distance") for k in twelve}
    rows: list[list[Any]] = [["paper", *(pap[k] for k in twelve), "-", "-", "yes/yes"]]
    for layout, res in results.items():
        edges = [("count", "near", "far")]
        if layout in ("gaps", "busy-start"):
            edges.append(("no task", "near_free", "far_free"))
        for label, kn, kf in edges:
            ours = _twelve(res, kn, kf)
            used = " (used)" if layout == USED_LAYOUT else ""
            rows.append([f"{LAYOUTS[layout]}{used} / edges {label}", *(ours[k] for k in twelve),
                         res["start"]["first_fit"], rel_error(ours, ref), orderings(ours)])
    cmp.table("distances by load layout and by whether the interval edges are neighbours "
              "('no task' re-measures the same windows); mean rel. error over the twelve",
              head, rows)  # fmt: skip
    head = ["layout / FirstFit reading", "FF near", "FF far", "FF start", "runs without FF",
            "MB near", "MB far", "MB alternatives", "mean rel. error", "orderings near/far"]
    rows = [["paper", pap["first_fit near"], pap["first_fit far"], "-", "-",
             pap["multiple_best near"], pap["multiple_best far"],
             paper(ref, "multiple_best", "alternatives"), "-", "yes/yes"]]  # fmt: skip
    ff_rows = [(LAYOUTS[k], results[k]) for k in READING_LAYOUTS]
    ff_rows.append((f"{LAYOUTS[USED_LAYOUT]}, real performance", domains[USED_LAYOUT, REAL_DOMAIN]))
    for where, res in ff_rows:
        for label, d in res["first_fit_readings"].items():
            ours = {**_twelve(res), "first_fit near": d.get("ff_near"),
                    "first_fit far": d.get("ff_far"), "multiple_best near": d.get("mb_near"),
                    "multiple_best far": d.get("mb_far")}  # fmt: skip
            rows.append([f"{where} / {label}", d.get("ff_near"), d.get("ff_far"),
                         d.get("ff_start"), str(d["missing"]), d.get("mb_near"), d.get("mb_far"),
                         d["alternatives"], rel_error(ours, ref), orderings(ours)])  # fmt: skip
    cmp.table("FirstFit read as which window of the §3.2 loop (MultipleBest's alternatives "
              "found by the same FirstFit; DEP, COORD and the Lite forms as in the layout row)",
              head, rows)  # fmt: skip
    head = ["layout / domain reading", *head_twelve(short, cols), "FF start", "MB alternatives",
            "mean rel. error", "orderings near/far"]  # fmt: skip
    rows = [["paper", *(pap[k] for k in twelve), "-", paper(ref, "multiple_best", "alternatives"),
             "-", "yes/yes"]]  # fmt: skip
    order = [(USED_LAYOUT, k) for k in DOMAINS] + [(lay, k) for lay in ("gaps", "busy-start")
                                                   for k in (USED_DOMAIN, REAL_DOMAIN)]
    for layout, label in order:
        res = domains[layout, label]
        ours = _twelve(res)
        used = " (used)" if (layout, label) == (USED_LAYOUT, USED_DOMAIN) else ""
        rows.append([f"{LAYOUTS[layout]} / {label}{used}", *(ours[k] for k in twelve),
                     res["start"]["first_fit"], res["alternatives"], rel_error(ours, ref),
                     orderings(ours)])  # fmt: skip
    cmp.table("distances under each reading of the domain of §4.1: node performance integer "
              "or uniform real, the price's spread and scale, the budget, the load level, how "
              "the load is cut into local jobs and advance reservations (edges count)",
              head, rows)  # fmt: skip
    head = ["layout / distance definition", *head_twelve(short, cols), "mean rel. error",
            "orderings near/far"]  # fmt: skip
    rows = []
    for layout in ("gaps", "history-1200"):
        for label, d in results[layout]["definitions"].items():
            rows.append([f"{LAYOUTS[layout]} / {label}", *(d.get(k) for k in twelve),
                         rel_error(d, ref), orderings(d)])  # fmt: skip
    cmp.table("the same windows measured by each reading of 'distance to the nearest / "
              "farthest neighbouring task'", head, rows)  # fmt: skip
    raw = m["raw"]
    items = [(f"{a} {q}", paper(ref, a, f"{q}_distance"), raw[q][a])
             for q in ("near", "far") for a in ALGORITHMS]
    items.append(("multiple_best alternatives", paper(ref, "multiple_best", "alternatives"),
                  raw["alternatives"]))  # fmt: skip
    cmp.table(f"sampling: mean and standard error over the {plural(runs, 'run')} of the layout "
              "used",
              SAMPLING_HEAD, sampling_rows(items))  # fmt: skip
    cmp.notes += ref["notes"]
    return cmp


def head_twelve(short: dict[str, str], cols: tuple[str, ...]) -> list[str]:
    """Return the twelve distance column names in ``cols`` order."""
    return [f"{short[a]} {q}" for a in cols for q in ("near", "far")]
