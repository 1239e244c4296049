"""Family ``toporkov2018``: the square-window MaxQ/DEP/COORD experiment of Toporkov & Yemelyanov
2018 §4.1.

100 nodes of integer performance uniform in [2, 10], a scheduling interval
of 1200 quanta with an initial load of up to 30% per node (hypergeometric),
an independent q uniform in [0, 10] per node, and one job asking for n = 7
nodes of performance P >= 1 for V = 800 with budget S = 644, on the square
geometry of Toporkov & Yemelyanov 2018 §3.2 (window length 400 down to 80).

Choices where the paper is silent (the README's "Instance families" section): integer
performances (as in Toporkov et al. 2012; Toporkov et al. 2015); load levels in [0, 30%]
(hypergeometric, mean 15%); price per quantum ``0.08 · p · (1 + e)``,
``e ~ N(0, 0.15)``, so a 7-node window on one performance level costs about
448 and S = 644 binds only on mixed-performance windows; q rounded to 2
decimals, or with ``q_values=integer`` a whole number 0..q_max (the same uniform
draw, cut into q_max + 1 equal parts, so each node's integer q coarsens its real
one; the ``maxq`` reproduction passes it); criterion ``max_q`` (Toporkov & Yemelyanov
2018 §4.2). The ``maxq`` and ``dep-coord`` reproductions read the price scale from the
budget instead, ``unit_price = S / (V · n) = 0.115`` (``docs/reproductions.md``).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from instances.criteria import CRITERIA, GEOMETRIES
from instances.generators.base import Family, check
from instances.generators.toporkov2012 import DOMAIN_DEFAULTS, check_domain, domain
from instances.instance import Instance
from instances.job import Job

NAME = "toporkov2018"
Q_VALUES = ("real", "integer")
"""Readings of "an independent value q_i in [0; 10]" (Toporkov & Yemelyanov 2018 §4.1)."""


def build(rng: np.random.Generator, name: str, **p: float | int | str) -> Instance:
    """Draw the loaded domain with q values and the single job of Toporkov & Yemelyanov 2018
    §4.1."""
    check_domain(NAME, p)
    check(NAME, "job_nodes", p["job_nodes"] >= 1, "must be >= 1")
    check(NAME, "volume", p["volume"] > 0, "must be > 0")
    check(NAME, "min_performance", p["min_performance"] >= 0, "must be >= 0")
    check(NAME, "budget", p["budget"] >= 0, "must be >= 0")
    check(NAME, "q_max", p["q_max"] >= 0, "must be >= 0")
    check(NAME, "q_values", p["q_values"] in Q_VALUES, f"must be one of {', '.join(Q_VALUES)}")
    check(NAME, "q_max", p["q_values"] != "integer" or float(p["q_max"]).is_integer(),
          "must be a whole number with q_values=integer")  # fmt: skip
    check(NAME, "criterion", p["criterion"] in CRITERIA, f"must be one of {', '.join(CRITERIA)}")
    check(NAME, "geometry", p["geometry"] in GEOMETRIES, f"must be one of {', '.join(GEOMETRIES)}")
    nodes, busy, horizon = domain(rng, p)
    q_max = float(p["q_max"])
    q = rng.uniform(0.0, q_max, size=len(nodes))
    if p["q_values"] == "integer":
        q = np.minimum(np.floor(q * (q_max + 1) / q_max), q_max) if q_max else q
    nodes = [dataclasses.replace(n, q=round(float(v), 2)) for n, v in zip(nodes, q, strict=True)]
    job = Job(
        id="job1",
        nodes=int(p["job_nodes"]),
        volume=float(p["volume"]),
        min_performance=float(p["min_performance"]),
        budget=int(p["budget"]),
        criterion=str(p["criterion"]),
    )
    return Instance(
        nodes=tuple(nodes),
        jobs=(job,),
        name=name,
        horizon=horizon,
        geometry=str(p["geometry"]),
        busy=tuple(busy),
    )


FAMILY = Family(
    name=NAME,
    source=(
        "Toporkov & Yemelyanov 2018 §4.1 "
        "(square windows, MaxQ: 100 nodes, n=7, V=800, S=644, q in [0, 10])"
    ),
    defaults={
        **DOMAIN_DEFAULTS,
        "interval": 1200,
        "unit_price": 0.08,
        "load_min": 0.0,
        "load_max": 0.3,
        "job_nodes": 7,
        "volume": 800.0,
        "min_performance": 1.0,
        "budget": 644,
        "q_max": 10.0,
        "q_values": "real",
        "criterion": "max_q",
        "geometry": "square",
    },
    build=build,
)
