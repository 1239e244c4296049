"""``planner study schedule-gap`` and ``planner study reproduce egedf`` (Klusáček & Rudová 2008).

``schedule-gap``: cluster policies against the CP-SAT optimum of small
snapshots. ``reproduce egedf``: the paper's experiment, claim by claim. See
``docs/schedule-based.md``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from planner.cli.common import wrote

DEFAULT_OUT = "study-out"


def register(ss: Any, parser_number: Any) -> None:
    """Add ``study schedule-gap`` to the ``study`` subcommands."""
    from validation.study.schedule import POLICIES, ScheduleGapSpec

    d = ScheduleGapSpec()
    g = ss.add_parser("schedule-gap",
                      help="cluster policies vs the exact optimum (or a proven bound) of "
                      "snapshots")  # fmt: skip
    g.add_argument("--snapshots", type=parser_number("--snapshots", int, 1), default=d.snapshots,
                   help=f"number of snapshots (default {d.snapshots})")  # fmt: skip
    g.add_argument("--jobs", type=parser_number("--jobs", int, 1), default=d.jobs,
                   help=f"jobs per snapshot (default {d.jobs})")  # fmt: skip
    g.add_argument("--machines", type=parser_number("--machines", int, 1), default=d.machines,
                   help=f"machines per snapshot (default {d.machines})")  # fmt: skip
    g.add_argument("--interarrival", type=parser_number("--interarrival", float, 0),
                   default=d.interarrival,
                   help=f"mean seconds between releases (default {d.interarrival:g})")  # fmt: skip
    g.add_argument("--time-limit", type=parser_number("--time-limit", float, 0),
                   default=d.time_limit,
                   help=f"solver seconds per snapshot (default {d.time_limit:g})")  # fmt: skip
    from planner.registry import SNAPSHOT_SOLVERS

    g.add_argument("--solver", default=d.solver, choices=list(SNAPSHOT_SOLVERS),
                   help="exact snapshot solver: " + "; ".join(
                       f"{k}: {v}" for k, v in SNAPSHOT_SOLVERS.items())
                   + f" (default {d.solver}; docs/exact-models.md)")  # fmt: skip
    g.add_argument("--threads", type=parser_number("--threads", int, 1), default=d.threads,
                   help="CP-SAT threads per snapshot (default 1)")  # fmt: skip
    g.add_argument("--seed", type=parser_number("--seed", int, 0), default=d.seed,
                   help="first snapshot seed (default 0)")  # fmt: skip
    g.add_argument("--policies", nargs="+", default=list(POLICIES), metavar="NAME",
                   help=f"default: {' '.join(POLICIES)}")  # fmt: skip
    g.add_argument("--csv", metavar="FILE", help="also write one row per snapshot and policy")
    g.add_argument("--db", help="SQLite file (default: OUT/schedule-gap.sqlite, "
                   f"{DEFAULT_OUT}/schedule-gap.sqlite without --out); reruns resume")  # fmt: skip
    g.add_argument("--out", help=f"report directory (default {DEFAULT_OUT}/schedule-gap-HASH, "
                   "one per study)")  # fmt: skip
    g.add_argument("--workers", type=parser_number("--workers", int, 1),
                   help="worker processes (default: cores // threads)")  # fmt: skip
    g.add_argument("--executor", default="local", choices=("local", "dask"),
                   help="where snapshots run: local processes (default) or Dask")  # fmt: skip
    g.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
    g.add_argument("--quiet", action="store_true", help="no progress line")
    g.add_argument("--svg", action="store_true", help="also write the figure as SVG "
                   "(default: PNG only)")  # fmt: skip
    g.add_argument("--wide", action="store_true",
                   help="print the table with its long headers (default: fits 100 columns)")
    g.set_defaults(run=run_schedule_gap)


def run_schedule_gap(args: argparse.Namespace) -> int:
    """Run (or resume) the gap study, print the table, write the report (and ``--csv``)."""
    from pathlib import Path

    from planner import __version__
    from planner.cli.common import UsageError
    from planner.progress import phase
    from validation.study import StudyError, WorkerLost, make_executor
    from validation.study.executors import WorkerStartError, check_scheduler
    from validation.study.kinds import output_errors
    from validation.study.report import check_out
    from validation.study.schedule import (
        ScheduleGapSpec,
        ScheduleGapStore,
        run_schedule_gap_study,
        statuses,
        write_report,
    )  # fmt: skip
    from validation.study.schedule.markdown import default_dir
    from validation.study.schedule.report import text_table, write_csv

    name = "planner study schedule-gap"
    try:
        spec = ScheduleGapSpec(args.snapshots, args.jobs, args.machines, args.interarrival,
                               args.time_limit, args.seed, tuple(args.policies),
                               args.threads, args.solver)  # fmt: skip
        if args.scheduler is not None:
            if args.executor != "dask":
                raise UsageError(f"{name}: --scheduler needs --executor dask")
            check_scheduler(args.scheduler)
        if args.csv and (Path(args.csv).is_dir() or not Path(args.csv).parent.is_dir()):
            raise UsageError(f"{name}: cannot write {args.csv} (not a file in an existing "
                             "directory)")  # fmt: skip
        base = Path(args.out or DEFAULT_OUT)
        out = base if args.out else default_dir(base, spec, __version__)
        db = args.db or str(base / "schedule-gap.sqlite")
        check_out(out, spec, __version__, db)  # type: ignore[arg-type]
        if args.db is None:
            with output_errors(base):
                base.mkdir(parents=True, exist_ok=True)
        with ScheduleGapStore(db) as store:
            executor = make_executor(args.executor, workers=args.workers, threads=args.threads,
                                     scheduler=args.scheduler)  # fmt: skip
            try:
                outcome = run_schedule_gap_study(
                    spec, store, executor=executor, version=__version__,
                    progress=False if args.quiet else None)  # fmt: skip
            except (WorkerLost, WorkerStartError) as err:
                print(f"planner study: {err}", file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                done = len(store.done(store.find(spec, __version__) or 0))
                raise KeyboardInterrupt(f"interrupted; {done} of {spec.snapshots} snapshots "
                                        "are saved, rerun the same command to resume") from None
            rows = store.rows(outcome.study)
            seconds = store.seconds(outcome.study)
            with output_errors(out), phase(f"writing the report in {out}",
                                           enabled=False if args.quiet else None):
                rep = write_report(rows, store.info(outcome.study), out, seconds,
                                   ("png", "svg") if args.svg else ("png",))
    except StudyError as err:
        raise UsageError(f"{name}: {str(err).splitlines()[0]}") from None
    if args.csv:
        try:
            write_csv(rows, args.csv)
        except OSError as err:
            raise UsageError(f"{name}: cannot write {args.csv} ({err.strerror})") from None
    figures = [f"{f[:-4]}.{e}" for f in rep["figures"] for e in ("png", "svg")
               if e == "png" or args.svg]  # fmt: skip
    wrote(db, *(out / f for f in ("report.md", "summary.csv", "rows.csv", "study.json",
                                  *figures)), args.csv)  # fmt: skip
    counts = ", ".join(f"{v} {k}" for k, v in statuses(rows).items())
    print(f"{spec.snapshots} snapshots of {spec.jobs} jobs on {spec.machines} machines "
          f"({outcome.written} solved now) in {db}; {spec.solver} within "
          f"{spec.time_limit:g} s: {counts}; solver {seconds[1]:.1f} s in total")  # fmt: skip
    print(text_table(rep["summary"], wide=args.wide))
    print()
    print(rep["findings"])
    print(f"report: {rep['report']}")
    code = 0
    if rep["beats"]:
        print(f"{name}: {rep['beats']} replay(s) beat a proven optimum or bound: the model or "
              "the simulator is wrong", file=sys.stderr)  # fmt: skip
        code = 1
    if outcome.violations:
        print(f"{name}: the checkers found {outcome.violations} violation(s)", file=sys.stderr)
        code = 1
    return code


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
    r.add_argument("--quiet", action="store_true", help="egedf: no progress line")


def run_reproduce_egedf(args: argparse.Namespace) -> int:
    """Run the EG-EDF experiment; print the table and the verdicts; write figures."""
    import csv
    from pathlib import Path

    from planner.progress import Progress
    from validation.study.reproduce import egedf

    if args.executor or args.scheduler:
        from planner.cli.common import UsageError

        raise UsageError("planner study reproduce: 'egedf' runs on local processes only "
                         "(--workers N; --executor/--scheduler do not apply)")  # fmt: skip

    repetitions = args.repetitions or egedf.REPETITIONS
    streams = repetitions * len(egedf.INTERARRIVALS)
    with Progress(streams, label="reproduce egedf: streams",
                  enabled=False if args.quiet else None) as bar:  # fmt: skip
        outcome = egedf.run(args.jobs or egedf.JOBS, repetitions, seed=args.seed or 0,
                            progress=lambda _: bar.step(), workers=args.workers or 1)
    print(egedf.render(outcome))
    from planner.cli.study import save_result

    save_result(args, [(claim, ok) for claim, ok, _ in outcome.verdicts], args.seed or 0,
                args.repetitions or egedf.REPETITIONS, egedf.REPETITIONS,
                egedf.differences(outcome),
                {"jobs": args.jobs} if args.jobs not in (None, egedf.JOBS) else {})  # fmt: skip
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
        wrote(*paths, out / "egedf-means.csv")
    return 0
