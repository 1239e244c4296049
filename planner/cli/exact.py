"""``planner exact FILE``: the exact optimum of a criterion for each job (docs/exact-models.md).

Each job is solved independently on the instance's slots with
:func:`models.solve.solve_window`. Without ``--criterion`` every job uses its
own criterion. ``--json`` prints one JSON Lines object per job; otherwise a
table.
"""

from __future__ import annotations

import argparse
from typing import Any

from planner.cli.common import (
    DEFAULT_TIME_LIMIT,
    UsageError,
    choice,
    emit_json,
    load,
    pick_jobs,
    print_table,
    time_limit,
)


def _positive(kind: str, cast: type) -> Any:
    def parse(text: str) -> Any:
        try:
            value = cast(text)
        except ValueError:
            what = "an integer" if cast is int else "a number"
            raise argparse.ArgumentTypeError(f"{kind} must be {what}, got '{text}'") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"{kind} must be > 0, got '{text}'")
        return value

    return parse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``exact`` command."""
    p = sub.add_parser("exact", help="the exact optimum of a criterion for each job")
    p.add_argument("file", help="a planner.instance/1 JSON file")
    p.add_argument("--criterion", help="a criterion, docs/concepts.md (default: each job's own)")
    p.add_argument("--solver", default="cpsat", help="cpsat (default), milp, milp-highs or dp")
    p.add_argument("--job", help="solve only this job")
    p.add_argument("--time-limit", type=time_limit, default=DEFAULT_TIME_LIMIT,
                   help=f"seconds per job (default {DEFAULT_TIME_LIMIT:g}; 'none': no limit)")
    p.add_argument("--threads", type=_positive("--threads", int), default=1, help="default 1")
    p.add_argument("--free-start", action="store_true", help="any integer start, not only AEP")
    p.add_argument("--json", action="store_true", help="JSON Lines output (docs/formats.md)")
    p.set_defaults(run=run)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.6g}"


def _record(job: Any, crit: str, res: Any) -> dict[str, Any]:
    return {
        "job": job.id,
        "solver": res.solver,
        "criterion": crit,
        "status": res.status,
        "objective": res.objective,
        "bound": res.bound,
        "runtime": round(res.runtime, 6),
        "window": res.window.to_dict() if res.window is not None else None,
        "reason": res.info.get("reason"),
    }


def run(args: argparse.Namespace) -> int:
    """Solve every selected job; print JSON Lines or a table."""
    from instances import CRITERIA
    from models.solve import SOLVERS, solve_window
    from planner.progress import track

    choice("solver", args.solver, SOLVERS)
    if args.criterion is not None:
        choice("criterion", args.criterion, CRITERIA)
    inst = load(args.file)
    jobs = pick_jobs(inst, args.job)
    if not jobs:
        raise UsageError(f"planner: {args.file}: the instance has no jobs")
    rows = []
    quiet = False if args.json else None  # --json streams lines a progress line would cut
    for job in track(jobs, f"exact {args.solver} solves: jobs", enabled=quiet):
        crit = args.criterion or job.criterion
        res = solve_window(
            inst,
            job,
            crit,
            args.solver,
            free_start=args.free_start,
            time_limit=args.time_limit,
            threads=args.threads,
        )
        rec = _record(job, crit, res)
        if args.json:
            emit_json(rec)
            continue
        w = res.window
        rows.append(
            [job.id, crit, res.status, _num(res.objective), _num(res.bound)]
            + ([w.start, w.finish, w.cost, ",".join(w.nodes)] if w else ["-"] * 4)
            + [f"{res.runtime:.3f}"]
        )
    if not args.json:
        print_table(
            ["job", "criterion", "status", "objective", "bound", "start", "finish", "cost",
             "nodes", "seconds"],
            rows,
        )  # fmt: skip
    return 0
