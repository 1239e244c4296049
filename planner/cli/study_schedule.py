"""``planner study schedule-gap``: cluster policies against the CP-SAT optimum of small snapshots.

See ``docs/schedule-based.md``.
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
