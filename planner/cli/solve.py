"""``planner solve FILE --algorithm NAME [--job ID] [--json]``: one search per job (FORMATS.md).

Each job is searched independently on the instance's slots with
:func:`planner.search`; ``--algorithm`` takes a name or alias of
:data:`planner.registry.ALGORITHMS`. ``--json`` prints one JSON Lines
object per job, otherwise a table with one row per job.
"""

from __future__ import annotations

import argparse
from typing import Any

from planner.cli.common import UsageError, emit_json, load, pick_jobs, print_table

TABLE = ["job", "status", "start", "finish", "runtime", "cost", "proc_time", "nodes"]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``solve`` command."""
    p = sub.add_parser("solve", help="run one slot-search algorithm for each job")
    p.add_argument("file", help="a planner.instance/1 JSON file")
    p.add_argument("--algorithm", required=True, help="a registry name (e.g. amp, min_cost, dep)")
    p.add_argument("--job", help="search only this job")
    p.add_argument("--seed", type=int, default=0, help="seed of the random-subset selector")
    p.add_argument("--json", action="store_true", help="JSON Lines output (FORMATS.md)")
    p.add_argument("--plot", metavar="FILE.png", help="draw the windows found (needs matplotlib)")
    p.set_defaults(run=run)


def algorithm_name(name: str) -> str:
    """Return the registry name of ``name`` (an alias resolves); UsageError if unknown."""
    from planner.registry import resolve

    try:
        return resolve(name).name
    except KeyError as err:
        raise UsageError(f"planner: {err.args[0]}") from None


def row(job_id: str, window: Any) -> list[Any]:
    """Return the table row of one job's window (or its not-found row)."""
    if window is None:
        return [job_id, "not_found", "-", "-", "-", "-", "-", "-"]
    w = window
    return [job_id, "found", w.start, w.finish, w.runtime, w.cost, w.proc_time, ",".join(w.nodes)]


def plot(instance: Any, windows: list[Any], path: str | None) -> None:
    """Draw ``windows`` to ``path`` with :func:`planner.plot.plot_windows`, when asked."""
    if path is None:
        return
    try:
        from planner.plot import plot_windows
    except ImportError as err:
        raise UsageError(f"planner: --plot is not available ({err})") from None
    plot_windows(instance, windows, path)


def run(args: argparse.Namespace) -> int:
    """Search every selected job; print JSON Lines or a table."""
    from planner import search

    name = algorithm_name(args.algorithm)
    instance = load(args.file)
    jobs = pick_jobs(instance, args.job)
    found = [(job, search(instance, job, name, seed=args.seed)) for job in jobs]
    if args.json:
        for job, w in found:
            emit_json(
                {
                    "job": job.id,
                    "algorithm": name,
                    "status": "found" if w is not None else "not_found",
                    "window": w.to_dict() if w is not None else None,
                }
            )
    else:
        print_table(TABLE, [row(job.id, w) for job, w in found])
    plot(instance, [w for _, w in found if w is not None], args.plot)
    return 0
