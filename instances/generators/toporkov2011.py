"""Family ``toporkov2011``: the ALP/AMP experiment of Toporkov et al. 2011 §5.

Reproduces the paper's ``SlotGenerator`` and ``JobGenerator`` (Toporkov et al. 2011 §5,
"SlotGenerator and JobGenerator classes"): an ordered list of 120–150 slots
of length 50–300 on nodes of performance 1–3, neighbouring slots sharing a
start time with probability 0.4 and otherwise 1–10 apart, each slot priced
uniformly in [0.75p, 1.25p] with p = 1.7^performance; a batch of 3–7 jobs
asking for 1–6 nodes, volume 50–150 and minimum performance 1–2. All
variables are uniform, as in the paper.

Choices where the paper is silent (documented in the README's "Instance families" section):

- the paper generates a slot list, not a node model, so every slot is on its
  own node (node price p, slot price the drawn one); performances and
  minimum performances are reals rounded to 2 decimals;
- money unit: prices are multiplied by ``money_unit`` (default 100, i.e. one
  project money unit is 1/100 of the paper's), so ``cost()``'s rounding up to
  an integer loses less than 0.01 of the paper's unit per task;
- each job's price cap C (for ALP) is, by ``price_cap``: ``uniform`` (the
  default) ``money_unit * 1.7^x`` with x uniform between its minimum
  performance P and ``performance_max``; ``min_performance``
  ``money_unit * 1.7^P``, the market price of a node of performance P
  (Toporkov et al. 2011 §6 ties C to P: together they set "the minimum acceptable
  price/quality"; the ``amp-vs-alp`` reproduction passes this reading,
  docs/reproductions.md); ``dearest`` 1.25 times that; ``cap_factor``
  (default 1) scales C under every reading; its budget is
  AMP's S = k·C·V·n of Toporkov et al. 2011 §6 (``budget_factor`` k, default 1: no
  explicit budget, so docs/concepts.md derives S = floor(C·V·n)); ``time_span``
  reads the t of S = k·C·t·n (:data:`TIME_SPANS`; ``amp-vs-alp`` passes
  ``min_performance``, t = ceil(V / P));
- numbers: the paper's simulator holds a slot's price per time unit as
  ``int cash`` (Toporkov et al. 2011 §3); ``price_values`` and ``cap_values``
  (``real``, the default, ``integer`` to the nearest or ``truncated``, in
  the paper's money unit) read the slot prices and C as whole numbers, and
  ``performance_values=integer`` the performances; the ``amp-vs-alp``
  reproduction measures them as sensitivity rows (docs/reproductions.md).
"""

from __future__ import annotations

import math

import numpy as np

from instances.criteria import CRITERIA
from instances.generators.base import Family, check, check_range
from instances.generators.environment import PERFORMANCE_VALUES, PRICE_VALUES
from instances.instance import Instance
from instances.job import Job
from instances.node import Node
from instances.slot import Slot
from instances.units import duration

NAME = "toporkov2011"
PRICE_CAPS = ("uniform", "min_performance", "dearest")
"""Readings of a job's cap C: base^x with x uniform in [P, performance_max]; base^P (the
price of a node of the job's minimum performance P, Toporkov et al. 2011 §6); (1 + spread) ·
base^P."""

WHOLE_VALUES = (*PRICE_VALUES, "truncated")
"""Readings of a price per time unit (slot price, cap C): ``real`` (2 decimals), ``integer``
(nearest whole paper money unit) or ``truncated`` (rounded down, as Java's ``(int)`` cast)."""

TIME_SPANS = ("etalon", "min_performance", "length")
"""Readings of the request's time span t in AMP's S = k·C·t·N (Toporkov et al. 2011 §3):
``etalon`` t = V, the drawn length, on a node of performance 1; ``min_performance``
t = ceil(V / P), the span a node of the job's minimum performance P needs; ``length``
t = the drawn length at performance P, so V = t·P."""


def build(rng: np.random.Generator, name: str, **p: float | int | str) -> Instance:
    """Draw the slot list and the job batch of Toporkov et al. 2011 §5."""
    _check(p)
    unit = float(p["money_unit"])
    base = float(p["price_base"])
    spread = float(p["price_spread"])
    count = int(rng.integers(int(p["slots_min"]), int(p["slots_max"]) + 1))
    nodes: list[Node] = []
    slots: list[Slot] = []
    start = 0
    for i in range(count):
        if i and rng.random() >= float(p["same_start"]):
            start += int(rng.integers(1, int(p["gap_max"]) + 1))
        length = int(rng.integers(int(p["length_min"]), int(p["length_max"]) + 1))
        perf = _performance(rng, p, "performance_min", "performance_max")
        price = unit * base**perf
        drawn = float(rng.uniform((1 - spread) * price, (1 + spread) * price))
        slot_price = _whole(drawn / unit, str(p["price_values"]), unit)
        nodes.append(Node(id=f"n{i + 1}", performance=perf, price=round(price, 2)))
        slots.append(Slot(f"n{i + 1}", start, start + length, slot_price))
    jobs = [_job(rng, k, p) for k in range(int(rng.integers(p["jobs_min"], p["jobs_max"] + 1)))]
    return Instance(
        nodes=tuple(nodes),
        slots=tuple(slots),
        jobs=tuple(jobs),
        name=name,
        horizon=(0, max(s.end for s in slots)),
    )


def _job(rng: np.random.Generator, k: int, p: dict[str, float | int | str]) -> Job:
    n = int(rng.integers(int(p["job_nodes_min"]), int(p["job_nodes_max"]) + 1))
    volume = float(rng.integers(int(p["volume_min"]), int(p["volume_max"]) + 1))
    min_perf = _performance(rng, p, "min_performance_min", "min_performance_max")
    level = float(rng.uniform(min_perf, max(min_perf, float(p["performance_max"]))))
    reading = str(p["price_cap"])
    if reading != "uniform":
        level = min_perf  # the price of a node of the job's minimum performance P
    dear = 1 + float(p["price_spread"]) if reading == "dearest" else 1.0
    cap = dear * float(p["cap_factor"]) * float(p["price_base"]) ** level
    max_price = _whole(cap, str(p["cap_values"]), float(p["money_unit"]))
    factor = float(p["budget_factor"])
    span, reading = volume, str(p["time_span"])
    if reading == "min_performance":
        span = float(duration(volume, min_perf))
    elif reading == "length":
        volume = round(span * min_perf, 6)  # t is the length at performance P: V = t·P
    explicit = factor != 1.0 or reading != "etalon"
    budget = math.floor(round(factor * max_price * span * n, 6)) if explicit else None
    return Job(
        id=f"j{k + 1}",
        nodes=n,
        volume=volume,
        min_performance=min_perf,
        budget=budget,
        max_price=max_price,
        criterion=str(p["criterion"]),
    )


def _performance(rng: np.random.Generator, p: dict[str, float | int | str], lo: str, hi: str
                 ) -> float:  # fmt: skip
    if p["performance_values"] == "integer":
        return float(rng.integers(int(p[lo]), int(p[hi]) + 1))
    return round(float(rng.uniform(p[lo], p[hi])), 2)


def _whole(value: float, reading: str, unit: float) -> float:
    """Return ``value`` (paper's money unit) in project units under a :data:`WHOLE_VALUES`
    reading."""
    if reading == "integer":
        return unit * round(value)
    if reading == "truncated":
        return unit * math.floor(value)
    return round(unit * value, 2)


def _check(p: dict[str, float | int | str]) -> None:
    for low, high, minimum in (
        ("slots_min", "slots_max", 1),
        ("length_min", "length_max", 1),
        ("performance_min", "performance_max", 0.01),
        ("jobs_min", "jobs_max", 1),
        ("job_nodes_min", "job_nodes_max", 1),
        ("volume_min", "volume_max", 1),
        ("min_performance_min", "min_performance_max", 0),
    ):
        check_range(NAME, low, high, p, minimum)
    check(NAME, "same_start", 0 <= p["same_start"] <= 1, "must be a probability in [0, 1]")
    check(NAME, "gap_max", p["gap_max"] >= 1, "must be >= 1")
    check(NAME, "price_base", p["price_base"] > 0, "must be > 0")
    check(NAME, "price_spread", 0 <= p["price_spread"] < 1, "must be in [0, 1)")
    check(NAME, "money_unit", p["money_unit"] > 0, "must be > 0")
    check(NAME, "budget_factor", p["budget_factor"] > 0, "must be > 0")
    check(NAME, "cap_factor", p["cap_factor"] > 0, "must be > 0")
    check(NAME, "criterion", p["criterion"] in CRITERIA, f"must be one of {', '.join(CRITERIA)}")
    check(NAME, "performance_values", p["performance_values"] in PERFORMANCE_VALUES,
          f"must be one of {', '.join(PERFORMANCE_VALUES)}")  # fmt: skip
    for key in ("performance_min", "performance_max", "min_performance_min",
                "min_performance_max"):  # fmt: skip
        whole = p["performance_values"] != "integer" or float(p[key]).is_integer()
        check(NAME, key, whole, "must be a whole number with performance_values=integer")
    check(NAME, "time_span", p["time_span"] in TIME_SPANS,
          f"must be one of {', '.join(TIME_SPANS)}")  # fmt: skip
    for key in ("price_values", "cap_values"):
        check(NAME, key, p[key] in WHOLE_VALUES, f"must be one of {', '.join(WHOLE_VALUES)}")
    caps = ", ".join(PRICE_CAPS)
    check(NAME, "price_cap", p["price_cap"] in PRICE_CAPS, f"must be one of {caps}")


FAMILY = Family(
    name=NAME,
    source="Toporkov et al. 2011 §5 (SlotGenerator, JobGenerator; ALP vs AMP)",
    defaults={
        "slots_min": 120,
        "slots_max": 150,
        "length_min": 50,
        "length_max": 300,
        "performance_min": 1.0,
        "performance_max": 3.0,
        "same_start": 0.4,
        "gap_max": 10,
        "price_base": 1.7,
        "price_spread": 0.25,
        "money_unit": 100.0,
        "jobs_min": 3,
        "jobs_max": 7,
        "job_nodes_min": 1,
        "job_nodes_max": 6,
        "volume_min": 50,
        "volume_max": 150,
        "min_performance_min": 1.0,
        "min_performance_max": 2.0,
        "budget_factor": 1.0,
        "time_span": "etalon",
        "price_cap": "uniform",
        "cap_factor": 1.0,
        "performance_values": "real",
        "price_values": "real",
        "cap_values": "real",
        "criterion": "min_start",
    },
    build=build,
)
