"""``planner study schedule-gap`` and ``planner study reproduce egedf`` (Klusáček & Rudová 2008).

``schedule-gap``: cluster policies against the CP-SAT optimum of small
snapshots. ``reproduce egedf``: the paper's experiment, claim by claim. See
``docs/schedule-based.md``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(ss: Any, parser_number: Any) -> None:
    """Add ``study schedule-gap`` to the ``study`` subcommands."""
    from validation.study.schedule_gap import POLICIES, GapSpec

    d = GapSpec()
    g = ss.add_parser("schedule-gap",
                      help="cluster policies vs the CP-SAT optimum on small snapshots")  # fmt: skip
    g.add_argument("--snapshots", type=parser_number("--snapshots", int, 1), default=d.snapshots,
                   help=f"number of snapshots (default {d.snapshots})")  # fmt: skip
    g.add_argument("--jobs", type=parser_number("--jobs", int, 1), default=d.jobs,
                   help=f"jobs per snapshot (default {d.jobs})")  # fmt: skip
    g.add_argument("--machines", type=parser_number("--machines", int, 1), default=d.machines,
                   help=f"machines per snapshot (default {d.machines})")  # fmt: skip
    g.add_argument("--interarrival", type=parser_number("--interarrival", float, 1e-9),
                   default=d.interarrival,
                   help=f"mean seconds between releases (default {d.interarrival:g})")  # fmt: skip
    g.add_argument("--time-limit", type=parser_number("--time-limit", float, 0.0),
                   default=d.time_limit,
                   help=f"CP-SAT seconds per snapshot (default {d.time_limit:g})")  # fmt: skip
    g.add_argument("--seed", type=parser_number("--seed", int, 0), default=d.seed,
                   help="first snapshot seed (default 0)")  # fmt: skip
    g.add_argument("--policies", nargs="+", default=list(POLICIES), metavar="NAME",
                   help=f"default: {' '.join(POLICIES)}")  # fmt: skip
    g.add_argument("--csv", metavar="FILE", help="write one row per snapshot and policy")
    g.set_defaults(run=run_schedule_gap)


def run_schedule_gap(args: argparse.Namespace) -> int:
    """Run the gap study and print the table."""
    from planner.cli.common import UsageError, choice
    from planner.cluster import POLICIES
    from validation.study.schedule_gap import GapSpec, render, run_gap_study, summarise, write_rows

    for p in args.policies:
        choice("policy", p, POLICIES)
    spec = GapSpec(args.snapshots, args.jobs, args.machines, args.interarrival, args.time_limit,
                   args.seed, tuple(args.policies))  # fmt: skip

    def tick(k: int, res: Any) -> None:
        print(f"snapshot {k}: {res.status}, delayed {res.objective}, makespan "
              f"{res.info.get('makespan')} ({res.runtime:.1f} s)", file=sys.stderr)  # fmt: skip

    rows, spent = run_gap_study(spec, tick)
    if args.csv:
        try:
            write_rows(rows, args.csv)
        except OSError as err:
            raise UsageError(f"planner study schedule-gap: cannot write {args.csv} "
                             f"({err.strerror})") from None  # fmt: skip
    proven = len({r["snapshot"] for r in rows if r["status"] == "optimal"})
    print(f"{spec.snapshots} snapshots of {spec.jobs} jobs on {spec.machines} machines "
          f"(klusacek2008, mean inter-arrival {spec.interarrival:g} s); {proven} proven "
          f"optimal within {spec.time_limit:g} s; CP-SAT {spent:.1f} s in total")  # fmt: skip
    print(render(summarise(rows)))
    return 0


REPRODUCTION_ROW = ["egedf", "Klusáček & Rudová 2008, Figs. 1-6",
                    "EG-EDF and Tabu search vs FCFS, EASY and Flexible backfilling"]  # fmt: skip
"""The ``planner study reproduce`` listing row of the EG-EDF experiment."""


def reproduce_arguments(r: Any, parser_number: Any) -> None:
    """Add the EG-EDF experiment's options to ``study reproduce``."""
    from validation.study.reproduce import egedf

    r.add_argument("--jobs", type=parser_number("--jobs", int, 1),
                   help=f"egedf: jobs per stream (default {egedf.JOBS})")  # fmt: skip
    r.add_argument("--repetitions", type=parser_number("--repetitions", int, 1),
                   help=f"egedf: repetitions (default {egedf.REPETITIONS})")  # fmt: skip
    r.add_argument("--out", metavar="DIR",
                   help="egedf: write the figures (PNG) and the means (CSV) here")  # fmt: skip
    r.add_argument("--quiet", action="store_true", help="egedf: no progress lines")


def run_reproduce_egedf(args: argparse.Namespace) -> int:
    """Run the EG-EDF experiment; print the table and the verdicts; write figures."""
    import csv
    from pathlib import Path

    from validation.study.reproduce import egedf

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if args.executor or args.scheduler:
        from planner.cli.common import UsageError

        raise UsageError("planner study reproduce: 'egedf' runs on local processes only "
                         "(--workers N; --executor/--scheduler do not apply)")  # fmt: skip

    outcome = egedf.run(args.jobs or egedf.JOBS, args.repetitions or egedf.REPETITIONS,
                        seed=args.seed or 0, progress=None if args.quiet else say,
                        workers=args.workers or 1)  # fmt: skip
    print(egedf.render(outcome))
    if args.out:
        out = Path(args.out)
        try:
            paths = egedf.plot(outcome, out)
            rows = egedf.as_rows(outcome)
            with open(out / "egedf-means.csv", "w", newline="", encoding="utf-8") as fh:
                w = csv.DictWriter(fh, list(rows[0]), lineterminator="\n")
                w.writeheader()
                w.writerows(rows)
        except OSError as err:
            from planner.cli.common import UsageError

            raise UsageError(f"planner study reproduce: cannot write to {out} "
                             f"({err.strerror})") from None  # fmt: skip
        print(f"figures: {', '.join(str(p) for p in paths)}; means: {out / 'egedf-means.csv'}")
    return 0
