"""Toporkov et al. 2015 §6.3, Fig. 7: T_CPU of the batch-slicer vs the number of sub-batches k.

Each cycle draws a ``css2015`` batch; the same cycle is scheduled by the
batch-slicer for every k of the paper (1, 2, 3, 5, 6, 10, 20), each job by
its own criterion, and by CSS (first fit), all with problem (7) (least
Σ proc_time within the VO budget: "the average job execution time T_CPU
minimization task"). The paper sets three load levels by their failure
rates Y and gives no load; we set them by the local load of the nodes: the
paper's only stated range, 10–50% per node (§6.1), is the medium level,
and 0–20% and 30–70% are the low and high levels (the same width shifted
by 20 points). Nothing is fitted to the paper's Y; the measured Y of each
level is printed beside the paper's.
"""

from __future__ import annotations

from typing import Any

from validation.study.reproduce.common import Comparison, citation, paper, reference
from validation.study.reproduce.vo_common import (
    Tally,
    affordable,
    close,
    reduction,
    run_cycles,
)

NAME = "slicer"
DEFAULT_RUNS = 5000
KS = (1, 2, 3, 5, 6, 10, 20)
LEVELS: dict[str, dict[str, float]] = {
    "low": {"load_min": 0.0, "load_max": 0.2},
    "medium": {"load_min": 0.1, "load_max": 0.5},
    "high": {"load_min": 0.3, "load_max": 0.7},
}
"""Local load range per level (family css2015 parameters)."""


def cycles(lo: int, hi: int, *, seed: int, levels: tuple[str, ...], ks: tuple[int, ...]) -> Tally:
    """Schedule cycles ``lo..hi-1`` at every level with every k and CSS; tally the metrics."""
    from instances import generate
    from models.combination import VoPolicy
    from planner.vo import CSS, BatchSlicer, cycle_seed, schedule_cycle

    tally = Tally()
    combine = VoPolicy(7)
    policies = [(f"k={k}", BatchSlicer(k)) for k in ks] + [("css", CSS("amp"))]
    for level in levels:
        for c in range(lo, hi):
            inst = generate("css2015", cycle_seed(seed, c), **LEVELS[level])
            able = affordable(inst)
            tally.add((level, "unaffordable"), 1 - len(able) / len(inst.jobs))
            for label, policy in policies:
                out = schedule_cycle(policy, combine, inst, seed=cycle_seed(seed, c, 1))
                res = out.reservations
                key = (level, label)
                batch = len(inst.jobs)
                tally.add((*key, "Y"), float(len(res) < batch))
                tally.add((*key, "Y_jobs"), (batch - len(res)) / batch)
                tally.add((*key, "Y_affordable"), float(bool(able - {w.job for w in res})))
                tally.add((*key, "T_batch"), sum(w.proc_time for w in res))
                for na in out.alternatives_per_job().values():
                    tally.add((*key, "NA"), na)
                for w in res:
                    tally.add((*key, "T_CPU"), w.proc_time)
                    tally.add((*key, "cost"), w.cost)
    return tally


def run(seed: int = 0, runs: int = DEFAULT_RUNS, executor: Any = None,
        workers: int | None = None, exact_runs: int | None = None, exact_size: str = "small",
        exact_solver: str = "cpsat") -> Comparison:  # fmt: skip
    """Run ``runs`` cycles per level (and ``exact_runs`` exact cycles); paper vs ours.

    ``exact_runs`` defaults to min(runs, 100) cycles of ``exact_size``
    (``small``: 6 jobs on 12 nodes; ``paper``: 20 jobs on 24 nodes) solved by
    the joint model with ``exact_solver`` (:mod:`validation.study.reproduce.vo_exact`).
    """
    from validation.study.reproduce.vo_exact import ExactOptions, add_exact_rows, exact_cycles

    ref = reference(NAME)
    levels = tuple(LEVELS)
    exact = ExactOptions(exact_runs, exact_size, exact_solver)
    n_exact = exact.count(runs)
    try:
        t = run_cycles(cycles, runs, executor=executor, workers=workers, seed=seed,
                       levels=levels, ks=KS)  # fmt: skip
        x = run_cycles(exact_cycles, n_exact, executor=executor, workers=workers, seed=seed,
                       ks=KS[:4], exact=exact) if n_exact else Tally()  # fmt: skip
    finally:
        close(executor)
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, "
                     f"{ref['paper_runs']} cycles", runs, runs)  # fmt: skip
    labels = [f"k={k}" for k in KS] + ["css"]
    for level in levels:
        for label in labels:
            y_paper = paper(ref, "levels", level, "Y") if label == "k=1" else None
            cmp.add(level, "Y (cycles)", label, y_paper, t.mean(level, label, "Y"))
            for q in ("Y_affordable", "Y_jobs", "NA", "T_CPU", "cost", "T_batch"):
                cmp.add(level, q, label, None, t.mean(level, label, q))
        cmp.add(level, "unaffordable jobs", "-", None, t.mean(level, "unaffordable"))
    if n_exact:
        add_exact_rows(cmp, x, [f"k={k}" for k in KS[:4]] + ["css"], exact)
    _checks(cmp, t, levels, ref)
    cmp.notes += ref["notes"]
    cmp.notes.append("T_CPU = mean proc_time per placed job; T_batch = Σ proc_time of a "
                     "cycle's reservations; Y_jobs = share of jobs left without a window; "
                     "Y_affordable = share of cycles leaving without a window a job whose "
                     "budget covers its n cheapest tasks (unaffordable jobs fail at any load); "
                     "local load per level: " + ", ".join(
                         f"{lv} {v['load_min']:.0%}-{v['load_max']:.0%}"
                         for lv, v in LEVELS.items()) + " (docs/vo-flows.md).")  # fmt: skip
    return cmp


def _rising(values: list[float | None]) -> bool:
    """Return True when the last value exceeds the first (the overall trend over k)."""
    return values[-1] > values[0]  # type: ignore[operator]


def _near(ours: float | None, paper: float) -> bool:
    """Return True when ``ours`` is within half the paper's value (or 0.001) of it."""
    return ours is not None and abs(ours - paper) <= max(0.5 * paper, 0.001)


def _checks(cmp: Comparison, t: Tally, levels: tuple[str, ...], ref: dict[str, Any]) -> None:
    y_paper = {lv: paper(ref, "levels", lv, "Y") for lv in levels}
    best_k = ref["paper"]["best_k"]["medium"]["value"]
    gain = ref["paper"]["gain_over_css_percent"]["value"] / 100

    def series(level: str, q: str) -> list[float | None]:
        return [t.mean(level, f"k={k}", q) for k in KS]

    def best(level: str) -> int:
        return min(KS, key=lambda k: t.mean(level, f"k={k}", "T_CPU") or float("inf"))

    for q, word in (("NA", "more"), ("cost", "lower"), ("Y_affordable", "more")):
        trend = {lv: _rising(series(lv, q)) == (word == "more") for lv in levels}
        cmp.check(f"k = 1 -> 20: {word} {q} at every level (ours: "
                  + ", ".join(f"{lv} {'yes' if ok else 'no'}" for lv, ok in trend.items()) + ")",
                  lambda tr=trend: all(tr.values()))  # fmt: skip
    order = list(levels)  # low, medium, high: less free resource
    for q, down in (("NA", True), ("Y_affordable", False), ("cost", False)):
        vals = [t.mean(lv, "k=1", q) for lv in order]
        shown = ", ".join(f"{v:.3g}" if v is not None else "-" for v in vals)
        cmp.check(f"lower load: {'more' if down else 'less'} {q} at k = 1 (low, medium, high: "
                  f"{shown})", lambda v=vals, d=down: (v[0] > v[1] > v[2]) if d
                  else (v[0] < v[1] < v[2]))  # fmt: skip
    ys = {lv: t.mean(lv, "k=1", "Y") for lv in levels}
    ya = {lv: t.mean(lv, "k=1", "Y_affordable") for lv in levels}
    cmp.check("Y at k = 1 near the paper's levels (0.0002, 0.03, 0.3; ours "
              + ", ".join(f"{ys[lv]:.3g}" for lv in levels) + "; affordable jobs only "
              + ", ".join(f"{ya[lv]:.3g}" for lv in levels) + ")",
              lambda: all(_near(ys[lv], y_paper[lv]) for lv in levels))  # fmt: skip
    high, low, medium = best("high"), best("low"), best("medium")
    cmp.check(f"high load: least T_CPU with few sub-batches (ours: k = {high})",
              lambda: high <= 3)  # fmt: skip
    cmp.check(f"low load: least T_CPU with many sub-batches (ours: k = {low})",
              lambda: low >= 10)  # fmt: skip
    cmp.check(f"medium load: least T_CPU at k = {best_k} (ours: k = {medium})",
              lambda: medium == best_k)  # fmt: skip
    gains = {lv: reduction(t.mean(lv, f"k={best(lv)}", "T_CPU"), t.mean(lv, "k=1", "T_CPU"))
             for lv in levels}  # fmt: skip
    top = max(g for g in gains.values() if g is not None)
    cmp.check(f"the best k gains over k = 1 up to {gain:.0%} (ours: "
              + ", ".join(f"{lv} {g:.1%}" for lv, g in gains.items() if g is not None)
              + ")", lambda: 0 < top <= 2 * gain)  # fmt: skip
