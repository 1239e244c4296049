"""AEP strategies (minFinish, minCost, minRuntime, minProcTime), AMP, CSA: Toporkov et al. 2012.

One job (n = 5, S = 1500) on 100 loaded nodes per run (family
``toporkov2012``). Each algorithm's window gives start, runtime, finish, CPU
time (proc_time) and cost; CSA takes the disjoint AMP alternatives and, per
criterion, the alternative with the best value (Toporkov et al. 2012, §3.1
item 6). The exact column is the CP-SAT optimum of each quantity's own
criterion.

Open settings, read from the paper's own numbers (``docs/reproductions.md``):

- the job's length: "5 parallel slots for a 150 units of time" on nodes of
  performance 2–10. As etalon volume (V = 150) the longest task would last
  75, yet minCost's window lasts 307.7 − 193 = 114.7, and minFinish's start
  at 0 is argued from a fastest runtime above 34.4 − 10 = 24.4 (V = 150
  gives 15). 150 time units on the slowest node (V = 300) gives tasks of
  30–150 and satisfies both;
- the price per quantum: "proportionally to their performance" with a
  normal deviation. With price p·c and V = 300 every task costs about 300·c,
  and S = 1500 is exactly Toporkov et al. 2011's S = C·t·N for t = 150, N = 5 and C = 2,
  the price of the slowest node at c = 1. So c = 1; the deviation's σ
  (0.15) is unstated, and the sensitivity table varies it;
- whole prices: the price per time unit is an integer, as in the slot class
  of the same authors' simulator (``public int cash; // usage cost per time
  unit``, Toporkov et al. 2011 §3). Prices to the cent are a row of the
  table;
- the performance draw is "a random integer variable in the interval
  [2; 10]" (stated); real-valued performance, as Toporkov et al. 2015 §5 and
  Toporkov & Yemelyanov 2018 §4.1 word it, is a row of the table.
"""

from __future__ import annotations

from typing import Any

from instances.text import plural
from validation.study.reproduce.aep_criteria_measure import (
    ALGORITHMS,
    DEFAULT_READING,
    METRICS,
    NAME,
    READINGS,
    measure,
)
from validation.study.reproduce.aep_criteria_readings import add_tables
from validation.study.reproduce.common import (
    SAMPLING_HEAD,
    Comparison,
    citation,
    paper,
    reference,
    sampling_rows,
)

__all__ = ["ALGORITHMS", "DEFAULT_READING", "DEFAULT_RUNS", "METRICS", "NAME", "READINGS",
           "measure", "run"]

DEFAULT_RUNS = 60
FAST = (("min_runtime", "runtime"), ("min_runtime", "proc_time"), ("min_finish", "finish"),
        ("min_finish", "proc_time"), ("min_proc_time", "runtime"),
        ("min_proc_time", "proc_time"), ("csa", "runtime"), ("csa", "proc_time"),
        ("min_runtime", "start"))  # fmt: skip
"""The fast windows' columns, whose gap to the paper the performance reading moves."""


def _claims(a: dict[str, dict[str, Any]]) -> list[Any]:
    cost_run = a["min_cost"]
    span = None if cost_run["finish"] is None else cost_run["finish"] - cost_run["start"]
    return [a["min_runtime"]["runtime"], a["min_finish"]["finish"], span, a["min_cost"]["cost"],
            a["amp"]["cost"], a["min_runtime"]["cost"], a["min_cost"]["start"],
            a["csa"]["alternatives"]]  # fmt: skip


def run(seed: int = 0, runs: int = DEFAULT_RUNS) -> Comparison:
    """Run the experiment and return paper vs ours, with the sensitivity to the open settings."""
    ref = reference(NAME)
    results = {k: measure(seed, runs, p, exact=k == DEFAULT_READING) for k, p in READINGS.items()}
    avg = results[DEFAULT_READING]
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, "
                     f"{ref['paper_runs']} runs", runs, runs)  # fmt: skip
    for m, crit in METRICS.items():
        serving = "amp" if crit == "min_start" else crit
        for name in (*ALGORITHMS, "csa"):
            exact = avg["exact"][m] if name == serving else None
            cmp.add(m, m, name, paper(ref, name, m), avg[name][m], exact)
    cmp.add("alternatives", "per run", "csa", paper(ref, "csa", "alternatives"),
            avg["csa"]["alternatives"])  # fmt: skip
    a = avg
    cmp.check(ref["orderings"][0], lambda: a["min_runtime"]["runtime"] <= a["min_finish"]["runtime"]
              <= min(a["min_proc_time"]["runtime"], a["csa"]["runtime"]))  # fmt: skip
    cmp.check(ref["orderings"][1], lambda: a["min_finish"]["finish"] < a["csa"]["finish"]
              < a["min_cost"]["finish"])  # fmt: skip
    cmp.check(ref["orderings"][2], lambda: a["min_cost"]["cost"]
              < min(a["csa"]["cost"], a["min_runtime"]["cost"]))  # fmt: skip
    cmp.check(ref["orderings"][3], lambda: a["min_runtime"]["proc_time"]
              <= a["min_finish"]["proc_time"] <= a["csa"]["proc_time"]
              <= a["min_proc_time"]["proc_time"])  # fmt: skip
    cmp.check(ref["orderings"][4], lambda: a["amp"]["start"] == a["min_finish"]["start"]
              == a["csa"]["start"] == 0 < a["min_runtime"]["start"] < a["min_cost"]["start"]
              < a["min_proc_time"]["start"])  # fmt: skip
    for k, v in ref["settings"].items():
        cmp.setting(k, v)
    head = ["reading", "minRuntime runtime", "minFinish finish", "minCost finish-start",
            "minCost cost", "AMP cost", "minRuntime cost", "minCost start", "CSA alternatives"]
    span = paper(ref, "min_cost", "finish") - paper(ref, "min_cost", "start")  # type: ignore[operator]
    rows: list[list[Any]] = [["paper", paper(ref, "min_runtime", "runtime"),
                              paper(ref, "min_finish", "finish"), span,
                              paper(ref, "min_cost", "cost"), paper(ref, "amp", "cost"),
                              paper(ref, "min_runtime", "cost"), paper(ref, "min_cost", "start"),
                              paper(ref, "csa", "alternatives")]]  # fmt: skip
    rows += [[k, *_claims(v)] for k, v in results.items()]
    cmp.table("the claims under each reading of job length, price and performance", head, rows)
    raw = avg["raw"]
    cmp.table(f"sampling: mean and standard error over the {plural(runs, 'run')} of the reading "
              "used",
              SAMPLING_HEAD, sampling_rows(
                  (f"{a} {m}", paper(ref, a, m), raw[a, m])
                  for a in (*ALGORITHMS, "csa") for m in (*METRICS, "alternatives")
                  if (a, m) in raw and paper(ref, a, m) is not None))  # fmt: skip
    rows = [["paper", *(paper(ref, a, m) for a, m in FAST)]]
    rows += [[k, *(v[a][m] for a, m in FAST)] for k, v in results.items()]
    cmp.table("the fast windows under each reading (same runs)",
              ["reading", *(f"{a} {m}" for a, m in FAST)], rows)  # fmt: skip
    add_tables(cmp, ref, seed, runs, READINGS[DEFAULT_READING])
    cmp.notes += ref["notes"]
    return cmp
