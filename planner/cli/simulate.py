"""``planner simulate WORKLOAD --policy NAME``: replay a job stream on machines.

The event-driven simulator of :mod:`planner.cluster` (FCFS, EASY and
conservative backfilling; Klusáček & Rudová 2008). Prints the summary metrics
(a short table, or one JSON object with ``--json``); ``-o`` writes the
per-job ``jobs.csv`` (Batsim's columns), ``--reservations`` the reservation
log the independent checker uses, ``--plot`` a figure. See
``docs/job-flows.md``.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from typing import Any

from planner.cli.common import (
    UsageError,
    choice,
    emit_json,
    exit_fast,
    one_line,
    writable,
    wrote,
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` command."""
    from planner.cluster.policies import POLICIES

    p = sub.add_parser(
        "simulate",
        help="replay a job stream on machines under a scheduling policy",
        description="Replay a workload (planner.workload/1 JSON, Batsim workload JSON, or an "
        "SWF log .swf/.swf.gz) under one policy and print the summary metrics "
        "(docs/job-flows.md). A bare file name that is not in the current directory but names "
        f"a bundled log ({', '.join(_bundled())}) reads the bundled log.",
    )
    p.add_argument("workload", help="planner.workload/1 or Batsim JSON, .swf or .swf.gz; or a "
                   "bundled log's name")  # fmt: skip
    p.add_argument("--policy", required=True, help=f"one of: {', '.join(POLICIES)}")
    p.add_argument("--machines", metavar="FILE", help="Alea machines file (replaces the header's; "
                   "a bundled one by its bare name, e.g. hpc2n-alea.swf.machines)")  # fmt: skip
    p.add_argument("--estimates", default="requested", choices=("requested", "actual"),
                   help="requested: the users' estimates (default); actual: e = w")  # fmt: skip
    p.add_argument("-o", "--output", metavar="jobs.csv", help="write the per-job rows")
    p.add_argument("--reservations", metavar="FILE", help="write the reservation log (CSV)")
    p.add_argument("--json", action="store_true", help="print one JSON summary object")
    p.add_argument("--plot", metavar="FILE.png", help="draw Gantt, queue and distributions")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a policy option, e.g. tabu: iterations=20, tabu_size=5, every=2, "
                   "seed=3; flex: weights=2,1,1 (docs/schedule-based.md)")  # fmt: skip
    p.set_defaults(run=run)


def _bundled() -> list[str]:
    """Return the names of the bundled logs (the registry of ``planner list traces``)."""
    from instances.traces.bundled import bundled_traces

    return [name for name, kind in bundled_traces().items() if kind.startswith("SWF")]


def _write(what: str, path: str, writer: Any) -> None:
    try:
        writer(path)
    except OSError as err:
        raise UsageError(f"planner simulate: cannot write {what} {path} ({err.strerror})") from None


def run(args: argparse.Namespace) -> int:
    """Read, replay, write the outputs and print the summary; each phase shows its progress.

    The cyclic garbage collector is off meanwhile: reading, replaying and writing
    make hundreds of thousands of objects and no reference cycle, so its passes
    would only walk them (a tenth of the command's time on KTH-SP2). Once the
    outputs are written the process ends without the interpreter's teardown
    (:func:`~planner.cli.common.exit_fast`; 35 M of the command's 2.6 G instructions
    under EASY on KTH-SP2, measured with cachegrind): every file is closed by then.
    """
    import gc

    gc.disable()
    try:
        code = _run(args)
    finally:
        gc.enable()
    exit_fast()
    return code


def _run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from instances import read_workload
    from planner.cluster import POLICIES, ReservationLog, simulate
    from planner.cluster.output import write_jobs_csv
    from planner.progress import Progress, phase

    choice("policy", args.policy, POLICIES)
    if args.plot:
        from planner.plot import plot_suffix

        try:
            plot_suffix(args.plot)
        except ValueError as err:
            raise UsageError(f"planner simulate: {err}") from None
    options = policy_options(args.policy, args.option)
    for path in (args.output, args.reservations, args.plot):
        if path:
            writable("planner simulate", path)
    with phase(f"reading {Path(args.workload).name}"):
        workload = read_workload(args.workload, machines=args.machines, estimates=args.estimates)
    log = ReservationLog() if args.reservations else None
    n = len(workload.columns.id)
    with Progress(n, label=f"replaying under {args.policy}: jobs") as bar:
        try:
            replay = simulate(workload, args.policy, log=log, progress=bar.update, **options)
        except ValueError as err:
            if not options:
                raise
            raise UsageError(f"planner simulate: {err}") from None
        bar.update(n)
    written = []
    if args.output:
        with phase(f"writing {args.output}"):
            _write("jobs.csv", args.output, lambda p: write_jobs_csv(replay, p))
        written.append(args.output)
    if log is not None:
        with phase(f"writing {args.reservations}"):
            _write("the reservation log", args.reservations, log.write)
        written.append(args.reservations)
    if args.plot:
        from planner.cluster.plots import plot_replay

        try:
            with phase(f"drawing {args.plot}"):
                _write("the figure", args.plot, lambda p: plot_replay(replay, p))
        except RuntimeError:
            raise UsageError("planner simulate: --plot needs matplotlib "
                             "(pip install 'planner[plot]')") from None  # fmt: skip
        written.append(args.plot)
    wrote(*written)
    summary = replay.summary()
    if args.json:
        emit_json(summary)
        return 0
    print_summary(summary)
    return 0


def _fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def print_summary(s: dict[str, Any]) -> None:
    """Print the summary as a two-column table."""
    dropped = s["dropped"]
    if dropped:
        reasons = ", ".join(f"{k} {v}" for k, v in s["dropped_by_reason"].items())
        dropped = f"{dropped} ({reasons})"
    rows = [
        ["workload", f"{s['workload'] or '-'} ({_count(s['machines'], 'machine')}, "
                     f"{s['cpus']} CPUs)"],
        ["policy", s["policy"]],
        ["jobs", f"{s['jobs']} ({s['killed']} killed at their estimate)"],
        ["dropped records", dropped],
        ["makespan (s)", s["makespan"]],
        ["utilisation", _fmt(s["utilisation"], 4)],
        ["weighted utilisation", _fmt(s["weighted_utilisation"], 4)],
        ["mean wait (s)", _fmt(s["mean_wait"], 1)],
        ["median wait (s)", _fmt(s["median_wait"], 1)],
        ["mean slowdown", _fmt(s["mean_slowdown"])],
        ["mean bounded slowdown", _fmt(s["mean_bounded_slowdown"])],
        ["delayed jobs", f"{s['delayed']} of {s['with_deadline']} with a deadline"],
        ["scheduler time (s)", f"{s['scheduler_seconds']:.3f} "
         f"({1e6 * (s['scheduler_seconds_per_job'] or 0):.1f} µs per job)"],
    ]  # fmt: skip
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    sys.stdout.flush()


_INT = re.compile(r"[+-]?[0-9]{1,19}")
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


def _number(text: str) -> int | float:
    """Parse one ASCII decimal: an integer of at most 19 digits, or a finite real."""
    if _INT.fullmatch(text):
        return int(text)
    if _REAL.fullmatch(text) and math.isfinite(float(text)):
        return float(text)
    raise ValueError(text)


def policy_options(policy: str, items: list[str]) -> dict[str, Any]:
    """Parse ``--option KEY=VALUE`` items (int, float, or a comma list of numbers).

    Numbers are ASCII decimals (no ``1_000``, no other digits, no ``inf`` or
    ``nan``); ranges are each policy's own check (:mod:`planner.cluster.policies.options`).
    """
    if not items:
        return {}
    import inspect

    from planner.cluster import POLICIES

    accepted = [k for k in inspect.signature(POLICIES[policy].__init__).parameters
                if k not in ("self", "cluster", "log")]  # fmt: skip
    out: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or key not in accepted:
            takes = ", ".join(f"{k}=VALUE" for k in accepted) or "no options"
            raise UsageError(f"planner simulate: --option {one_line(item)}: policy {policy} "
                             f"takes {takes}")  # fmt: skip
        try:
            out[key] = tuple(map(_number, text.split(","))) if "," in text else _number(text)
        except ValueError:
            raise UsageError(f"planner simulate: --option {one_line(item)}: not a finite decimal "
                             "number (or a comma list of them)") from None  # fmt: skip
    return out
