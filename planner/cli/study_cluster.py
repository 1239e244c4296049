"""``planner study cluster``: replay workloads under several policies, rows in SQLite, report.

``--workload`` takes files (``planner.workload/1`` JSON, ``.swf``, ``.swf.gz``)
or workload family names (generated once per ``--seeds`` value). Every replay
is checked by the independent checker; its rows go to an SQLite database
(rerunning the same command resumes) and a report with figures to ``--out``.
See ``docs/job-flows.md``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

DEFAULT_OUT = "cluster-study-out"


def register(ss: Any, parser_number: Any) -> None:
    """Add ``study cluster`` to the ``study`` subcommands (``parser_number``: study's parser)."""
    c = ss.add_parser("cluster", help="cluster policies (FCFS, EASY, conservative) on workloads")
    c.add_argument("--workload", nargs="+", required=True, metavar="W",
                   help="workload files or workload family names")  # fmt: skip
    c.add_argument("--policies", nargs="+", default=["fcfs", "easy", "conservative"],
                   metavar="NAME", help="default: fcfs easy conservative")  # fmt: skip
    c.add_argument("--seeds", nargs="+", type=parser_number("--seeds", int, 0), default=[0],
                   metavar="N", help="seeds of family workloads (default 0)")  # fmt: skip
    c.add_argument("--estimates", nargs="+", default=["requested"],
                   choices=("requested", "actual"), help="default: requested")  # fmt: skip
    c.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a family parameter for family workloads (repeatable), "
                   "e.g. --param interarrival=3")  # fmt: skip
    c.add_argument("--machines", metavar="FILE", help="Alea machines file for every workload")
    c.add_argument("--db", help="SQLite file (default: OUT/cluster.sqlite); reruns resume")
    c.add_argument("--out", default=DEFAULT_OUT, help=f"report directory (default {DEFAULT_OUT})")
    c.add_argument("--workers", type=parser_number("--workers", int, 1),
                   help="worker processes (default: the cores)")  # fmt: skip
    c.add_argument("--executor", default="local", choices=("local", "dask"),
                   help="where replays run: local processes (default) or Dask")  # fmt: skip
    c.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
    c.add_argument("--quiet", action="store_true", help="no progress line")
    c.add_argument("--wide", action="store_true",
                   help="print every column (default: a table that fits 100 columns)")
    c.set_defaults(run=run_cluster)


def _params(pairs: list[str], workloads: list[str]) -> dict[str, Any]:
    """Parse ``NAME=VALUE`` pairs as ``planner generate`` parses family parameters."""
    from instances import WORKLOAD_FAMILIES
    from planner.cli.common import UsageError, param_value

    defaults: dict[str, Any] = {}
    for w in workloads:
        if w in WORKLOAD_FAMILIES:
            defaults.update(WORKLOAD_FAMILIES[w].defaults)
    params = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or not name:
            raise UsageError(f"planner study cluster: --param needs NAME=VALUE, got '{pair}'")
        name = name.replace("-", "_")
        params[name] = param_value("planner study cluster", name, text, defaults.get(name))
    return params


def run_cluster(args: argparse.Namespace) -> int:
    """Run (or resume) a cluster study, print the summary table and write the report."""
    from pathlib import Path

    from planner.cli.common import UsageError, wrote
    from planner.progress import phase
    from validation.study import StudyError, WorkerLost, make_executor
    from validation.study.cluster import (
        ClusterStore,
        ClusterStudySpec,
        run_cluster_study,
        write_report,
    )  # fmt: skip
    from validation.study.cluster.report import text_table

    params = _params(args.param, args.workload)
    if args.scheduler is not None:
        from validation.study.executors import check_scheduler

        if args.executor != "dask":
            raise UsageError("planner study cluster: --scheduler needs --executor dask")
        try:
            check_scheduler(args.scheduler)
        except StudyError as err:
            raise UsageError(f"planner study cluster: {str(err).splitlines()[0]}") from None
    try:
        spec = ClusterStudySpec(workloads=tuple(args.workload), policies=tuple(args.policies),
                                seeds=tuple(args.seeds), estimates=tuple(args.estimates),
                                machines=args.machines, params=params)  # fmt: skip
        out = Path(args.out)
        if args.db is None:
            out.mkdir(parents=True, exist_ok=True)
        db = args.db or str(out / "cluster.sqlite")
        with ClusterStore(db) as store:
            executor = make_executor(args.executor, workers=args.workers,
                                     scheduler=args.scheduler)  # fmt: skip
            try:
                outcome = run_cluster_study(spec, store, executor=executor,
                                            progress=False if args.quiet else None)  # fmt: skip
            except WorkerLost as err:
                print(f"planner study: {err}", file=sys.stderr)
                return 1
            rows = store.rows(outcome.study)
    except StudyError as err:
        raise UsageError(f"planner study cluster: {str(err).splitlines()[0]}") from None
    command = "planner " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    with phase(f"writing the report in {out}", enabled=False if args.quiet else None):
        rep = write_report(rows, out, command if sys.argv[1:2] == ["study"] else "")
    wrote(db, *(out / f for f in ("report.md", "summary.csv", *rep["figures"])))
    print(f"{outcome.replays} replays ({outcome.written} computed now) in {db}")
    print(text_table(rep["summary"], wide=args.wide))
    print()
    print(rep["findings"])
    print(f"report: {rep['report']}")
    if outcome.violations:
        print(f"planner study cluster: the checker found {outcome.violations} violation(s)",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0
