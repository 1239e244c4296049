"""Family ``swf``: slot lists from a real SWF log (Parallel Workloads Archive).

The log's jobs are the nodes' local load (start = submit + wait, the run
time, the allocated processors), packed onto concrete processors by the
deterministic first fit of :mod:`instances.traces.packing` (never more than
MaxProcs at once); the window ``[start, start + length)`` seconds, in quanta
of ``quantum`` seconds, minus that load gives each node's free slots. Each
processor is a node whose performance and price are drawn by seed as in
Toporkov et al. 2012 §3.1 (integer performance uniform in [2, 10], price ``1.9 · p ·
(1 + e)``, ``e ~ N(0, 0.15)``), and the job is Toporkov et al. 2012's (n = 5, V = 150,
S = 1500). Log records with unknown run time or processors are skipped
(counted by :func:`instances.traces.read_swf`).

``trace`` is a path, or the name of a log bundled in
``instances/data/traces/`` (default: the KTH SP2 log, 100 processors; its
header credits the contributor). The default window starts 30 days into the
log and lasts one day (1440 one-minute quanta).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from instances.generators.base import Family, check
from instances.generators.environment import market_nodes
from instances.generators.toporkov2012 import seed002_job
from instances.instance import Instance
from instances.limits import SWF_NODES_MAX, num
from instances.text import plural
from instances.traces import Packing, SwfError, SwfLog, pack, read_swf, window_busy

NAME = "swf"
BUNDLED = Path(__file__).resolve().parent.parent / "data" / "traces"
DEFAULT_TRACE = "KTH-SP2-1996-2.1-cln.swf.gz"


def trace_path(trace: str) -> str:
    """Return the path of ``trace``: a bundled log's name, or a path as given."""
    bundled = BUNDLED / trace
    if os.sep not in trace and "/" not in trace and bundled.is_file():
        return str(bundled)
    return trace


def build(rng: np.random.Generator, name: str, **p: float | int | str) -> Instance:
    """Cut the window out of the packed log and draw node characteristics by seed."""
    check(NAME, "start", p["start"] >= 0, "must be >= 0 (seconds from the log's start)")
    check(NAME, "length", p["length"] > 0, "must be > 0 (seconds)")
    check(NAME, "quantum", p["quantum"] > 0, "must be > 0 (seconds)")
    check(NAME, "max_procs", p["max_procs"] >= 0, "must be >= 0 (0: the log's MaxProcs)")
    check(NAME, "performance_min", 1 <= p["performance_min"] <= p["performance_max"],
          "must be between 1 and performance_max")  # fmt: skip
    check(NAME, "price_deviation", 0 <= p["price_deviation"] < 1 / 3, "must be in [0, 1/3)")
    job = seed002_job(NAME, p)
    _, packing = packed(str(p["trace"]), int(p["max_procs"]))
    nodes = market_nodes(
        rng,
        packing.processors,
        performance=(int(p["performance_min"]), int(p["performance_max"])),
        unit_price=float(p["unit_price"]),
        deviation=float(p["price_deviation"]),
    )
    busy, horizon = window_busy(
        packing,
        [n.id for n in nodes],
        float(p["start"]),
        float(p["length"]),
        float(p["quantum"]),
    )
    return Instance(
        nodes=tuple(nodes), jobs=(job,), name=name, horizon=(0, horizon), busy=tuple(busy)
    )


def packed(trace: str, max_procs: int = 0) -> tuple[SwfLog, Packing]:
    """Return the parsed log and its packing on ``max_procs`` (0: the header's MaxProcs)."""
    path = trace_path(trace)
    try:
        stat = os.stat(path)
    except OSError as err:
        raise ValueError(f"family '{NAME}': {path}: cannot read file ({err.strerror})") from None
    return _packed(path, stat.st_mtime_ns, stat.st_size, max_procs)


@lru_cache(maxsize=4)
def _packed(path: str, _mtime: int, _size: int, max_procs: int) -> tuple[SwfLog, Packing]:
    try:
        log = read_swf(path)
    except SwfError as err:
        raise ValueError(f"family '{NAME}': {err}") from None
    procs = max_procs or log.max_procs
    if procs is None:
        raise ValueError(f"family '{NAME}': {path} has no MaxProcs header; give max_procs")
    if procs > SWF_NODES_MAX:
        raise ValueError(f"family '{NAME}': {procs} processors (each one a node) must be <= "
                         f"{num(SWF_NODES_MAX)}; give a smaller max_procs")  # fmt: skip
    return log, pack(log, procs)


def summary(trace: str, max_procs: int = 0) -> str:
    """Return one line: records used, skipped and delayed while reading and packing ``trace``."""
    log, packing = packed(trace, max_procs)
    skipped = {**log.skipped, **packing.counts}
    delayed = skipped.pop("delayed", 0)
    parts = ", ".join(f"{k} {v}" for k, v in sorted(skipped.items())) or "none"
    waits = f"; unknown wait taken as 0: {log.wait_unknown}" if log.wait_unknown else ""
    return (
        f"{log.path}: {plural(len(packing.jobs), 'job')} packed on "
        f"{plural(packing.processors, 'processor')} "
        f"({delayed} delayed); skipped: {parts}{waits}"
    )


FAMILY = Family(
    name=NAME,
    source=(
        "real SWF log (Parallel Workloads Archive) as local load; "
        "nodes, job: Toporkov et al. 2012 §3.1"
    ),
    defaults={
        "trace": DEFAULT_TRACE,
        "start": 30 * 86400,
        "length": 86400,
        "quantum": 60,
        "max_procs": 0,
        "performance_min": 2,
        "performance_max": 10,
        "unit_price": 1.9,
        "price_deviation": 0.15,
        "job_nodes": 5,
        "volume": 150.0,
        "budget": 1500,
        "criterion": "min_start",
    },
    build=build,
)
