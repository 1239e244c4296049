"""Read and write Batsim workload JSON (Dutot, Mercier, Poquet & Richard 2016; docs/workloads.md).

A Batsim workload describes ``nb_res`` identical resources, jobs and their
profiles::

    {"nb_res": 4,
     "jobs": [{"id": "1", "subtime": 0, "walltime": 100, "res": 2, "profile": "delay_80"}],
     "profiles": {"delay_80": {"type": "delay", "delay": 80}}}

It maps onto a :class:`Workload` as: ``nb_res`` ↔ one machine of that many CPUs
at speed 1 (named ``cluster``), ``subtime`` ↔ submit, ``res`` ↔ cpus, the
``delay`` of the job's profile ↔ work, ``walltime`` ↔ estimate (absent or -1:
none, a perfect estimate), ``description`` ↔ the workload's name. Only
``delay`` profiles have a run time planner can replay; times must be whole
seconds. planner writes a job's deadline as the extra job key ``deadline``
(Batsim passes job keys it does not know on to the scheduler).
"""

from __future__ import annotations

import json
import os
from typing import Any

from instances.errors import DataError
from instances.io import _check_keys, dumps_document
from instances.text import plural
from instances.workload import MAX_CPUS, MAX_TIME, ClusterJob, Machine, Workload

MACHINE = "cluster"
"""The id of the one machine a Batsim workload's ``nb_res`` resources become."""

_TOP_KEYS = ("nb_res", "jobs", "profiles", "description", "command", "date", "version", "seed")
_JOB_KEYS = ("id", "subtime", "walltime", "res", "profile", "deadline")
_PROFILE_KEYS = ("type", "delay")


def profile_name(work: int) -> str:
    """Return the name of the delay profile of ``work`` seconds (``delay_<work>``)."""
    return f"delay_{work}"


def is_batsim(doc: Any) -> bool:
    """Return True when ``doc`` (parsed JSON) is meant as a Batsim workload (it has ``nb_res``)."""
    return isinstance(doc, dict) and "nb_res" in doc and "format" not in doc


def _seconds(path: str, value: Any, minimum: int = 0) -> int:
    """Return a JSON number of whole seconds as an int (Batsim writes ``10.0`` for 10)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DataError(path, "must be a number of seconds")
    if value != int(value):
        raise DataError(path, "must be a whole number of seconds (planner's times are integers)")
    if not minimum <= value <= MAX_TIME:
        raise DataError(path, f"must be between {minimum} and {MAX_TIME} seconds")
    return int(value)


def _count(path: str, value: Any) -> int:
    """Return a resource count: an integer in [1, MAX_CPUS]."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CPUS:
        raise DataError(path, f"must be an integer between 1 and {MAX_CPUS}")
    return value


def workload_from_batsim(doc: Any, name: str = "") -> Workload:
    """Build a :class:`Workload` from a parsed Batsim workload; raise :class:`DataError`.

    ``name`` is used when the document has no ``description``.
    """
    if not isinstance(doc, dict):
        raise DataError("", "the document must be a JSON object")
    _check_keys("", doc, _TOP_KEYS, ("nb_res", "jobs", "profiles"))
    cpus = _count("nb_res", doc["nb_res"])
    profiles = doc["profiles"]
    if not isinstance(profiles, dict):
        raise DataError("profiles", "must be an object")
    delays = {key: _delay(f"profiles.{key}", value) for key, value in profiles.items()}
    if not isinstance(doc["jobs"], list):
        raise DataError("jobs", "must be an array")
    jobs = tuple(_job(f"jobs[{i}]", raw, delays, cpus) for i, raw in enumerate(doc["jobs"]))
    description = doc.get("description", name)
    if not isinstance(description, str):
        raise DataError("description", "must be a string")
    return Workload((Machine(MACHINE, cpus),), jobs, name=description)


def _delay(path: str, profile: Any) -> int:
    if not isinstance(profile, dict):
        raise DataError(path, "must be an object")
    kind = _check_keys(path, profile, tuple(profile), ("type",))["type"]
    if kind != "delay":
        raise DataError(f"{path}.type", f"{kind!r} is not supported (only 'delay' profiles have "
                        "a run time planner can replay)")  # fmt: skip
    fields = _check_keys(path, profile, _PROFILE_KEYS, _PROFILE_KEYS)
    return _seconds(f"{path}.delay", fields["delay"])


def _job(path: str, raw: Any, delays: dict[str, int], nb_res: int) -> ClusterJob:
    fields = _check_keys(path, raw, _JOB_KEYS, ("id", "subtime", "res", "profile"))
    job_id = fields["id"]
    if isinstance(job_id, bool) or not isinstance(job_id, (str, int)):
        raise DataError(f"{path}.id", "must be a string or an integer")
    profile = fields["profile"]
    if not isinstance(profile, str) or profile not in delays:
        raise DataError(f"{path}.profile", f"names no profile of 'profiles' ({profile!r})")
    res = _count(f"{path}.res", fields["res"])
    if res > nb_res:
        raise DataError(f"{path}.res", f"must be <= nb_res ({nb_res})")
    walltime = fields.get("walltime", -1)
    estimate = None if walltime == -1 else _seconds(f"{path}.walltime", walltime)
    deadline = fields.get("deadline")
    try:
        return ClusterJob(
            str(job_id), _seconds(f"{path}.subtime", fields["subtime"]),
            res, delays[profile], estimate,
            None if deadline is None else _seconds(f"{path}.deadline", deadline),
        )  # fmt: skip
    except DataError as err:
        raise err if err.path.startswith(path) else err.within(path) from None


def batsim_name(file: str) -> str:
    """Return the workload name of a Batsim file: its base name without ``.json``."""
    base = os.path.basename(file)
    return base[:-5] if base.lower().endswith(".json") else base


def batsim_from_workload(workload: Workload) -> dict[str, Any]:
    """Return the Batsim workload document of ``workload`` (one profile per distinct work).

    Raises
    ------
    ValueError
        Unless the workload has exactly one machine at speed 1 (Batsim's ``nb_res``).
    """
    if len(workload.machines) != 1 or workload.machines[0].speed != 1.0:
        low, high = min(m.speed for m in workload.machines), max(m.speed for m in workload.machines)
        speeds = f"{low:g}" if low == high else f"{low:g} to {high:g}"
        raise ValueError(
            "a Batsim workload is one machine of nb_res CPUs at speed 1; this workload has "
            f"{plural(len(workload.machines), 'machine')} at speed {speeds}"
        )
    jobs, profiles = [], {}
    for job in workload.jobs:
        profile = profile_name(job.work)
        profiles[profile] = {"type": "delay", "delay": job.work}
        entry: dict[str, Any] = {"id": job.id, "subtime": job.submit, "res": job.cpus,
                                 "profile": profile}  # fmt: skip
        if job.estimate is not None:
            entry["walltime"] = job.estimate
        if job.deadline is not None:
            entry["deadline"] = job.deadline
        jobs.append(entry)
    return {"description": workload.name, "nb_res": workload.machines[0].cpus, "jobs": jobs,
            "profiles": dict(sorted(profiles.items(), key=lambda kv: kv[1]["delay"]))}  # fmt: skip


def dumps_batsim(workload: Workload) -> str:
    """Return ``workload`` as Batsim workload JSON text (deterministic; one job, one profile
    per line)."""
    doc = batsim_from_workload(workload)
    profiles = doc.pop("profiles")
    text = dumps_document(doc)[: -len("\n}\n")]
    lines = [f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in profiles.items()]
    return text + ',\n  "profiles": {\n' + ",\n".join(lines) + "\n  }\n}\n"
