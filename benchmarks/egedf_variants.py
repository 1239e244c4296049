"""EG-EDF and Tabu search under the readings the paper leaves open: a sensitivity table.

Usage::

    python benchmarks/egedf_variants.py [--jobs 3000] [--repetitions 2] [--workers 2]

Klusáček & Rudová 2008's setting (``klusacek2008``, 150 machines, mean
inter-arrival 1-5 s, seeds 0..repetitions-1) replayed under each variant of
``VARIANTS``: the non-delayed count N over all jobs (default) or over waiting
jobs only (``all_jobs=0``); Tabu search by events (default: 10 iterations at
every event) or Alea's way (every 300 s, 2 iterations per waiting job); MoveJob
into gaps only (default) or also onto a list's open end (``tail=1``). Flexible
backfilling is the reference. ``--variants`` also takes three diagnostics
that are not the paper (the last ``DIAGNOSTICS`` of ``VARIANTS``). Prints the
mean of each criterion per variant and stream, and Tabu's accepted moves per
replay. Scheduler times are CPU seconds on
a shared machine (noisy); every other column is deterministic.
"""

from __future__ import annotations

import argparse
import statistics
from collections import OrderedDict
from typing import Any

from instances.generators.registry import generate_workload
from planner.cluster import simulate
from planner.cluster.policies import POLICIES, Tabu
from planner.cluster.policies import egedf as egedf_policy
from planner.cluster.schedule import makespan, nondelayed
from validation.study.engine.executors import make_executor
from validation.study.reproduce.egedf import INTERARRIVALS

ALEA = {"period": 300, "iterations": 0, "per_job": 2}


class RandomPick(Tabu):
    """Diagnostic, not the paper: Alea 3.1's TabuSearch choice of the job to move.

    A random machine and a random job of its list (``findRandonResource``,
    ``findRandomGridletInfo``); a job in the tabu list is left where it is.
    MoveJob and the acceptance are the paper's, as in :class:`Tabu`.
    """

    def search(self, iterations: int) -> int:
        """Run ``iterations`` random picks; return the number of accepted moves."""
        scheds, tabu, moved = self.schedules, OrderedDict[int, None](), 0
        best = (makespan(scheds), nondelayed(scheds) + self.settled)
        for _ in range(iterations):
            source = scheds[self.rng.randrange(len(scheds))]
            if not source.jobs:
                continue
            k = self.rng.randrange(len(source.jobs))
            job = source.jobs[k]
            if job in tabu:
                continue
            tabu[job] = None
            if len(tabu) > self.tabu_size:
                tabu.popitem(last=False)
            src = source.copy()
            src.remove(k)
            others = max((s.end for s in scheds if s.m != source.m), default=0)
            if self.move_job(job, source, src, best, others):
                moved += 1
                best = (makespan(scheds), nondelayed(scheds) + self.settled)
        self.moves += moved
        return moved


VARIANTS: dict[str, tuple[str | type, dict[str, Any]]] = {
    "flex": ("flex", {}),
    "egedf": ("egedf", {}),
    "egedf waiting-N": ("egedf", {"all_jobs": 0}),
    "tabu": ("tabu", {}),
    "tabu waiting-N": ("tabu", {"all_jobs": 0}),
    "tabu tail": ("tabu", {"tail": 1}),
    "tabu alea-period": ("tabu", ALEA),
    "tabu alea-period tail": ("tabu", {**ALEA, "tail": 1}),
    "flex w=(0,1,1)": ("flex", {"weights": (0.0, 1.0, 1.0)}),
    "egedf deadline-first": ("egedf", {}),
    "tabu random-pick": (RandomPick, {}),
}
"""Variants; the last three are diagnostics, not the paper: Flex without its deadline term,
EG-EDF whose acceptance compares non-delayed jobs first (makespan only on ties), and Tabu
search picking a random machine and job (Alea 3.1's TabuSearch)."""
DIAGNOSTICS = 3
DIAGNOSTIC = ("egedf deadline-first",)


def deadline_first(best: tuple[int, int] | None, new: tuple[int, int]) -> bool:
    """Diagnostic acceptance: more non-delayed jobs wins; on a tie, the shorter makespan."""
    return best is None or (new[1], -new[0]) > (best[1], -best[0])
COLUMNS = ("delayed_pct", "utilisation", "weighted_utilisation", "makespan", "mean_slowdown",
           "us_per_job", "moves")  # fmt: skip


def replay(task: tuple[int, float, int, str]) -> tuple[int, float, str, dict[str, float]]:
    """Replay stream (seed, inter-arrival, jobs) under variant ``label``; return its criteria."""
    seed, ia, jobs, label = task
    name, options = VARIANTS[label]
    made: list[Any] = []

    class Captured(POLICIES[name] if isinstance(name, str) else name):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    wl = generate_workload("klusacek2008", seed, jobs=jobs, interarrival=ia)
    saved = egedf_policy.acceptance
    if label in DIAGNOSTIC:
        egedf_policy.acceptance = deadline_first  # type: ignore[assignment]
    try:
        s = simulate(wl, Captured, **options).summary()
    finally:
        egedf_policy.acceptance = saved
    return seed, ia, label, {
        "delayed_pct": 100.0 * s["delayed"] / max(s["with_deadline"], 1),
        "utilisation": s["utilisation"],
        "weighted_utilisation": s["weighted_utilisation"],
        "makespan": s["makespan"],
        "mean_slowdown": s["mean_slowdown"],
        "us_per_job": 1e6 * s["scheduler_seconds_per_job"],
        "moves": float(getattr(made[0], "moves", 0)),
    }


def main() -> None:
    """Run every variant on every stream and print the means."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=3000)
    ap.add_argument("--repetitions", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS)[:-DIAGNOSTICS],
                    choices=list(VARIANTS))  # fmt: skip
    args = ap.parse_args()
    tasks = [(rep, ia, args.jobs, label) for rep in range(args.repetitions)
             for ia in INTERARRIVALS for label in args.variants]  # fmt: skip
    rows: dict[tuple[float, str], list[dict[str, float]]] = {}
    executor = make_executor("local", workers=args.workers)
    try:
        for _, ia, label, row in sorted(executor.map_unordered(replay, tasks)):
            rows.setdefault((ia, label), []).append(row)
    finally:
        executor.close()
    print(f"klusacek2008, {args.jobs} jobs per stream, seeds 0-{args.repetitions - 1}")
    print("| inter-arrival (s) | variant | delayed (%) | usage | weighted usage | makespan (s) "
          "| slowdown | µs per job | Tabu moves |")  # fmt: skip
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ia in INTERARRIVALS:
        for label in args.variants:
            m = {c: statistics.fmean(r[c] for r in rows[(ia, label)]) for c in COLUMNS}
            tabu = VARIANTS[label][0] in ("tabu", RandomPick)
            moves = f"{m['moves']:.0f}" if tabu else "-"
            print(f"| {ia:g} | {label} | {m['delayed_pct']:.2f} | {m['utilisation']:.3f} "
                  f"| {m['weighted_utilisation']:.3f} | {m['makespan']:.0f} "
                  f"| {m['mean_slowdown']:.2f} | {m['us_per_job']:.0f} | {moves} |")  # fmt: skip


if __name__ == "__main__":
    main()
