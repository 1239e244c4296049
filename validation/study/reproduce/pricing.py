"""Toporkov et al. 2015 §6.4, Table 2 and Fig. 8: one resource owner's price against its profit.

Each cycle draws a ``css2015`` batch at the family's load (10–50% per node,
the paper's §6.1 range); node ``n1`` is given performance 6 and the price c
per quantum, c in 2, 4, 6, 8, 10, the rest of the cycle unchanged (the same
cycles for every c). The batch-slicer with k = 5 (the paper's best k at
medium load, §6.3; Table 2 does not give k) and problem (7) schedules the
batch. Per c: the node's VO load L (reserved task time), U = L / T, its
income P and the failure rate Y. The evidence for the settings is in
``validation/data/pricing.json`` and docs/vo-flows.md.
"""

from __future__ import annotations

import dataclasses
from itertools import pairwise
from typing import Any

from validation.study.reproduce.common import Comparison, citation, paper, reference
from validation.study.reproduce.vo_common import Tally, affordable, close, run_cycles

NAME = "pricing"
DEFAULT_RUNS = 5000
PRICES = (2, 4, 6, 8, 10)
PERFORMANCE = 6.0
K = 5


def cycles(lo: int, hi: int, *, seed: int, prices: tuple[int, ...]) -> Tally:
    """Schedule cycles ``lo..hi-1`` once per price of node n1; tally its L, U, P and Y."""
    from instances import generate
    from models.combination import VoPolicy
    from planner.vo import BatchSlicer, cycle_seed, node_usage, schedule_cycle

    tally = Tally()
    combine = VoPolicy(7)
    for c in range(lo, hi):
        base = generate("css2015", cycle_seed(seed, c))
        for price in prices:
            first = dataclasses.replace(base.nodes[0], performance=PERFORMANCE, price=float(price))
            inst = dataclasses.replace(base, nodes=(first, *base.nodes[1:]))
            out = schedule_cycle(BatchSlicer(K), combine, inst, seed=cycle_seed(seed, c, 1))
            res = out.reservations
            usage = node_usage(inst, res)[0]
            key = str(price)
            tally.add((key, "L"), usage.load)
            tally.add((key, "U"), usage.utilisation)
            tally.add((key, "P"), usage.profit)
            tally.add((key, "Y"), float(len(res) < len(inst.jobs)))
            able = affordable(inst)
            tally.add((key, "Y_affordable"), float(bool(able - {w.job for w in res})))
            tally.add((key, "Y_jobs"), 1 - len(res) / len(inst.jobs))
    return tally


def run(seed: int = 0, runs: int = DEFAULT_RUNS, executor: Any = None,
        workers: int | None = None) -> Comparison:  # fmt: skip
    """Run ``runs`` cycles per price and return paper vs ours."""
    ref = reference(NAME)
    try:
        t = run_cycles(cycles, runs, executor=executor, workers=workers, seed=seed, prices=PRICES)
    finally:
        close(executor)
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, "
                     f"{ref['paper_runs']} cycles", runs, runs)  # fmt: skip
    for price in map(str, PRICES):
        for q in ("L", "U", "P", "Y"):
            cmp.add(f"c = {price}", q, "slicer k=5", paper(ref, price, q), t.mean(price, q))
        for q in ("Y_affordable", "Y_jobs"):
            cmp.add(f"c = {price}", q, "slicer k=5", None, t.mean(price, q))
    keys = list(map(str, PRICES))

    def series(q: str) -> list[float]:
        return [t.mean(p, q) or 0.0 for p in keys]

    load, util, profit = series("L"), series("U"), series("P")
    falls = all(a > b for a, b in pairwise(load)) and all(a > b for a, b in pairwise(util))
    cmp.check(f"a higher price: less L and U (ours L: {', '.join(f'{v:.1f}' for v in load)})",
              lambda: falls)  # fmt: skip
    peak = PRICES[profit.index(max(profit))]
    cmp.check(f"P peaks at c = 6 (ours: at c = {peak})", lambda: peak == 6)
    for q in ("Y", "Y_jobs"):
        ys = series(q)
        cmp.check(f"a higher price: more failures, {q} (ours: "
                  f"{', '.join(f'{v:.3f}' for v in ys)})", lambda y=ys: y[-1] > y[0])  # fmt: skip
    cmp.notes += ref["notes"]
    cmp.notes.append("Family css2015 defaults, node n1 with performance 6 and price c; slicer "
                     "k = 5, problem (7); Y_affordable counts only jobs whose budget covers their "
                     "n cheapest tasks, a set that grows as n1 gets cheaper, so it is not compared "
                     "across prices; Y_jobs is (docs/vo-flows.md).")  # fmt: skip
    return cmp
