"""Square windows maximising Q: MaxQ, Lite, MultipleBest, FirstFit (Toporkov & Yemelyanov 2018).

§4.2, Fig. 3: square windows (7 nodes, V = 800, S = 644, q in [0, 10]) on 100
loaded nodes per run (family ``toporkov2018``). MultipleBest is ``csa`` (the
best of the disjoint FirstFit alternatives by the job's criterion,
``max_q``), its alternatives valued on the job's own slot list. The exact
column is the CP-SAT optimum of ``max_q``.

Open setting: the price per quantum, "proportional to performance" with no
scale given. The budget reads as the window's cost at the market price,
S = c · V · n (as in Toporkov et al. 2012, where S = 1500 = 2 · 150 · 5), so
c = 644 / (800 · 7) = 0.115. The sensitivity table shows the claims, and
the number of alternatives MultipleBest sees, at the earlier 0.08, under
other spreads of the price's random discount/extra charge, under the load
layouts of ``dep-coord`` and without the budget (a bound: the alternatives
that the load alone allows). Load layout: that of ``dep-coord`` (local jobs
before the interval too, ``history-1200``), the same instances.

Node performance: integers 2-10 (Toporkov et al. 2012 §3.1, the same
simulator). §4.1 says only "a uniformly distributed random value in the
interval [2, 10]"; the uniform real reading is a row of the table: with
every node its own performance level, a square window joins the node of
its level with six faster, dearer ones, so fewer windows fit S and
MultipleBest sees fewer alternatives (docs/reproductions.md). q: integers 0-10
("an independent value q_i in [0; 10]", drawn as the same simulator draws
node performance); real q is a row.
"""

from __future__ import annotations

from typing import Any

from instances.text import plural
from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce.common import (
    SAMPLING_HEAD,
    Comparison,
    citation,
    mean,
    paper,
    reference,
    sampling_rows,
)
from validation.study.reproduce.dep_coord import BUDGET_LEVELS, LOAD_READINGS

NAME = "maxq"
ALGORITHMS = ("max_q", "max_q_lite", "multiple_best", "first_fit")
DEFAULT_RUNS = 30
USED = ("integer performance and q, c = S / (V n) = 0.115, history: load on [-1200, 1200] "
        "(used)")
REAL = "performance uniform real in [2, 10] (the §4.1 wording)"
READINGS: dict[str, dict[str, Any]] = {
    USED: {"layout": "history-1200"},
    "q real in [0, 10] (2 decimals; the earlier reading)": {"q_values": "real",
                                                          "layout": "history-1200"},
    REAL: {"performance_values": "real", "layout": "history-1200"},
    "real performance, price spread sigma = 0.20": {"performance_values": "real",
                                                    "price_deviation": 0.2,
                                                    "layout": "history-1200"},
    "real performance, no budget S (bound)": {"performance_values": "real", "budget": None,
                                              "layout": "history-1200"},
    "c = 0.08 (earlier)": {"unit_price": 0.08, "layout": "history-1200"},
    "no discount/extra charge (sigma = 0; §4.1 names none)": {"price_deviation": 0.0,
                                                              "layout": "history-1200"},
    "price spread sigma = 0.10": {"price_deviation": 0.1, "layout": "history-1200"},
    "price spread sigma = 0.20 (prices to +-60%)": {"price_deviation": 0.2,
                                                    "layout": "history-1200"},
    "local tasks at random gaps (earlier layout)": {},
    "every node busy at the start": {"layout": "busy-start"},
    "load on [-200, 1200+200]": {"layout": "wide-200"},
    "30% load on every node ('up to 30% ... for each node' as each level)": {
        "load_min": 0.3, "layout": "history-1200"},
    "no budget S (bound)": {"budget": None, "layout": "history-1200"},
    **{k: {**v, "layout": "history-1200"} for k, v in BUDGET_LEVELS.items()},
    **{k: {**v, "layout": "history-1200"} for k, v in LOAD_READINGS.items()},
}
"""Readings of the open settings: family parameters (node performance integer or real, price
scale and spread, load level, local task lengths), a ``dep-coord`` load layout or load reading
(``dep_coord.LOAD_READINGS``), or no budget
(:func:`~validation.study.reproduce.dep_coord_readings.reading_instance`)."""


def measure(seed: int, runs: int, reading: dict[str, Any] | None = None, *,
            exact: bool = False) -> dict[str, Any]:  # fmt: skip
    """Return mean Q per algorithm (and ``exact``), and MultipleBest's mean alternative count,
    cost, length and number of nodes at the window's own performance level (its slowest)
    under ``reading`` (a value of :data:`READINGS`)."""
    from models import solve_window
    from planner import find_alternatives, search
    from validation.study.reproduce.dep_coord_readings import reading_instance

    ref = reference(NAME)
    q: dict[str, list[float]] = {a: [] for a in (*ALGORITHMS, "exact")}
    alternatives: list[float] = []
    cost: list[float] = []
    length: list[float] = []
    at_level: list[float] = []
    for r in track(range(runs), f"{NAME}: runs"):
        inst = reading_instance(ref["family"], ref["params"], instance_seed(seed, r), reading)
        job = inst.jobs[0]
        for name in ALGORITHMS:
            w = search(inst, job, "csa" if name == "multiple_best" else name)
            if w is not None:
                q[name].append(w.q)
        found = find_alternatives(inst, "amp").windows
        alternatives.append(len(found))
        cost += [w.cost for w in found]
        length += [w.placements[0].duration for w in found]
        perf = {n.id: n.performance for n in inst.nodes}
        for w in found:
            ps = [perf[p.node] for p in w.placements]
            at_level.append(sum(p == min(ps) for p in ps))
        if exact:
            res = solve_window(inst, job, "max_q")
            if res.status == "optimal":
                q["exact"].append(res.objective)
    out: dict[str, Any] = {a: mean(v) for a, v in q.items()}
    out["alternatives"] = mean(alternatives)
    out["alternative cost"] = mean(cost)
    out["alternative length"] = mean(length)
    out["alternative nodes at its level"] = mean(at_level)
    out["raw"] = {**q, "alternatives": alternatives}
    return out


def run(seed: int = 0, runs: int = DEFAULT_RUNS) -> Comparison:
    """Run the experiment and return paper vs ours, with the sensitivity to the price scale."""
    ref = reference(NAME)
    results = {k: measure(seed, runs, v, exact=k == USED) for k, v in READINGS.items()}
    avg = results[USED]
    cmp = Comparison(NAME, ref["title"], citation(ref), runs, runs)
    for name in ALGORITHMS:
        exact = avg["exact"] if name == "max_q" else None
        cmp.add("Q", "q", name, paper(ref, name, "q"), avg[name], exact)
    cmp.add("alternatives", "per run", "multiple_best", paper(ref, "multiple_best", "alternatives"),
            avg["alternatives"])  # fmt: skip
    cmp.check(ref["orderings"][0], lambda: avg["max_q"] >= avg["max_q_lite"]
              > avg["multiple_best"] > avg["first_fit"])  # fmt: skip
    top = paper(ref, "max_q", "q")
    cmp.check(ref["orderings"][1], lambda: 0.15 <= 1 - avg["max_q_lite"] / avg["max_q"] <= 0.2
              and 0.15 <= 1 - avg["multiple_best"] / avg["max_q"] <= 0.2)  # fmt: skip
    for k, v in ref["settings"].items():
        cmp.setting(k, v)
    head = ["reading", "MaxQ", "MaxQ Lite", "MultipleBest", "FirstFit", "alternatives",
            "alternative cost", "alternative length", "alternative nodes at its level"]
    rows: list[list[Any]] = [["paper", top, "> 49.4 (Fig. 3)", "< MaxQ Lite",
                              paper(ref, "first_fit", "q"),
                              paper(ref, "multiple_best", "alternatives"), "<= 644", "80-400",
                              "-"]]
    cols = (*ALGORITHMS, "alternatives", "alternative cost", "alternative length",
            "alternative nodes at its level")
    rows += [[k, *(v[a] for a in cols)] for k, v in results.items()]
    cmp.table("the claims and MultipleBest's alternatives under each reading of the node "
              "performance, the price scale and spread, the load, its layout and how it is cut "
              "into local jobs and advance reservations, and the budget",
              head, rows)  # fmt: skip
    raw = avg["raw"]
    cmp.table(f"sampling: mean and standard error over the {plural(runs, 'run')} of the reading "
              "used",
              SAMPLING_HEAD, sampling_rows(
                  [(f"{a} q", paper(ref, a, "q"), raw[a]) for a in ALGORITHMS
                   if paper(ref, a, "q") is not None]
                  + [("multiple_best alternatives", paper(ref, "multiple_best", "alternatives"),
                      raw["alternatives"])]))  # fmt: skip
    cmp.notes += ref["notes"]
    return cmp
