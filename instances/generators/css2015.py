"""Family ``css2015``: the cyclic scheduling scheme (CSS) batch of Toporkov et al. 2015 §5 and §6.2.

A domain of 24 nodes of integer performance uniform in [2, 10] on the
interval [0, 600], market prices with a normally distributed discount/extra
charge, local load as in Toporkov et al. 2015 §5 items 1–2, and a batch of 20 jobs whose
budgets range from the market cost with a 60% discount to the market cost
with a 60% extra charge; each job's criterion is drawn uniformly from the
four of Toporkov et al. 2015 Table 1 (start time, execution time, finish time, cost).

Choices where the paper is silent (the README's "Instance families" section): the price
per quantum is ``1.0 · p · (1 + e)``, ``e ~ N(0, 0.15)`` (Toporkov et al. 2015 Table 2:
the "average market cost" of a node is about its performance); a job's
market cost is ``unit_price · V · n`` (every node runs V/p quanta at p per
quantum) and its budget ``floor(f · unit_price · V · n)``, f uniform in
[0.4, 1.6]; jobs ask for 1–5 nodes (uniform) and volume 200–500 (uniform
integer), giving execution times of about 20–250 quanta, in the range of
Toporkov et al. 2015 Table 1; the load is 10–50% as in Toporkov et al. 2015 §6.1.
"""

from __future__ import annotations

import math

import numpy as np

from instances.generators.base import Family, check, check_range
from instances.generators.toporkov2012 import DOMAIN_DEFAULTS, check_domain, domain
from instances.instance import Instance
from instances.job import Job

NAME = "css2015"

TABLE1_CRITERIA: tuple[str, ...] = ("min_start", "min_runtime", "min_finish", "min_cost")
"""Toporkov et al. 2015 Table 1: start time, execution time, finish time, cost."""


def build(rng: np.random.Generator, name: str, **p: float | int | str) -> Instance:
    """Draw the loaded domain and the 20-job batch of Toporkov et al. 2015 §5."""
    check_domain(NAME, p)
    check(NAME, "jobs", p["jobs"] >= 1, "must be >= 1")
    check_range(NAME, "job_nodes_min", "job_nodes_max", p, 1)
    check_range(NAME, "volume_min", "volume_max", p, 1)
    check(NAME, "budget_spread", 0 <= p["budget_spread"] < 1, "must be in [0, 1)")
    nodes, busy, horizon = domain(rng, p)
    spread = float(p["budget_spread"])
    jobs = []
    for k in range(int(p["jobs"])):
        n = int(rng.integers(int(p["job_nodes_min"]), int(p["job_nodes_max"]) + 1))
        volume = float(rng.integers(int(p["volume_min"]), int(p["volume_max"]) + 1))
        factor = float(rng.uniform(1 - spread, 1 + spread))
        budget = math.floor(round(factor * float(p["unit_price"]) * volume * n, 6))
        criterion = TABLE1_CRITERIA[int(rng.integers(len(TABLE1_CRITERIA)))]
        jobs.append(Job(f"j{k + 1}", n, volume, budget=budget, criterion=criterion))
    return Instance(
        nodes=tuple(nodes), jobs=tuple(jobs), name=name, horizon=horizon, busy=tuple(busy)
    )


FAMILY = Family(
    name=NAME,
    source="Toporkov et al. 2015 §5 and §6.2 (CSS batch: 24 nodes, 20 jobs, criteria of Table 1)",
    defaults={
        **DOMAIN_DEFAULTS,
        "nodes": 24,
        "unit_price": 1.0,
        "jobs": 20,
        "job_nodes_min": 1,
        "job_nodes_max": 5,
        "volume_min": 200,
        "volume_max": 500,
        "budget_spread": 0.6,
    },
    build=build,
)
