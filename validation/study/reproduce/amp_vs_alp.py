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

from planner.progress import track
from validation.study.reproduce.common import (
    Comparison,
    citation,
    mean,
    paper,
    reference,
    standard_error,
)
from validation.study.spec import instance_seed

NAME = "amp-vs-alp"
DEFAULT_RUNS = 1000
SAMPLING = 5
"""The sensitivity tables run on 1/SAMPLING of the main table's runs (the first ones)."""
PROBLEMS = {"TM": 7, "CM": 8}
READINGS = {
    "min_performance": "C = 1.7^P (market price at the job's minimum performance P)",
    "dearest": "C = 1.25 x 1.7^P (dearest price a node of performance P may ask)",
    "uniform": "C = 1.7^x, x uniform in [P, 3] (the earlier reading)",
}
DEFAULT_READING = "min_performance"
CAP_LEVELS = {0.97: "C = 0.97 x 1.7^P (a level of C, not a reading)",
              1.03: "C = 1.03 x 1.7^P (a level of C, not a reading)",
              1.06: "C = 1.06 x 1.7^P (a level of C, not a reading)"}
"""Levels of C around the reading used (``cap_factor``), to show which numbers move with C."""
DEFAULT_PARAMS = {"time_span": "min_performance"}
"""Further ``toporkov2011`` readings passed (docs/reproductions.md): the request's time span
t in S = C·t·N is the one a node of the job's minimum performance P needs, ceil(V / P)."""
SPANS = {
    "min_performance": "t = ceil(V / P), the span at the job's minimum performance P (used)",
    "etalon": "t = V, the span on an etalon node p = 1 (the earlier reading)",
    "length": "t = the drawn length at performance P, so V = t P",
}


def measure(
    seed: int, runs: int, reading: str, cut: str = "task", limits: str = "mean",
    per: str = "cycle", **params: str | float
) -> tuple[dict[tuple[str, str, str], Any], int]:
    """Return the per-job averages ``(problem, algorithm, quantity) -> mean`` and the runs kept.

    ``cut``: how a found window is cut out of the slot list (see
    :mod:`validation.study.reproduce.cuts`; ``task`` is the library's rule);
    ``limits``: the reading of b* and t* (:mod:`validation.study.reproduce.limits`);
    ``per``: ``cycle`` averages each kept cycle's per-job figure, ``job`` divides
    the totals over all kept cycles by their jobs (the paper's "258079 or an
    average of 7.39 for a job"); ``params``: further ``toporkov2011``
    parameters. ``(p, a, "infeasible")`` counts the kept runs where problem
    ``p`` has no solution under the limits; ``(p, a, q + "_se")`` is the standard
    error of a per-cycle average; ``("alts", a, q)`` is the mean runtime or
    cost of a job's alternatives (Σ_i mean_i / jobs).
    """
    from instances import FAMILIES, generate
    from validation.study.reproduce.cuts import alternatives_by_job
    from validation.study.reproduce.limits import combine

    ref = reference(NAME)
    out: dict[tuple[str, str, str], list[tuple[float, int]]] = {
        (p, a, q): [] for p in PROBLEMS for a in ("alp", "amp")
        for q in ("time", "cost", "cost_exact", "alternatives_per_job", "infeasible")
    }  # fmt: skip
    out.update({("alts", a, q): [] for a in ("alp", "amp") for q in ("time", "cost")})
    out["CM", "kept", "jobs_per_cycle"] = []
    out["CM", "kept", "slots_per_cycle"] = []
    unit = float(FAMILIES[ref["family"]].defaults["money_unit"])  # costs in the paper's unit
    kept = 0
    for r in track(range(runs), f"{NAME}: runs"):
        inst = generate(ref["family"], instance_seed(seed, r), price_cap=reading,
                        **{**DEFAULT_PARAMS, **params})  # fmt: skip
        found = {a: alternatives_by_job(inst, a, cut) for a in ("alp", "amp")}
        if any(not alts for by_job in found.values() for alts in by_job.values()):
            continue
        kept += 1
        out["CM", "kept", "jobs_per_cycle"].append((len(inst.jobs), 1))
        out["CM", "kept", "slots_per_cycle"].append((len(inst.slots), 1))
        for a, by_job in found.items():
            jobs = len(by_job)
            for q, f in (("time", lambda w: w.runtime), ("cost", lambda w: w.cost / unit)):
                means = (mean([f(w) for w in ws]) or 0.0 for ws in by_job.values())
                out["alts", a, q].append((sum(means), jobs))
            for p, number in PROBLEMS.items():
                out[p, a, "alternatives_per_job"].append((sum(map(len, by_job.values())), jobs))
                res = combine(found, a, number, limits)
                out[p, a, "infeasible"].append((float(res.status != "optimal"), 1))
                if res.status != "optimal":
                    continue
                out[p, a, "time"].append((sum(w.runtime for w in res.windows), jobs))
                out[p, a, "cost"].append((sum(w.cost for w in res.windows) / unit, jobs))
                out[p, a, "cost_exact"].append((_exact_cost(inst, res.windows) / unit, jobs))
    avg = {k: _average(v, per) for k, v in out.items()}
    avg.update({(p, a, f"{q}_se"): _error(v) for (p, a, q), v in out.items()})
    avg.update({k: sum(t for t, _ in v) for k, v in out.items() if k[2] == "infeasible"})
    return avg, kept


def _exact_cost(inst: Any, windows: Any) -> float:
    """Return the windows' cost with each task lasting exactly V/p instead of ceil(V/p) quanta."""
    volume = {j.id: j.volume for j in inst.jobs}
    perf = {n.id: n.performance for n in inst.nodes}
    total = 0.0
    for w in windows:
        for pl in w.placements:
            slot = next(s for s in inst.slots if s.node == pl.node and s.start <= pl.start < s.end)
            total += inst.slot_price(slot) * volume[w.job] / perf[pl.node]
    return total


def _excess(ours: float | None, exact: float | None) -> str:
    return "-" if ours is None or not exact else f"{100 * (ours / exact - 1):+.1f}%"


def _average(totals: list[tuple[float, int]], per: str) -> float | None:
    """Mean of total / jobs per cycle (``cycle``) or Σ totals / Σ jobs (``job``)."""
    if per == "job":
        jobs = sum(n for _, n in totals)
        return sum(t for t, _ in totals) / jobs if jobs else None
    return mean([t / n for t, n in totals])


def _error(totals: list[tuple[float, int]]) -> float | None:
    """Standard error of the mean of total / jobs per cycle (None below two cycles)."""
    return standard_error([t / n for t, n in totals])


def _ratio(avg: dict[tuple[str, str, str], Any]) -> float | None:
    amp, alp = avg["TM", "amp", "alternatives_per_job"], avg["TM", "alp", "alternatives_per_job"]
    return None if amp is None or not alp else amp / alp


def run(seed: int = 0, runs: int = DEFAULT_RUNS) -> Comparison:
    """Run the experiment and return paper vs ours, with the sensitivity to the readings.

    The main table is measured on ``runs`` cycles, each sensitivity table on
    the first ``runs // SAMPLING`` (their rows compare readings on the same
    cycles); a last table gives both samples' standard errors.
    """
    from validation.study.reproduce.amp_vs_alp_readings import add_tables
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
    cmp.table(f"whole time quanta: the chosen windows of the main table ({runs} runs) costed "
              "with each task lasting exactly V/p instead of ceil(V/p) quanta",
              ["problem", "algorithm", "paper", "ours", "same windows, exact V/p",
               "whole quanta add"],
              [[p, a, paper(ref, p, a, "cost"), avg[p, a, "cost"], avg[p, a, "cost_exact"],
                _excess(avg[p, a, "cost"], avg[p, a, "cost_exact"])]
               for p in PROBLEMS for a in ("alp", "amp")])  # fmt: skip
    cmp.notes += ref["notes"]
    return cmp
