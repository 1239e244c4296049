"""Family ``swf-workload``: a real SWF log as a job flow, with synthetic deadlines.

The log is mapped to jobs as :func:`instances.read_workload` does
(``docs/workloads.md``, "From SWF to jobs"; dropped records are counted in
the workload and reported by ``planner generate``); the machines come from
the header (MaxProcs, else MaxNodes, CPUs at speed 1) or from an Alea
machines file (``machines``). ``jobs`` > 0 keeps the first jobs of the log
only. Deadlines follow :mod:`instances.generators.deadlines` (the only
random draw): ``round(deadline_share · n)`` random jobs get
``r_j + ceil(deadline_factor · e_j)``, the Alea loader's twice the requested
time. ``trace`` and ``machines`` are paths or the names of files bundled in
``instances/data/traces/`` (default: the KTH SP2 log; also the HPC2N
excerpt of Alea, ``hpc2n-alea.swf.gz`` with ``hpc2n-alea.swf.machines``).
"""

from __future__ import annotations

import numpy as np

from instances.errors import InstanceFileError
from instances.generators.base import Family, check
from instances.generators.deadlines import check_deadline_params, with_deadlines
from instances.generators.swf import DEFAULT_TRACE, trace_path
from instances.traces.machines import read_machines
from instances.traces.swf_workload import swf_table, workload_from_swf
from instances.workload import Workload
from instances.workload_io import ESTIMATES, perfect_estimates

NAME = "swf-workload"


def build(rng: np.random.Generator, name: str, **p: float | int | str) -> Workload:
    """Read the log, keep the first ``jobs`` jobs and draw the deadlines."""
    check(NAME, "jobs", p["jobs"] >= 0, "must be >= 0 (0: every job)")
    check(NAME, "estimates", p["estimates"] in ESTIMATES, f"must be one of {', '.join(ESTIMATES)}")
    check_deadline_params(NAME, float(p["deadline_share"]), float(p["deadline_factor"]))
    try:
        machines = read_machines(trace_path(str(p["machines"]))) if p["machines"] else None
        workload = workload_from_swf(swf_table(trace_path(str(p["trace"]))), machines,
                                     limit=int(p["jobs"]))  # fmt: skip
    except InstanceFileError as err:
        raise ValueError(f"family '{NAME}': {err}") from None
    if p["estimates"] == "actual":
        workload = perfect_estimates(workload)
    jobs = with_deadlines(
        rng, workload.jobs, float(p["deadline_share"]), float(p["deadline_factor"])
    )
    return Workload(workload.machines, jobs, name=name, dropped=workload.dropped)


FAMILY = Family(
    name=NAME,
    source="real SWF log (Parallel Workloads Archive) as a job flow; Alea-style deadlines",
    defaults={
        "trace": DEFAULT_TRACE,
        "machines": "",
        "jobs": 0,
        "estimates": "requested",
        "deadline_share": 0.7,
        "deadline_factor": 2.0,
    },
    build=build,
    produces="workload",
)
