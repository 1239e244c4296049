"""Whole-trace replays of the cluster simulator: seconds and jobs/s per policy.

Usage::

    python benchmarks/bench_cluster.py [TRACE ...] [--machines FILE] [--repeat 3]
    python benchmarks/bench_cluster.py --accasim     # AccaSim 1.1.3 side by side (if installed)
    python benchmarks/bench_cluster.py --pyss-stats  # EASY metrics as pyss counts them too
    python benchmarks/bench_cluster.py --end-to-end [--baseline DIR]  # the whole command
    python benchmarks/bench_cluster.py --linearity   # whole-command CPU time against length

Without a TRACE it replays the packaged KTH-SP2 log (28,475 jobs, one
100-CPU machine). For each trace and policy it prints the machine-independent
counts (jobs, event instants, reservation-log rows) beside the median wall
clock of ``--repeat`` replays (reading the trace excluded, timed once
separately) and jobs per second, and the replay's mean wait and mean bounded
slowdown. The machine is shared and noisy: compare ratios of one run.

``--end-to-end`` times the whole command, ``planner simulate TRACE --policy P
-o jobs.csv`` (start-up, reading, replay, writing), against the independent
minimal replay ``benchmarks/yardstick.py`` (read and replay, no write), each in
a fresh interpreter, alternating, ``--repeat`` times (default 7) after a
warm-up, for FCFS, EASY and conservative backfilling on KTH-SP2 (or the
TRACEs given). It prints the counts (jobs, event instants), whether both
compute the same start for every job, the medians of wall and CPU seconds and
their ratios, and the load average. ``--baseline DIR`` also times the command
of another checkout (its folder on ``PYTHONPATH``) in the same alternation.
``--instructions`` (needs ``valgrind``) also counts the machine instructions
of one run of each command under cachegrind and prints their ratio: unlike
times, counts do not move with the machine's load (string hashing is
randomised per run, so they move by a few M between runs).
``--linearity`` prints the whole command's CPU seconds per job on the first
quarter, the first half, all of KTH-SP2 and four back-to-back copies.

``--accasim`` runs AccaSim's EASY backfilling and FIFO on the same SWF file
(one repeat; AccaSim 1.1.3 needs ``collections.Mapping`` &c. restored on
Python >= 3.10, done here) and reports its seconds, its mean wait and mean
bounded slowdown computed from its dispatching plan, and the time ratio.
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from instances import read_workload
from planner.cluster import POLICIES, ReservationLog, simulate

ROOT = Path(__file__).parents[1]
BUNDLED = ROOT / "instances" / "data" / "traces"
KTH = BUNDLED / "KTH-SP2-1996-2.1-cln.swf.gz"
YARDSTICK = Path(__file__).parent / "yardstick.py"
"""The independent minimal replay the whole command is compared with."""


def replay(workload: Any, policy: str, repeat: int, clock: Any = time.perf_counter
           ) -> tuple[Any, float, int]:  # fmt: skip
    """Return (last replay, median seconds of ``clock``, reservation rows) of ``repeat`` replays."""
    times = []
    for _ in range(repeat):
        began = clock()
        rep = simulate(workload, policy)
        times.append(clock() - began)
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


def concatenated(trace: Path, copies: float, out: Path) -> Path:
    """Write an SWF log of ``copies`` times ``trace``'s records: back-to-back copies (job numbers
    and submits shifted per copy), or its first records when ``copies`` < 1."""
    opener = gzip.open if trace.read_bytes()[:2] == b"\x1f\x8b" else open
    with opener(trace, "rt", encoding="ascii") as fh:
        lines = fh.read().splitlines()
    header = [ln for ln in lines if ln.startswith(";")]
    records = [ln.split() for ln in lines if ln.strip() and not ln.startswith(";")]
    numbers = max(int(f[0]) for f in records)
    span = max(int(f[1]) for f in records) + 1
    with open(out, "w", encoding="ascii") as fh:
        fh.write("\n".join(header) + "\n")
        if copies < 1:
            for f in records[: round(copies * len(records))]:
                fh.write(" ".join(f) + "\n")
            return out
        for k in range(int(copies)):
            for f in records:
                fh.write(" ".join([str(int(f[0]) + k * numbers), str(int(f[1]) + k * span),
                                   *f[2:]]) + "\n")  # fmt: skip
    return out


def timed(argv: list[str], code: Path | None = None) -> tuple[float, float]:
    """Run ``argv`` (a Python script or module and its arguments) in a fresh interpreter;
    return (wall, CPU) seconds of the child. ``code``: a checkout put first on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run([sys.executable, *argv], check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=code or ROOT)  # fmt: skip
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def same_starts(trace: Path, policy: str, tmp: Path) -> tuple[int, int, int]:
    """Return (jobs, event instants, jobs whose start differs) of planner against the yardstick."""
    import csv
    import json

    subprocess.run([sys.executable, str(YARDSTICK), str(trace), "--policy", policy, "-o",
                    str(tmp / "starts.csv")], check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    out = subprocess.run([sys.executable, "-m", "planner.cli", "simulate", str(trace), "--policy",
                          policy, "-o", str(tmp / "jobs.csv"), "--json"],
                         check=True, capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    summary = json.loads(out.stdout)
    with open(tmp / "starts.csv", encoding="ascii") as fh:
        theirs = {r["job_id"]: r["start"] for r in csv.DictReader(fh)}
    with open(tmp / "jobs.csv", encoding="utf-8") as fh:
        ours = {r["job_id"]: r["starting_time"] for r in csv.DictReader(fh)}
    differ = sum(theirs.get(k) != v for k, v in ours.items()) + len(theirs.keys() - ours.keys())
    return summary["jobs"], summary["instants"], differ


def end_to_end(policies: list[str], repeat: int, baseline: Path | None, traces: list[Path],
               counted: bool = False) -> None:  # fmt: skip
    """Print the whole command beside the yardstick, alternating, medians of ``repeat`` runs
    (``counted``: and the instructions of one run of each, counted by cachegrind)."""
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    extra = " before (s) | before / planner |" if baseline else ""
    if counted:
        extra += " planner (M instr) | yardstick (M instr) | instruction ratio |"
    print("| trace | policy | jobs | instants | same starts | planner (s) | planner CPU (s) "
          f"| yardstick (s) | yardstick CPU (s) | planner / yardstick | CPU ratio |{extra}")
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
          + (" ---: | ---: |" if baseline else "")
          + (" ---: | ---: | ---: |" if counted else ""))  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for trace in traces:
            for policy in policies:
                jobs, instants, differ = same_starts(trace, policy, Path(tmp))
                commands: dict[str, tuple[list[str], Path | None]] = {
                    "planner": (["-m", "planner.cli", "simulate", str(trace), "--policy", policy,
                                 "-o", str(Path(tmp) / "jobs.csv")], None),
                    "yardstick": ([str(YARDSTICK), str(trace), "--policy", policy], None),
                }  # fmt: skip
                if baseline:
                    commands["before"] = (commands["planner"][0], baseline)
                runs: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
                for argv, code in commands.values():  # warm-up: byte-compile, page cache
                    timed(argv, code)
                for _ in range(repeat):
                    for name, (argv, code) in commands.items():
                        runs[name].append(timed(argv, code))
                wall = {k: statistics.median(w for w, _ in v) for k, v in runs.items()}
                cpu = {k: statistics.median(c for _, c in v) for k, v in runs.items()}
                row = (f"| {trace.name} | {policy} | {jobs:,} | {instants:,} | "
                       f"{'yes' if not differ else f'NO ({differ} differ)'} | "
                       f"{wall['planner']:.2f} | {cpu['planner']:.2f} | {wall['yardstick']:.2f} | "
                       f"{cpu['yardstick']:.2f} | {wall['planner'] / wall['yardstick']:.2f} | "
                       f"{cpu['planner'] / cpu['yardstick']:.2f} |")  # fmt: skip
                if baseline:
                    row += f" {wall['before']:.2f} | {wall['before'] / wall['planner']:.2f} |"
                if counted:
                    from cluster_stages import instructions

                    ours = instructions(commands["planner"][0])
                    theirs = instructions(commands["yardstick"][0])
                    row += f" {ours / 1e6:,.0f} | {theirs / 1e6:,.0f} | {ours / theirs:.2f} |"
                print(row, flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def linearity(policies: list[str], repeat: int) -> None:
    """Print the whole command's CPU seconds per job on 1/4, 1/2, all and 4 times KTH-SP2."""
    print("| policy | copies of KTH-SP2 | jobs | planner CPU (s) | µs per job "
          "| yardstick CPU (s) | µs per job |")  # fmt: skip
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for copies in (0.25, 0.5, 1, 4):
            trace = concatenated(KTH, copies, Path(tmp) / f"kth-{copies}.swf")
            for policy in policies:
                jobs, _, _ = same_starts(trace, policy, Path(tmp))
                argv = {"planner": ["-m", "planner.cli", "simulate", str(trace), "--policy",
                                    policy, "-o", str(Path(tmp) / "jobs.csv")],
                        "yardstick": [str(YARDSTICK), str(trace), "--policy", policy]}  # fmt: skip
                cpu: dict[str, list[float]] = {k: [] for k in argv}
                for _ in range(repeat):
                    for name, a in argv.items():
                        cpu[name].append(timed(a)[1])
                ours, theirs = (statistics.median(cpu[k]) for k in ("planner", "yardstick"))
                print(f"| {policy} | {copies:g} | {jobs:,} | {ours:.2f} | {1e6 * ours / jobs:.1f} "
                      f"| {theirs:.2f} | {1e6 * theirs / jobs:.1f} |", flush=True)


def main() -> None:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("traces", nargs="*", type=Path, help="SWF logs (default: packaged KTH-SP2)")
    ap.add_argument("--machines", help="Alea machines file for every trace")
    ap.add_argument("--policies", nargs="+", help="default: all (--end-to-end: easy)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per median (--end-to-end: 7)")
    ap.add_argument("--accasim", action="store_true", help="also run AccaSim 1.1.3 (EASY, FIFO)")
    ap.add_argument("--pyss-stats", action="store_true", help="EASY metrics as pyss counts them")
    ap.add_argument(
        "--end-to-end",
        action="store_true",
        help="time the whole command (subprocess) beside the replay alone",
    )
    ap.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="with --end-to-end: also time the checkout in DIR, alternating",
    )
    ap.add_argument("--instructions", action="store_true",
                    help="with --end-to-end: also count instructions (valgrind)")  # fmt: skip
    ap.add_argument("--linearity", action="store_true",
                    help="whole-command CPU time on 1/4, 1/2, 1 and 4 times KTH-SP2")  # fmt: skip
    args = ap.parse_args()
    if args.end_to_end or args.linearity:
        policies = args.policies or ["fcfs", "easy", "conservative"]
        repeat = args.repeat if "--repeat" in sys.argv else 7
        if args.linearity:
            linearity(policies, repeat)
        else:
            end_to_end(policies, repeat, args.baseline, args.traces or [KTH], args.instructions)
        return
    args.policies = args.policies or list(POLICIES)
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
