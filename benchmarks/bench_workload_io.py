"""Benchmark: reading, generating and writing cluster workloads (``docs/workloads.md``).

Usage::

    python benchmarks/bench_workload_io.py [--repeats 5]

Times, as medians of ``--repeats`` cold runs (the SWF parse cache is cleared
before each): reading the bundled KTH SP2 log (28,476 records, gzipped) and
the HPC2N excerpt of Alea with its machines file through
``instances.read_workload``; generating the ``klusacek2008`` flow (3,000
jobs); writing it (``dumps_workload``) and reading it back
(``loads_workload``). Each line prints the machine-independent counts
(records, jobs, bytes) beside the time. Target: the whole KTH log in well
under a second.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from instances import dumps_workload, generate_workload, loads_workload, read_workload
from instances.generators.swf import BUNDLED
from instances.traces import swf


def _median(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeats):
        swf._table_cached.cache_clear()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> None:
    """Print one line per operation: counts, then the median wall time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    kth = BUNDLED / "KTH-SP2-1996-2.1-cln.swf.gz"
    hpc = BUNDLED / "hpc2n-alea.swf.gz"
    machines = BUNDLED / "hpc2n-alea.swf.machines"
    rows: list[tuple[str, str, float]] = []

    seconds, w = _median(lambda: read_workload(kth), args.repeats)
    records = len(w.jobs) + sum(n for _, n in w.dropped)
    rows.append(("read KTH-SP2 .swf.gz", f"{records} records, {len(w.jobs)} jobs", seconds))
    seconds, w = _median(lambda: read_workload(hpc, machines=machines), args.repeats)
    rows.append(("read HPC2N (Alea) + machines", f"{len(w.jobs)} jobs", seconds))
    seconds, flow = _median(lambda: generate_workload("klusacek2008", 1), args.repeats)
    rows.append(("generate klusacek2008", f"{len(flow.jobs)} jobs", seconds))
    seconds, text = _median(lambda: dumps_workload(flow), args.repeats)
    rows.append(("dumps_workload", f"{len(text)} bytes", seconds))
    seconds, _ = _median(lambda: loads_workload(text), args.repeats)
    rows.append(("loads_workload", f"{len(flow.jobs)} jobs", seconds))

    width = max(len(r[0]) for r in rows)
    print(f"{'operation':<{width}}  {'counts':<32}  median (s), {args.repeats} runs")
    for name, counts, secs in rows:
        print(f"{name:<{width}}  {counts:<32}  {secs:.3f}")


if __name__ == "__main__":
    main()
