"""Family ``klusacek2008``: the synthetic Grid job flow of Klusáček & Rudová 2008.

The paper's setting ("Experimental Evaluation" and its footnote 2): 150
machines, CPUs per machine uniform in [1, 16], machine speed uniform in
[200, 600]; 3,000 jobs per stream with negative-exponential inter-arrival
times, job execution time uniform in [500, 3000], CPUs per job uniform in
[1, 8], 70% of the jobs with a deadline; every parameter uniform.

Readings of what the paper leaves open (evidence in ``docs/workloads.md``):

* **Execution time** is seconds on a machine of the reference speed
  ``reference_speed`` (default 200, the slowest machine), so a machine of
  rating s runs work w in ceil(w · 200 / s) seconds: machine speeds are
  stored relative to the reference, s_m = rating / reference_speed in
  [1, 3]. With it the paper's remark holds that a mean inter-arrival time of
  5 s does not let the queue grow: the offered load is
  4.5 · 1750 / (150 · 8.5 · 2 · 5) = 0.62 (saturation near 3.1 s).
* **Deadlines** are not specified: d_j = r_j + ceil(2 · w_j) on exactly
  round(0.7 · n) random jobs (:mod:`instances.generators.deadlines`).
* Estimates are exact (e_j = w_j), as the schedule-based methods assume.
* Integers are drawn uniformly (CPUs, ratings, execution times); arrival
  instants are cumulative exponential gaps rounded up to whole seconds.
* **Job widths fit a drawn machine**: with few machines, every drawn machine
  may be narrower than ``cpus_max`` (5 machines of [1, 16] CPUs: 1.6 % of the
  seeds), so job CPUs are uniform in [cpus_min, min(cpus_max, widest drawn
  machine)]; every seed whose widest machine reaches ``cpus_max`` (all of them
  under the paper's 150 machines) draws exactly the paper's range. Hence a
  parameter set that passes the checks generates for every seed: ``cpus_min``
  may not exceed ``machine_cpus_min``.

Draws, in order: machine CPUs, machine ratings, gaps, execution times, job
CPUs, the jobs with deadlines.
"""

from __future__ import annotations

import numpy as np

from instances.generators.base import Family, check, check_range
from instances.generators.deadlines import check_deadline_params, with_deadlines
from instances.workload import ClusterJob, Machine, Workload

NAME = "klusacek2008"


def build(rng: np.random.Generator, name: str, **p: float | int | str) -> Workload:
    """Draw the machines and the job stream of one seed."""
    check(NAME, "machines", p["machines"] >= 1, "must be >= 1")
    check_range(NAME, "machine_cpus_min", "machine_cpus_max", p, 1)
    check_range(NAME, "speed_min", "speed_max", p, 1)
    check(NAME, "reference_speed", p["reference_speed"] > 0, "must be > 0")
    check(NAME, "jobs", p["jobs"] >= 0, "must be >= 0")
    check(NAME, "interarrival", p["interarrival"] > 0, "must be > 0 (mean seconds)")
    check_range(NAME, "work_min", "work_max", p, 0)
    check_range(NAME, "cpus_min", "cpus_max", p, 1)
    check(NAME, "cpus_max", p["cpus_max"] <= p["machine_cpus_max"], "must be <= machine_cpus_max")
    check(NAME, "cpus_min", p["cpus_min"] <= p["machine_cpus_min"],
          "must be <= machine_cpus_min (every seed must draw a machine that wide)")  # fmt: skip
    check_deadline_params(NAME, float(p["deadline_share"]), float(p["deadline_factor"]))
    m, n = int(p["machines"]), int(p["jobs"])
    cpus = rng.integers(int(p["machine_cpus_min"]), int(p["machine_cpus_max"]) + 1, size=m)
    ratings = rng.integers(int(p["speed_min"]), int(p["speed_max"]) + 1, size=m)
    width = len(str(m))
    machines = tuple(
        Machine(f"m{i + 1:0{width}d}", int(c), float(r) / float(p["reference_speed"]))
        for i, (c, r) in enumerate(zip(cpus, ratings, strict=True))
    )
    widest = max(mc.cpus for mc in machines)  # >= machine_cpus_min >= cpus_min
    arrivals = np.cumsum(rng.exponential(float(p["interarrival"]), size=n))
    work = rng.integers(int(p["work_min"]), int(p["work_max"]) + 1, size=n)
    widths = rng.integers(int(p["cpus_min"]), min(int(p["cpus_max"]), widest) + 1, size=n)
    jobs = tuple(
        ClusterJob(str(i + 1), int(np.ceil(np.round(a, 9))), int(c), int(w))
        for i, (a, w, c) in enumerate(zip(arrivals, work, widths, strict=True))
    )
    jobs = with_deadlines(rng, jobs, float(p["deadline_share"]), float(p["deadline_factor"]))
    return Workload(machines, jobs, name=name)


FAMILY = Family(
    name=NAME,
    source="Klusáček & Rudová 2008, Experimental Evaluation: synthetic Grid job flow",
    defaults={
        "machines": 150,
        "machine_cpus_min": 1,
        "machine_cpus_max": 16,
        "speed_min": 200,
        "speed_max": 600,
        "reference_speed": 200.0,
        "jobs": 3000,
        "interarrival": 5.0,
        "work_min": 500,
        "work_max": 3000,
        "cpus_min": 1,
        "cpus_max": 8,
        "deadline_share": 0.7,
        "deadline_factor": 2.0,
    },
    build=build,
    produces="workload",
)
