"""Whole-trace replays of the cluster simulator: seconds and jobs/s per policy.

Usage::

    python benchmarks/bench_cluster.py [TRACE ...] [--machines FILE] [--repeat 3]
    python benchmarks/bench_cluster.py --accasim     # AccaSim 1.1.3 side by side (if installed)
    python benchmarks/bench_cluster.py --pyss-stats  # EASY metrics as pyss counts them too

Without a TRACE it replays the packaged KTH-SP2 log (28,475 jobs, one
100-CPU machine). For each trace and policy it prints the machine-independent
counts (jobs, event instants, reservation-log rows) beside the median wall
clock of ``--repeat`` replays (reading the trace excluded, timed once
separately) and jobs per second, and the replay's mean wait and mean bounded
slowdown. The machine is shared and noisy: compare ratios of one run.

``--accasim`` runs AccaSim's EASY backfilling and FIFO on the same SWF file
(one repeat; AccaSim 1.1.3 needs ``collections.Mapping`` &c. restored on
Python >= 3.10, done here) and reports its seconds, its mean wait and mean
bounded slowdown computed from its dispatching plan, and the time ratio.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from instances import read_workload
from planner.cluster import POLICIES, ReservationLog, simulate

KTH = Path(__file__).parents[1] / "instances" / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"


def replay(workload: Any, policy: str, repeat: int) -> tuple[Any, float, int]:
    """Return (last replay, median seconds, reservation rows) of ``repeat`` replays."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        rep = simulate(workload, policy)
        times.append(time.perf_counter() - began)
    log = ReservationLog()
    simulate(workload, policy, log=log)
    return rep, statistics.median(times), len(log.rows)


def pyss_stats(records: list[Any]) -> tuple[int, float, float]:
    """Return (jobs counted, mean wait, mean bsld) as pyss's ``print_statistics`` counts them.

    pyss (used by predictsim, Gaubert et al.) skips "tiny" jobs (estimate 1 s on
    one CPU), the first 1% of jobs by finish time, and every job finishing
    after the last submission; run times are at least 1 s.
    """
    last_submit = max(r.submit for r in records)
    size = len(records)
    skip = size // 100
    seen = counted = 0
    waits = bslds = 0.0
    for r in sorted(records, key=lambda r: r.finish):
        seen += 1
        run = max(r.duration, 1)
        if max(r.requested, r.duration, 1) == 1 and r.cpus == 1:
            size -= 1
            skip = size // 100
            continue
        if size >= 100 and seen <= skip:
            continue
        if r.finish > last_submit:
            break
        counted += 1
        waits += r.wait
        bslds += max(1.0, (r.wait + run) / max(run, 10))
    return counted, waits / counted, bslds / counted


def accasim(trace: Path, cpus: int, policy: str) -> tuple[float, int, float, float]:
    """Run AccaSim 1.1.3 on ``trace``: (seconds, jobs, mean wait, mean bsld) from its plan."""
    import collections
    import collections.abc
    import datetime as dt
    import json

    for name in ("Mapping", "MutableMapping", "Sequence", "Iterable", "Callable"):
        setattr(collections, name, getattr(collections.abc, name))
    from accasim.base.allocator_class import FirstFit
    from accasim.base.scheduler_class import EASYBackfilling, FirstInFirstOut
    from accasim.base.simulator_class import Simulator

    with tempfile.TemporaryDirectory() as tmp:
        swf = Path(tmp) / "trace.swf"
        opener = gzip.open if trace.read_bytes()[:2] == b"\x1f\x8b" else open
        with opener(trace, "rb") as src:
            swf.write_bytes(src.read())
        config = Path(tmp) / "sys.json"
        config.write_text(json.dumps({"groups": {"g0": {"core": 1}}, "resources": {"g0": cpus},
                                      "equivalence": {"processor": {"core": 1}}}))  # fmt: skip
        dispatcher = (EASYBackfilling if policy == "easy" else FirstInFirstOut)(FirstFit())
        sim = Simulator(str(swf), str(config), dispatcher,
                        RESULTS_FOLDER_PATH=str(Path(tmp) / "out"), statistics_output=False,
                        show_statistics=False, LOG_LEVEL="ERROR")  # fmt: skip
        began = time.perf_counter()
        sim.start_simulation()
        seconds = time.perf_counter() - began

        def ts(text: str) -> int:
            stamp = dt.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
            return int(stamp.replace(tzinfo=dt.timezone.utc).timestamp())

        waits, bslds = [], []
        (plan,) = (Path(tmp) / "out").glob("sched-*")
        for line in plan.read_text().splitlines():
            head, _, tail = line.split("__")
            queued = ts(head.split(";")[2])
            start, end = (ts(x) for x in tail.split(";")[:2])
            waits.append(start - queued)
            bslds.append(max(1.0, (end - queued) / max(end - start, 10)))
    return seconds, len(waits), statistics.mean(waits), statistics.mean(bslds)


def main() -> None:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("traces", nargs="*", type=Path, help="SWF logs (default: packaged KTH-SP2)")
    ap.add_argument("--machines", help="Alea machines file for every trace")
    ap.add_argument("--policies", nargs="+", default=list(POLICIES))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--accasim", action="store_true", help="also run AccaSim 1.1.3 (EASY, FIFO)")
    ap.add_argument("--pyss-stats", action="store_true", help="EASY metrics as pyss counts them")
    args = ap.parse_args()
    if args.accasim:
        import importlib.util

        if importlib.util.find_spec("accasim") is None:
            raise SystemExit("--accasim needs AccaSim: pip install accasim==1.1.3")
    print("| trace | policy | jobs | instants | reservation rows | seconds | jobs/s "
          "| mean wait (s) | mean bsld |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    ours: dict[tuple[str, str], float] = {}
    for trace in args.traces or [KTH]:
        began = time.perf_counter()
        workload = read_workload(trace, machines=args.machines)
        read_s = time.perf_counter() - began
        for policy in args.policies:
            rep, secs, rows = replay(workload, policy, args.repeat)
            s = rep.summary()
            ours[(trace.name, policy)] = secs
            print(f"| {trace.name} | {policy} | {s['jobs']} | {rep.instants} | {rows} | "
                  f"{secs:.2f} | {s['jobs'] / secs:,.0f} | {s['mean_wait']:.1f} | "
                  f"{s['mean_bounded_slowdown']:.2f} |")  # fmt: skip
            if args.pyss_stats and policy == "easy":
                n, w, b = pyss_stats(rep.records)
                print(f"| {trace.name} (pyss statistics: {n} jobs) | easy | | | | | | {w:.1f} | "
                      f"{b:.2f} |")  # fmt: skip
        print(f"\n(reading {trace.name}: {read_s:.2f} s, {len(workload.jobs)} jobs, "
              f"{sum(c for _, c in workload.dropped)} dropped)\n")  # fmt: skip
    if args.accasim:
        print("| trace | AccaSim policy | jobs | seconds | mean wait (s) | mean bsld "
              "| AccaSim / ours |")  # fmt: skip
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for trace in args.traces or [KTH]:
            cpus = read_workload(trace, machines=args.machines).total_cpus
            for policy, name in (("easy", "EASYBackfilling"), ("fcfs", "FirstInFirstOut")):
                secs, n, w, b = accasim(trace, cpus, policy)
                ratio = secs / ours[(trace.name, policy)] if (trace.name, policy) in ours else None
                print(f"| {trace.name} | {name} | {n} | {secs:.1f} | {w:.1f} | {b:.2f} | "
                      f"{'-' if ratio is None else f'{ratio:.0f}x'} |")  # fmt: skip


if __name__ == "__main__":
    main()
