"""Cycles per second of every VO job-flow method on ``css2015`` (20-job batches), in-process.

Usage::

    python benchmarks/bench_backfill.py [--cycles 50] [--repeat 3]
    python benchmarks/bench_backfill.py --reproduce bsf --cycles 500 --workers 2

Methods: conservative and EASY-like backfilling, BSF (share 0.5), CSS
(first fit), the batch-slicer (k = 1 and 5), and the execution replay of
a conservative-backfilling cycle with re-planning on released time
(schedule + replay). Beside the medians it prints machine-independent
counts per cycle: windows reserved, and for the replay the jobs moved
earlier. ``--reproduce NAME`` times one reproduction (bsf or estimates) at
``--cycles`` cycles on ``--workers`` local processes. The machine is
shared and noisy: compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any


def methods() -> dict[str, Any]:
    """Return method label → policy."""
    from planner.vo import BSF, CSS, Backfill, BatchSlicer, EasyBackfill

    return {"backfill": Backfill(), "easy": EasyBackfill(), "bsf 0.5": BSF(0.5),
            "css": CSS("amp"), "slicer k=1": BatchSlicer(1), "slicer k=5": BatchSlicer(5),
            "backfill + replay": Backfill()}  # fmt: skip


def run(label: str, policy: Any, cycles: int) -> tuple[float, float]:
    """Schedule ``cycles`` cycles; return (reserved per cycle, moved per cycle)."""
    from instances import generate
    from models.combination import VoPolicy
    from planner.vo import cycle_seed, schedule_cycle
    from planner.vo.replay import replay, task_factors

    reserved = moved = 0
    for c in range(cycles):
        inst = generate("css2015", cycle_seed(0, c))
        res = schedule_cycle(policy, VoPolicy(7), inst, seed=cycle_seed(0, c, 1)).reservations
        reserved += len(res)
        if label.endswith("replay"):
            rows = replay(inst, res, task_factors(inst, cycle_seed(0, c, 2)), reuse=True)
            moved += sum(r.real_start < r.scheduled_start for r in rows)
    return reserved / cycles, moved / cycles


def main() -> None:
    """Print a Markdown table of cycles per second (or time one reproduction)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--reproduce", choices=("bsf", "estimates"))
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    if args.reproduce:
        from validation.study.reproduce import REPRODUCTIONS

        began = time.perf_counter()
        REPRODUCTIONS[args.reproduce].run(seed=0, runs=args.cycles, executor="local",
                                          workers=args.workers)  # fmt: skip
        sec = time.perf_counter() - began
        print(f"{args.reproduce}: {args.cycles} cycles, {args.workers} workers: {sec:.1f} s "
              f"({args.cycles / sec:.1f} cycles/s)")  # fmt: skip
        return
    print("| method | cycles | reserved/cycle | moved/cycle | median s | cycles/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, policy in methods().items():
        times = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            reserved, moved = run(label, policy, args.cycles)
            times.append(time.perf_counter() - began)
        sec = statistics.median(times)
        print(f"| {label} | {args.cycles} | {reserved:.2f} | {moved:.2f} | {sec:.2f} | "
              f"{args.cycles / sec:.1f} |")  # fmt: skip


if __name__ == "__main__":
    main()
