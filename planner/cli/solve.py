"""``planner solve FILE --algorithm NAME [--job ID] [--json]``: one search per job
(docs/formats.md).

Each job is searched independently on the instance's slots with
:func:`planner.search`; ``--algorithm`` takes a name or alias of
:data:`planner.registry.ALGORITHMS`. ``--json`` prints one JSON Lines
object per job, otherwise a table with one row per job.
"""

from __future__ import annotations

import argparse
from typing import Any

from planner.cli.common import UsageError, emit_json, load, pick_jobs, print_table, wrote

TABLE = ["job", "status", "start", "finish", "runtime", "cost", "proc_time", "nodes"]


def seed_value(text: str) -> int:
    """Parse ``--seed``: an integer >= 0 (numpy's seeds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--seed must be an integer, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"--seed must be >= 0, got '{text}'")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``solve`` command."""
    p = sub.add_parser("solve", help="run one slot-search algorithm for each job")
    p.add_argument("file", help="a planner.instance/1 JSON file")
    p.add_argument("--algorithm", required=True, help="a registry name (e.g. amp, min_cost, dep)")
    p.add_argument("--job", help="search only this job")
    p.add_argument("--seed", type=seed_value, default=0, help="seed of the random-subset selector")
    p.add_argument("--json", action="store_true", help="JSON Lines output (docs/formats.md)")
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


def check_plot(path: str | None) -> None:
    """Reject a ``--plot`` path that cannot be written, before any search runs (UsageError).

    The suffix must be one :func:`planner.plot.plot_windows` writes, its
    folder must exist, and matplotlib (the ``plot`` extra) must be installed.
    """
    if path is None:
        return
    import importlib.util
    import os

    from planner.plot import FORMATS

    suffix = os.path.splitext(path)[1].lower()
    if suffix not in FORMATS:
        raise UsageError(f"planner: --plot {path}: the file must end in {' or '.join(FORMATS)}")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise UsageError(f"planner: --plot {path}: no such folder '{folder}'")
    if importlib.util.find_spec("matplotlib") is None:
        raise UsageError("planner: --plot needs matplotlib (pip install 'planner[plot]')")


def plot(instance: Any, windows: list[Any], path: str | None) -> None:
    """Draw ``windows`` to ``path`` with :func:`planner.plot.plot_windows`, when asked."""
    if path is None:
        return
    from planner.plot import plot_windows

    try:
        plot_windows(instance, windows, path)
    except RuntimeError as err:  # matplotlib missing (check_plot saw the suffix and folder)
        raise UsageError(str(err).splitlines()[0]) from None
    except OSError as err:
        raise UsageError(f"planner: --plot {path}: cannot write ({err.strerror or err})") from None
    wrote(path)


def run(args: argparse.Namespace) -> int:
    """Search every selected job; print JSON Lines or a table."""
    from planner import search

    name = algorithm_name(args.algorithm)
    check_plot(args.plot)
    instance = load(args.file)
    jobs = pick_jobs(instance, args.job)
    found = [(job, search(instance, job, name, seed=args.seed)) for job in jobs]
    # draw first: a plot that cannot be written is a usage error without partial output
    plot(instance, [w for _, w in found if w is not None], args.plot)
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
    return 0
