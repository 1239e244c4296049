"""The ``amp-vs-alp`` measurement: per-job averages of ALP and AMP alternatives, TM and CM.

One call of :func:`measure` generates ``runs`` ``toporkov2011`` cycles under one reading and
returns the averages; :mod:`validation.study.reproduce.amp_vs_alp` compares them with
Toporkov et al. 2011 and :mod:`validation.study.reproduce.amp_vs_alp_readings` repeats them
under the other readings.
"""

from __future__ import annotations

from typing import Any

from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce.common import mean, reference, standard_error

NAME = "amp-vs-alp"
PROBLEMS = {"TM": 7, "CM": 8}
READINGS = {
    "min_performance": "C = 1.7^P (market price at the job's minimum performance P)",
    "dearest": "C = 1.25 x 1.7^P (dearest price a node of performance P may ask)",
    "uniform": "C = 1.7^x, x uniform in [P, 3] (the earlier reading)",
}
DEFAULT_READING = "min_performance"
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


def _average(totals: list[tuple[float, int]], per: str) -> float | None:
    """Mean of total / jobs per cycle (``cycle``) or Σ totals / Σ jobs (``job``)."""
    if per == "job":
        jobs = sum(n for _, n in totals)
        return sum(t for t, _ in totals) / jobs if jobs else None
    return mean([t / n for t, n in totals])


def _error(totals: list[tuple[float, int]]) -> float | None:
    """Standard error of the mean of total / jobs per cycle (None below two cycles)."""
    return standard_error([t / n for t, n in totals])
