"""ALP vs AMP alternatives, then batch time (TM) and cost (CM) minimisation (Toporkov et al. 2011).

Per run a slot list and a batch of 3–7 jobs (family ``toporkov2011``); the
alternatives search runs with ALP and with AMP; runs where some job has no
alternative under either are dropped (the paper's filter). TM is
combination problem (7) (min Σ runtime, Σ cost ≤ b*), CM problem (8) (min
Σ cost, Σ runtime ≤ t*), both with the default limits of
``docs/reproductions.md``, solved exactly by the DP. Reported per job:
runtime and cost of the chosen alternatives and the number of alternatives
found; costs are divided by the family's ``money_unit`` (100) to be in the
paper's unit. No exact column: the paper's quantities are choices among
alternatives, which the combination DP already optimises exactly.

Open setting: the job's price cap C (ALP's only constraint, and AMP's
budget S = C·t·N). The paper ties C to the minimum performance P ("by
setting the maximum cost C and the minimum performance P the user
specifies the minimum acceptable price/quality", §6), so the default
reading is C = 1.7^P, the market price of a node of performance P; the
sensitivity table repeats the claims under the other readings. In S = C·t·N
the request's t is the span at the job's minimum performance P, ceil(V / P)
(§3's condition 2°b scales t by P / P(s_j)); the other readings of t, of the
numbers' types, the combination limits and the average follow
(:mod:`validation.study.reproduce.amp_vs_alp_readings`).
"""

from __future__ import annotations

from typing import Any

from instances.text import plural
from validation.study.reproduce.amp_vs_alp_measure import (
    DEFAULT_PARAMS,
    DEFAULT_READING,
    NAME,
    PROBLEMS,
    READINGS,
    SPANS,
    measure,
)
from validation.study.reproduce.amp_vs_alp_readings import add_tables
from validation.study.reproduce.common import Comparison, citation, paper, reference

__all__ = ["DEFAULT_PARAMS", "DEFAULT_READING", "DEFAULT_RUNS", "NAME", "READINGS", "SPANS",
           "measure", "run"]

DEFAULT_RUNS = 1000
SAMPLING = 5
"""The sensitivity tables run on 1/SAMPLING of the main table's runs (the first ones)."""
CAP_LEVELS = {0.97: "C = 0.97 x 1.7^P (a level of C, not a reading)",
              1.03: "C = 1.03 x 1.7^P (a level of C, not a reading)",
              1.06: "C = 1.06 x 1.7^P (a level of C, not a reading)"}
"""Levels of C around the reading used (``cap_factor``), to show which numbers move with C."""


def _excess(ours: float | None, exact: float | None) -> str:
    return "-" if ours is None or not exact else f"{100 * (ours / exact - 1):+.1f}%"


def _ratio(avg: dict[tuple[str, str, str], Any]) -> float | None:
    amp, alp = avg["TM", "amp", "alternatives_per_job"], avg["TM", "alp", "alternatives_per_job"]
    return None if amp is None or not alp else amp / alp


def run(seed: int = 0, runs: int = DEFAULT_RUNS) -> Comparison:
    """Run the experiment and return paper vs ours, with the sensitivity to the readings.

    The main table is measured on ``runs`` cycles, each sensitivity table on
    the first ``runs // SAMPLING`` (their rows compare readings on the same
    cycles); a last table gives both samples' standard errors.
    """
    from validation.study.reproduce.cuts import CUTS

    ref = reference(NAME)
    small = max(1, runs // SAMPLING)
    results = {r: measure(seed, small, r) for r in READINGS}
    levels = {k: measure(seed, small, DEFAULT_READING, cap_factor=k) for k in CAP_LEVELS}
    by_cut = {c: measure(seed, small, DEFAULT_READING, c) for c in CUTS if c != "task"}
    avg, kept = main = measure(seed, runs, DEFAULT_READING)
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, "
                     f"{ref['paper_runs']['TM']} (TM) and {ref['paper_runs']['CM']} (CM) runs",
                     runs, kept)  # fmt: skip
    for p in PROBLEMS:
        for q in ("time", "cost", "alternatives_per_job"):
            for a in ("alp", "amp"):
                cmp.add(p, q, a, paper(ref, p, a, q), avg[p, a, q])
    for q in ("jobs_per_cycle", "slots_per_cycle"):
        cmp.add("CM", q, "kept runs", paper(ref, "CM", "kept", q), avg["CM", "kept", q])
    tm = "TM", "amp", "alternatives_per_job"
    ratio_paper = paper(ref, *tm) / paper(ref, "TM", "alp", "alternatives_per_job")  # type: ignore[operator]
    cmp.check(ref["orderings"][0], lambda: avg["TM", "amp", "time"] < avg["TM", "alp", "time"]
              and avg["TM", "amp", "cost"] > avg["TM", "alp", "cost"])  # fmt: skip
    cmp.check(ref["orderings"][1], lambda: avg["CM", "alp", "cost"] < avg["CM", "amp", "cost"]
              and avg["CM", "amp", "time"] < avg["CM", "alp", "time"])  # fmt: skip
    cmp.check(ref["orderings"][2], lambda: avg[tm] > avg["TM", "alp", "alternatives_per_job"])
    cmp.setting("ALP's price cap C (and AMP's S = C t N)", READINGS[DEFAULT_READING])
    cmp.setting("the request's time span t (AMP's S = C t N)", SPANS["min_performance"])
    cmp.setting("slot prices and C", "real per time unit (2 decimals); Toporkov et al. 2011 §3 "
                "prints an int cash, measured below")  # fmt: skip
    cmp.setting("combination limits b*, t*", "b* = sum of mean alternative cost, t* = sum of "
                "ceil(mean alternative runtime) (docs/reproductions.md)")  # fmt: skip
    cmp.setting("one node per slot", "the paper generates a slot list, not nodes")
    head = ["reading of C", "kept", "jobs/kept run", "ALP alts/job", "AMP alts/job", "AMP/ALP",
            "TM time ALP", "TM time AMP", "TM cost ALP", "TM cost AMP"]  # fmt: skip
    rows: list[list[Any]] = [["paper", "-", paper(ref, "CM", "kept", "jobs_per_cycle"),
                              paper(ref, "TM", "alp", "alternatives_per_job"),
                              paper(ref, *tm), ratio_paper, paper(ref, "TM", "alp", "time"),
                              paper(ref, "TM", "amp", "time"), paper(ref, "TM", "alp", "cost"),
                              paper(ref, "TM", "amp", "cost")]]  # fmt: skip
    labels = {**READINGS, **CAP_LEVELS}
    for reading, (a, k) in {**results, **levels}.items():
        rows.append([labels[reading], str(k), a["CM", "kept", "jobs_per_cycle"],
                     a["TM", "alp", "alternatives_per_job"], a[tm],
                     _ratio(a), a["TM", "alp", "time"], a["TM", "amp", "time"],
                     a["TM", "alp", "cost"], a["TM", "amp", "cost"]])  # fmt: skip
    cmp.table("the claims under each reading of the price cap C, and at levels of C around the "
              "one used", head, rows)  # fmt: skip
    rows = [rows[0]] + [
        [CUTS[c], str(k), a["CM", "kept", "jobs_per_cycle"], a["TM", "alp", "alternatives_per_job"],
         a[tm], _ratio(a), a["TM", "alp", "time"], a["TM", "amp", "time"], a["TM", "alp", "cost"],
         a["TM", "amp", "cost"]]
        for c, (a, k) in {"task": results[DEFAULT_READING], **by_cut}.items()
    ]  # fmt: skip
    cmp.table(f"the claims under each reading of how a window is cut from the slot list "
              f"({READINGS[DEFAULT_READING]})", ["cut", *head[1:]], rows)  # fmt: skip
    add_tables(cmp, ref, seed, small, results[DEFAULT_READING], main)
    cmp.table(f"whole time quanta: the chosen windows of the main table "
              f"({plural(runs, 'run')}) costed with each task lasting exactly V/p instead of "
              "ceil(V/p) quanta",
              ["problem", "algorithm", "paper", "ours", "same windows, exact V/p",
               "whole quanta add"],
              [[p, a, paper(ref, p, a, "cost"), avg[p, a, "cost"], avg[p, a, "cost_exact"],
                _excess(avg[p, a, "cost"], avg[p, a, "cost_exact"])]
               for p in PROBLEMS for a in ("alp", "amp")])  # fmt: skip
    cmp.notes += ref["notes"]
    return cmp
