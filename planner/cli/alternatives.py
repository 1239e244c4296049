"""``planner alternatives FILE --algorithm NAME``: the alternatives search (docs/algorithms.md).

Prints every alternative in the order found. ``--json``: one JSON Lines
object per alternative, ``{"job", "algorithm", "alternative", "status":
"found", "window"}`` (``alternative`` counts from 1 per job), and one
``"status": "not_found"`` line with a null number and window for a job without any;
otherwise a table.
"""

from __future__ import annotations

import argparse

from instances.text import plural
from planner.cli.common import UsageError, emit_json, load, print_table
from planner.cli.solve import algorithm_name, check_plot, plot, seed_value


def _cap(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        msg = f"--max-per-job must be an integer, got '{text}'"
        raise argparse.ArgumentTypeError(msg) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"--max-per-job must be >= 1, got '{text}'")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``alternatives`` command."""
    p = sub.add_parser(
        "alternatives", help="the alternatives search of the batch (numbered from 1 per job)"
    )
    p.add_argument("file", help="a planner.instance/1 JSON file")
    p.add_argument("--algorithm", required=True, help="a registry name (e.g. amp, alp, min_cost)")
    p.add_argument("--max-per-job", type=_cap, help="stop a job after this many alternatives")
    p.add_argument("--seed", type=seed_value, default=0, help="seed of the random-subset selector")
    p.add_argument("--json", action="store_true", help="JSON Lines output")
    p.add_argument("--plot", metavar="FILE.png", help="draw the alternatives (needs matplotlib)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the alternatives search; print JSON Lines or a table."""
    from planner import find_alternatives

    name = algorithm_name(args.algorithm)
    check_plot(args.plot)
    instance = load(args.file)
    if not instance.jobs:
        raise UsageError(f"planner: {args.file}: the instance has no jobs")
    alts = find_alternatives(instance, name, max_per_job=args.max_per_job, seed=args.seed)
    plot(instance, list(alts.windows), args.plot)  # before any output (see planner solve)
    rank: dict[str, int] = {}
    rows = []
    for w in alts.windows:
        rank[w.job] = rank.get(w.job, 0) + 1
        if args.json:
            emit_json(
                {
                    "job": w.job,
                    "algorithm": name,
                    "alternative": rank[w.job],
                    "status": "found",
                    "window": w.to_dict(),
                }
            )
        rows.append([w.job, rank[w.job], w.start, w.finish, w.runtime, w.cost, w.proc_time,
                     ",".join(w.nodes)])  # fmt: skip
    for job_id, windows in alts.by_job().items():
        if not windows:
            if args.json:
                emit_json({"job": job_id, "algorithm": name, "alternative": None,
                           "status": "not_found", "window": None})  # fmt: skip
            rows.append([job_id, "-", "-", "-", "-", "-", "-", "not found"])
    if not args.json:
        headers = ["job", "alt", "start", "finish", "runtime", "cost", "proc_time", "nodes"]
        print_table(headers, rows)
        print(f"{plural(len(alts.windows), 'alternative')} for "
              f"{plural(len(alts.jobs), 'job')} ({name})")
    return 0
