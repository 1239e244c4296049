"""The ``aep-criteria`` measurement: mean start, runtime, finish, CPU time and cost per strategy.

:func:`measure` generates ``runs`` ``toporkov2012`` instances under one reading of the open
settings; :mod:`validation.study.reproduce.aep_criteria` compares the means with Toporkov
et al. 2012 and :mod:`validation.study.reproduce.aep_criteria_readings` adds the readings'
tables.
"""

from __future__ import annotations

from typing import Any

from planner.progress import track
from validation.study.engine.seeds import instance_seed
from validation.study.reproduce.common import mean, reference

NAME = "aep-criteria"
ALGORITHMS = ("amp", "min_finish", "min_cost", "min_runtime", "min_proc_time")
METRICS = {"start": "min_start", "runtime": "min_runtime", "finish": "min_finish",
           "proc_time": "min_proc_time", "cost": "min_cost"}  # fmt: skip
USED = {"volume": 300.0, "unit_price": 1.0, "price_values": "integer"}
READINGS: dict[str, dict[str, float | str]] = {
    "150 at p = 2, whole prices p (sigma 0.15)": USED,
    "same, sigma 0.10": {**USED, "price_deviation": 0.10},
    "same, sigma 0.20": {**USED, "price_deviation": 0.20},
    "same, prices to the cent (earlier)": {**USED, "price_values": "real"},
    "same, real-valued performance": {**USED, "performance_values": "real"},
    "V = 150 etalon, price 1.9 p to the cent (earlier)": {"volume": 150.0, "unit_price": 1.9},
}  # fmt: skip
DEFAULT_READING = "150 at p = 2, whole prices p (sigma 0.15)"
def measure(
    seed: int, runs: int, params: dict[str, float | str], *, exact: bool = False
) -> dict[str, dict[str, Any]]:
    """Return per-algorithm mean metrics (``csa``, ``exact`` and ``alternatives`` included)."""
    from instances import generate
    from models import solve_window
    from planner import find_alternatives, search

    ref = reference(NAME)
    values: dict[str, dict[str, list[float]]] = {
        a: {m: [] for m in METRICS} for a in (*ALGORITHMS, "csa", "exact")
    }
    alternatives: list[float] = []
    for r in track(range(runs), f"{NAME}: runs"):
        inst = generate(ref["family"], instance_seed(seed, r), **params)
        job = inst.jobs[0]
        for name in ALGORITHMS:
            w = search(inst, job, name, seed=instance_seed(seed + 1, r))
            if w is not None:
                for m in METRICS:
                    values[name][m].append(w.metric(m))
        alts = find_alternatives(inst, "amp").windows
        alternatives.append(len(alts))
        for m, crit in METRICS.items():
            if alts:
                values["csa"][m].append(min(w.metric(m) for w in alts))
            if exact:
                res = solve_window(inst, job, crit)
                if res.status == "optimal":
                    values["exact"][m].append(res.objective)
    avg: dict[str, dict[str, Any]] = {
        k: {m: mean(v) for m, v in d.items()} for k, d in values.items()
    }
    avg["csa"]["alternatives"] = mean(alternatives)
    avg["raw"] = {**{(k, m): v for k, d in values.items() for m, v in d.items()},
                  ("csa", "alternatives"): alternatives}  # fmt: skip
    return avg
