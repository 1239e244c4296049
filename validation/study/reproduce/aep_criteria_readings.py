"""The `aep-criteria` readings measured on the instances used (Toporkov et al. 2012 §3.2).

CSA under each reading of how an alternative is cut from the slot list, of
its budget and of the load layout; minRuntime and minFinish under each
reading of the swap's budget test; minProcTime under each reading of its
random window, on integer and on real-valued performance; and the
strategies with a share of the nodes busy at the interval start
(``docs/reproductions.md``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce import busy_share
from validation.study.reproduce.aep_criteria_measure import METRICS, NAME
from validation.study.reproduce.common import Comparison, mean, paper, reference


def measure_readings(
    seed: int, runs: int, params: dict[str, float | str]
) -> dict[tuple[str, str], list[Any]]:
    """Return the rows of the cut (CSA), swap and minProcTime tables, on the same instances."""
    from instances import generate
    from validation.study.reproduce.cuts import CUTS, alternatives_by_job
    from validation.study.reproduce.layout import evenly_spaced
    from validation.study.reproduce.random_window import READINGS as RANDOM
    from validation.study.reproduce.random_window import min_proc_time
    from validation.study.reproduce.swap_budget import READINGS as SWAPS
    from validation.study.reproduce.swap_budget import swap_window

    ref = reference(NAME)
    cut: dict[str, dict[str, list[float]]] = {c: {} for c in CUTS}
    proc: dict[str, dict[str, list[float]]] = {}
    swap: dict[str, dict[str, list[float]]] = {}
    cut["free"] = {}  # the library's cut, but AMP without the budget S
    cut["even"] = {}  # the library's cut, the same local tasks at equal gaps
    for r in track(range(runs), "aep-criteria readings: runs"):
        inst = generate(ref["family"], instance_seed(seed, r), **params)
        job = inst.jobs[0]
        other = {
            "free": dataclasses.replace(inst, jobs=(dataclasses.replace(job, budget=None),)),
            "even": evenly_spaced(inst),
        }
        for c in cut:
            alts = alternatives_by_job(other[c], "amp") if c in other else (
                alternatives_by_job(inst, "amp", c))
            alts = alts[job.id]
            cut[c].setdefault("alternatives", []).append(len(alts))
            for m in METRICS:
                if alts:
                    cut[c].setdefault(m, []).append(min(w.metric(m) for w in alts))
        real = generate(ref["family"], instance_seed(seed, r),
                        **{**params, "performance_values": "real"})  # fmt: skip
        for reading in RANDOM:
            for key, on in ((reading, inst), (f"{reading} real", real)):
                w = min_proc_time(on, on.jobs[0], reading, instance_seed(seed + 1, r))
                if w is not None:
                    for m in METRICS:
                        proc.setdefault(key, {}).setdefault(m, []).append(w.metric(m))
        for reading in SWAPS:
            for name, metric in (("min_runtime", "runtime"), ("min_finish", "finish")):
                w = swap_window(inst, inst.jobs[0], metric, reading)
                if w is not None:
                    for m in SWAP_COLUMNS:
                        swap.setdefault(f"{reading} {name}", {}).setdefault(m, []).append(
                            w.metric(m))
    rows: dict[tuple[str, str], list[Any]] = {}
    for k, d in swap.items():
        reading, name = k.split()
        rows["swap", k] = [SWAPS[reading], name, *(mean(d.get(m, [])) for m in SWAP_COLUMNS)]
    for c, d in cut.items():
        label = CUTS.get(c) or LAYOUTS[c]
        rows["cut", c] = [label, *(mean(d.get(m, [])) for m in CUT_COLUMNS)]
    for key, d in proc.items():
        reading, *real = key.split()
        label = RANDOM[reading] + ("; real-valued performance" if real else "")
        rows["proc", key] = [label, *(mean(d.get(m, [])) for m in PROC_COLUMNS)]
    return rows


LAYOUTS = {
    "free": "cut per node as used, AMP without the budget S",
    "even": "cut per node as used, each node's local tasks at equal gaps",
}
CUT_COLUMNS = ("alternatives", "runtime", "finish", "proc_time", "cost")
SWAP_COLUMNS = ("start", "runtime", "finish", "proc_time", "cost")
PROC_COLUMNS = ("start", "runtime", "finish", "proc_time", "cost")


def add_tables(cmp: Comparison, ref: dict[str, Any], seed: int, runs: int,
               params: dict[str, float | str]) -> None:  # fmt: skip
    """Append the cut, swap, random-window and busy-at-start tables to ``cmp``."""
    extra = measure_readings(seed, runs, params)
    rows = [["paper", *(paper(ref, "csa", m) for m in CUT_COLUMNS)]]
    rows += [v for k, v in extra.items() if k[0] == "cut"]
    cmp.table("CSA under each reading of the cut, the budget and the load layout",
              ["cut", "CSA alternatives", *(f"CSA {m}" for m in CUT_COLUMNS[1:])],
              rows)  # fmt: skip
    rows = [["paper", name, *(paper(ref, name, m) for m in SWAP_COLUMNS)]
            for name in ("min_runtime", "min_finish")]
    rows += [v for k, v in extra.items() if k[0] == "swap"]
    cmp.table("minRuntime and minFinish under each reading of the swap's budget test",
              ["swap test", "algorithm", *SWAP_COLUMNS], rows)  # fmt: skip
    rows = [["paper", *(paper(ref, "min_proc_time", m) for m in PROC_COLUMNS)]]
    rows += [v for k, v in extra.items() if k[0] == "proc"]
    cmp.table("minProcTime under each reading of its random window",
              ["random window", *(f"minProcTime {m}" for m in PROC_COLUMNS)], rows)  # fmt: skip
    head, rows = busy_share.table(ref, seed, runs, params)
    cmp.table("the strategies with a share of the nodes busy at the interval start (each node's "
              "first local task moved to t = 0)", head, rows)  # fmt: skip
