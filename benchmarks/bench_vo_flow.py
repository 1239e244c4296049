"""Cycles per second of VO job flows on ``css2015`` (20-job batches): CSS, slicer; 1 and 2 workers.

Usage::

    python benchmarks/bench_vo_flow.py [--cycles 100] [--workers 1 2] [--repeat 3]
    python benchmarks/bench_vo_flow.py --target 5000   # the full css-criteria reproduction

Each case schedules independent cycles through the study executors (the
reproductions' machinery): ``css`` is CSS with first-fit alternatives,
``slicer k=K`` the batch-slicer with per-job criteria, ``css-criteria`` one
cycle of that reproduction (both). Beside the wall-clock medians it prints
machine-independent counts: the alternatives found and the windows
reserved per cycle. Wall clock includes worker start-up. The machine is
shared and noisy: compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from validation.study.reproduce.vo_common import Tally, run_cycles


def policy_cycles(lo: int, hi: int, *, seed: int, policy: str, k: int) -> Tally:
    """Schedule cycles ``lo..hi-1`` with one policy; tally the alternatives and reservations."""
    from instances import generate
    from models.combination import VoPolicy
    from planner.vo import CSS, BatchSlicer, cycle_seed, schedule_cycle

    tally = Tally()
    pol: Any = CSS("amp") if policy == "css" else BatchSlicer(k)
    for c in range(lo, hi):
        inst = generate("css2015", cycle_seed(seed, c))
        out = schedule_cycle(pol, VoPolicy(7), inst, seed=cycle_seed(seed, c, 1))
        tally.add(("alternatives",), sum(len(p.alternatives) for p in out.phases))
        tally.add(("reserved",), len(out.reservations))
    return tally


def measure(cycles: int, workers: int, repeat: int, **case: Any) -> tuple[Tally, float]:
    """Return the tally and the median seconds of ``repeat`` runs."""
    times, tally = [], Tally()
    for _ in range(repeat):
        began = time.perf_counter()
        if case["policy"] == "css-criteria":
            from validation.study.reproduce.css_criteria import cycles as both

            tally = run_cycles(both, cycles, executor="local", workers=workers, seed=0, params={})
        else:
            tally = run_cycles(policy_cycles, cycles, executor="local", workers=workers, seed=0,
                               **case)  # fmt: skip
        times.append(time.perf_counter() - began)
    return tally, statistics.median(times)


def main() -> None:
    """Run the benchmark matrix and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=100)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--target", type=int, help="time only the css-criteria reproduction's cycles")
    args = ap.parse_args()
    cases = [{"policy": "css-criteria", "k": 1}] if args.target else [
        {"policy": "css", "k": 1}, {"policy": "slicer", "k": 1}, {"policy": "slicer", "k": 5},
        {"policy": "css-criteria", "k": 1},
    ]  # fmt: skip
    n = args.target or args.cycles
    workers = [max(args.workers)] if args.target else args.workers
    repeat = 1 if args.target else args.repeat
    print("| case | cycles | workers | alternatives/cycle | reserved/cycle | seconds | cycles/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for case in cases:
        label = case["policy"] + (f" k={case['k']}" if case["policy"] == "slicer" else "")
        for w in workers:
            tally, sec = measure(n, w, repeat, **case)
            alts = tally.mean("alternatives")
            res = tally.mean("reserved")
            print(f"| {label} | {n} | {w} | {_num(alts)} | {_num(res)} | {sec:.2f} | "
                  f"{n / sec:.1f} |", flush=True)  # fmt: skip


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
