"""Read and write cluster workloads: ``planner.workload/1`` JSON and SWF logs.

One entry point, :func:`read_workload`, for every job-flow command: a
``.json`` file is a ``planner.workload/1`` document, a ``.swf`` or ``.swf.gz``
file a Parallel Workloads Archive log (mapped as in
:mod:`instances.traces.swf_workload`). Every rejected file raises
:class:`InstanceFileError` naming the file, the JSON path (or ``line N``) and
the rule, e.g. ``w.json: jobs[3].cpus: must be an integer >= 1``.
``docs/workloads.md`` describes the format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

from instances.errors import DataError, InstanceFileError
from instances.workload import (
    MAX_CPUS,
    MAX_TIME,
    ClusterJob,
    Machine,
    Workload,
    trusted_jobs,
    trusted_workload,
)  # fmt: skip

FORMAT = "planner.workload/1"
ESTIMATES = ("requested", "actual")
"""``requested``: the file's estimates; ``actual``: every estimate set to the work."""

_TOP_KEYS = ("format", "name", "machines", "jobs")
_MACHINE_KEYS = ("id", "cpus", "speed")
_JOB_KEYS = ("id", "submit", "cpus", "work", "estimate", "deadline")
_JOB_REQUIRED = ("id", "submit", "cpus", "work")
_JOB_SET, _REQUIRED_SET = frozenset(_JOB_KEYS), frozenset(_JOB_REQUIRED)
_PLAIN_IDS = re.compile(r"(?:[ -~]{1,256}\n)*[ -~]{1,256}")
"""Printable ASCII ids of 1-256 characters, one per line: valid names under every rule."""


def workload_from_dict(doc: Any) -> Workload:
    """Build a :class:`Workload` from a parsed ``planner.workload/1`` document."""
    from instances.io import _build_list, _check_keys  # loads the slot model: JSON only

    if not isinstance(doc, dict):
        raise DataError("", "the document must be a JSON object")
    doc = _check_keys("", doc, _TOP_KEYS, ("format", "machines", "jobs"))  # null = absent
    if doc["format"] != FORMAT:
        raise DataError("format", f"must equal '{FORMAT}'")
    name = doc.get("name", "")
    machines = _build_list(doc, "machines", _MACHINE_KEYS, ("id", "cpus"), Machine)
    jobs = _plain_jobs(doc["jobs"])
    if jobs is None:  # something to refuse, or unusual: job by job, naming the first bad one
        jobs = _build_list(doc, "jobs", _JOB_KEYS, _JOB_REQUIRED, ClusterJob)
    return Workload(machines, jobs, name=name)


def _plain_jobs(items: Any) -> tuple[ClusterJob, ...] | None:
    """Return the jobs when every item is plainly valid, checked column by column; else None.

    Plain: an object with known keys and the required ones, a printable ASCII id
    of at most 256 characters, and integers (not booleans) within ClusterJob's
    bounds. Every such item passes ``ClusterJob.__post_init__``, so the jobs are
    built without it (:func:`~instances.workload.trusted_jobs`).
    """
    if not isinstance(items, list) or not all(
        isinstance(d, dict) and d.keys() <= _JOB_SET and d.keys() >= _REQUIRED_SET for d in items
    ):
        return None
    ids = [d["id"] for d in items]
    if items and set(map(type, ids)) != {str}:
        return None
    lines = "\n".join(ids)  # one id per line only if no id holds a line break
    if items and (lines.count("\n") != len(ids) - 1 or not _PLAIN_IDS.fullmatch(lines)):
        return None
    cols = [[d.get(k) for d in items] for k in ("submit", "cpus", "work", "estimate", "deadline")]
    bounds = ((0, MAX_TIME, False), (1, MAX_CPUS, False), (0, MAX_TIME, False),
              (0, MAX_TIME, True), (0, MAX_TIME, True))  # fmt: skip
    if not all(_within(col, *b) for col, b in zip(cols, bounds, strict=True)):
        return None
    return trusted_jobs(ids, *cols)


def _within(values: list[Any], low: int, high: int, optional: bool) -> bool:
    """Return True when every value is an int (or None if ``optional``) in [low, high]."""
    if not set(map(type, values)) <= ({int, type(None)} if optional else {int}):
        return False
    present = [v for v in values if v is not None] if optional else values
    return not present or (low <= min(present) and max(present) <= high)


def loads_workload(text: str, file: str = "<string>") -> Workload:
    """Parse ``planner.workload/1`` text; ``file`` names the source in error messages."""
    from instances.io import load_json  # loads the slot model: JSON only

    doc = load_json(text, file)
    try:
        return workload_from_dict(doc)
    except DataError as err:
        raise InstanceFileError(file, err.path, err.rule) from None


def read_workload(
    path: str | os.PathLike[str],
    *,
    machines: str | os.PathLike[str] | Sequence[Machine] | None = None,
    estimates: str = "requested",
) -> Workload:
    """Read a workload: ``planner.workload/1`` JSON, or an SWF log (``.swf``, ``.swf.gz``).

    Parameters
    ----------
    path
        The file; ``.json`` is read as ``planner.workload/1`` or as a Batsim
        workload (:mod:`instances.batsim`, told apart by their keys), ``.swf``,
        ``.swf.gz`` and ``.gz`` as SWF (gzip detected from the content). A
        bare name that is not a file here but a log bundled in
        ``instances/data/traces/`` (``KTH-SP2-1996-2.1-cln.swf.gz``,
        ``hpc2n-alea.swf.gz``) reads the bundled log; the same for machines.
    machines
        An Alea machines file (one machine per line, see
        :mod:`instances.traces.machines`) or machines; they replace the SWF
        header's cluster (MaxProcs, else MaxNodes, CPUs at speed 1) or the
        JSON file's machines. Jobs wider than every machine are then dropped
        and counted in :attr:`Workload.dropped`.
    estimates
        ``"requested"`` keeps the estimates; ``"actual"`` sets every estimate
        to the work (perfect estimates).

    Raises
    ------
    InstanceFileError
        One line naming the file, the JSON path or ``line N``, and the rule.
    ValueError
        For an unknown ``estimates`` value.
    """
    if estimates not in ESTIMATES:
        raise ValueError(f"estimates must be one of {', '.join(ESTIMATES)}, got {estimates!r}")
    name = bundled(os.fspath(path))
    given: tuple[Machine, ...] | None = None
    if isinstance(machines, (str, os.PathLike)):
        from instances.traces.machines import read_machines

        given = read_machines(bundled(os.fspath(machines)))
    elif machines is not None:
        given = tuple(machines)
    lower = name.lower()
    if lower.endswith(".json"):
        from instances.io import read_text

        workload = loads_json_workload(read_text(name), name)
        if given is not None:
            workload = with_machines(workload, given)
    elif lower.endswith((".swf", ".swf.gz", ".gz")):
        from instances.traces.swf_plain import read_swf_workload

        workload = read_swf_workload(name, given)
    else:
        raise InstanceFileError(name, "", "unknown workload type (expected .json, .swf or .swf.gz)")
    return perfect_estimates(workload) if estimates == "actual" else workload


def bundled(name: str) -> str:
    """Return the bundled trace file ``name`` when it is a bare name and no such file is here."""
    if os.path.exists(name) or os.sep in name or "/" in name:
        return name
    candidate = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "traces", name)
    return candidate if os.path.isfile(candidate) else name


def with_machines(workload: Workload, machines: Sequence[Machine]) -> Workload:
    """Return ``workload`` on ``machines``; jobs wider than every machine are dropped, counted."""
    widest = max((m.cpus for m in machines), default=0)
    kept = tuple(j for j in workload.jobs if j.cpus <= widest)
    dropped = dict(workload.dropped)
    if len(kept) < len(workload.jobs):
        reason = "wider_than_every_machine"
        dropped[reason] = dropped.get(reason, 0) + len(workload.jobs) - len(kept)
    return Workload(tuple(machines), kept, workload.name, tuple(dropped.items()))


def perfect_estimates(workload: Workload) -> Workload:
    """Return ``workload`` with every estimate equal to the work (``estimates="actual"``).

    The jobs were checked when ``workload`` was built and e_j = w_j keeps them
    valid, so they are rebuilt without per-job checks (the horizon is checked).
    """
    columns = workload.columns._replace(requested=workload.columns.work)
    return trusted_workload(workload.machines, None, workload.name, workload.dropped, columns)


def workload_to_dict(workload: Workload) -> dict[str, Any]:
    """Return the ``planner.workload/1`` document of ``workload`` (defaults omitted)."""
    return {
        "format": FORMAT,
        "jobs": [_job_dict(j) for j in workload.jobs],
        "machines": [{"cpus": m.cpus, "id": m.id, "speed": m.speed} for m in workload.machines],
        "name": workload.name,
    }


def _job_dict(job: ClusterJob) -> dict[str, Any]:
    d: dict[str, Any] = {"cpus": job.cpus, "id": job.id, "submit": job.submit, "work": job.work}
    if job.estimate is not None:
        d["estimate"] = job.estimate
    if job.deadline is not None:
        d["deadline"] = job.deadline
    return dict(sorted(d.items()))


def dumps_workload(workload: Workload) -> str:
    """Return the file text: sorted keys, one machine or job per line, jobs in queue order.

    Equal workloads give the same bytes.
    """
    from instances.io import dumps_document  # loads the slot model: JSON only

    return dumps_document(workload_to_dict(workload))


def write_workload(workload: Workload, path: str | os.PathLike[str]) -> None:
    """Write ``workload`` to ``path`` as ``planner.workload/1`` (same workload, same bytes)."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(dumps_workload(workload))


def loads_json_workload(text: str, file: str = "<string>") -> Workload:
    """Parse a JSON workload of either format: ``planner.workload/1`` or Batsim.

    A document with ``nb_res`` and no ``format`` is Batsim's; any other goes to the
    ``planner.workload/1`` reader. A JSON object with neither key names both formats.
    """
    from instances.batsim import batsim_name, is_batsim, workload_from_batsim
    from instances.io import load_json  # loads the slot model: JSON only

    doc = load_json(text, file)
    if is_batsim(doc):
        try:
            return workload_from_batsim(doc, batsim_name(file))
        except DataError as err:
            raise InstanceFileError(file, err.path, err.rule) from None
    if isinstance(doc, dict) and "format" not in doc:
        raise InstanceFileError(file, "", "missing required key 'format' (a planner.workload/1 "
                                "document; a Batsim workload has 'nb_res' instead)")  # fmt: skip
    return loads_workload(text, file)
