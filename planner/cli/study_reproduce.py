"""``planner study reproduce``: a named paper experiment, paper vs ours, claim by claim.

The experiments are those of ``validation.study.reproduce.REPRODUCTIONS``; each
declares the option groups its run takes, so an option given to an experiment that
does not take it is one usage line. Every run saves its verdicts to
``--results``/NAME.json; ``--summary`` prints the scoreboard of the saved results
(docs/reproductions.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from planner.cli.common import UsageError, wrote
from planner.cli.study_errors import study_errors

RESULTS = "study-out/reproduce"

FLAGS: dict[str, tuple[str, ...]] = {
    "executor": ("executor", "scheduler"),
    "exact": ("exact_runs", "exact_size", "exact_solver"),
    "timing": ("repeats", "nodes", "intervals"),
    "streams": ("jobs",),
}
"""The command-line options of each option group (``workers`` belongs to two groups)."""


def register(ss: Any) -> None:
    """Add ``study reproduce`` to the ``study`` subcommands."""
    from validation.study.engine.options import number, sizes

    r = ss.add_parser("reproduce", help="a named paper experiment: paper vs ours")
    r.add_argument("name", nargs="?", help="experiment name (omit to list them)")
    r.add_argument("--seed", type=number("--seed", int, 0), help="override the default seed")
    r.add_argument("--runs", "--cycles", "--repetitions", dest="runs",
                   type=number("--runs", int, 1),
                   help="override the run count (cycles for the VO-flow experiments, "
                   "repetitions for egedf)")  # fmt: skip
    r.add_argument("--executor", choices=("local", "dask"),
                   help="run VO-flow experiments' cycles on local processes or Dask")  # fmt: skip
    r.add_argument("--workers", type=number("--workers", int, 1),
                   help="executor workers (egedf: local processes replaying the streams)")
    r.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
    r.add_argument("--repeats", type=number("--repeats", int, 1),
                   help="timing only: timed searches per instance after the warm-up (default 3)")
    r.add_argument("--nodes", type=sizes("--nodes"),
                   help="timing only: node counts, comma-separated (default 50,100,200,300,400)")
    r.add_argument("--intervals", type=sizes("--intervals"),
                   help="timing only: interval lengths, comma-separated (default 600,...,3600)")
    r.add_argument("--exact-runs", type=number("--exact-runs", int, 0),
                   help="slicer, estimates, bsf: exact-baseline cycles (default min(runs, 100))")
    r.add_argument("--exact-size", choices=("small", "paper"),
                   help="slicer, estimates, bsf: exact-baseline batch: small (6 jobs, 12 nodes; "
                   "default) or paper (20 jobs, 24 nodes, Toporkov et al. 2015)")  # fmt: skip
    r.add_argument("--exact-solver", metavar="NAME",
                   help="slicer, estimates, bsf: joint solver of the exact baseline "
                   "(planner list; default cpsat)")  # fmt: skip
    r.add_argument("--jobs", type=number("--jobs", int, 1),
                   help="egedf: jobs per stream (default 3000)")  # fmt: skip
    r.add_argument("--out", metavar="DIR",
                   help="the experiment's figures and tables (egedf: PNG and CSV) go here")
    r.add_argument("--quiet", action="store_true", help="no progress line")
    r.add_argument("--results", metavar="DIR", default=RESULTS,
                   help=f"where each run saves NAME.json and --summary reads them (default "
                   f"{RESULTS})")  # fmt: skip
    r.add_argument("--summary", action="store_true",
                   help="print the scoreboard of every experiment from the saved results")
    r.add_argument("--markdown", action="store_true", help="--summary as a Markdown table")
    r.add_argument("--wide", action="store_true",
                   help="the list with full titles (default: fits 100 columns)")  # fmt: skip
    r.set_defaults(run=run_reproduce)


@study_errors
def run_reproduce(args: argparse.Namespace) -> int:
    """Run a named paper reproduction, print paper vs ours and save its result; or list them,
    or (``--summary``) print the scoreboard of the saved results."""
    from instances.errors import did_you_mean
    from validation.study.reproduce import REPRODUCTIONS, run

    if args.summary or args.markdown:
        return _scoreboard(args)
    if args.name is None:
        return _listing(args.wide)
    _check_results(args.results)
    if args.name not in REPRODUCTIONS:
        names = list(REPRODUCTIONS)
        raise UsageError(f"planner study reproduce: unknown experiment '{args.name}'"
                         f"{did_you_mean(args.name, names)} (choose from: "
                         f"{', '.join(names)})")  # fmt: skip
    rep = REPRODUCTIONS[args.name]
    options = _options(args, rep)
    if args.out is not None and rep.write is None:
        raise UsageError(f"planner study reproduce: --out applies to "
                         f"{_takers(REPRODUCTIONS, lambda r: r.write is not None)} only")
    seed, runs = args.seed or 0, args.runs or rep.default_runs
    result = run(args.name, seed=seed, runs=runs, progress=False if args.quiet else None,
                 **options)  # fmt: skip
    print(result.render())
    sizes = {k: v for k, v in options.items() if k in ("repeats", "nodes", "intervals", "jobs")}
    save_result(args, result.orderings, seed, runs, rep.default_runs, result.differences(),
                sizes)  # fmt: skip
    if args.out is not None and rep.write is not None:
        try:
            wrote(*rep.write(result, args.out))
        except OSError as err:
            raise UsageError(f"planner study reproduce: cannot write to {args.out} "
                             f"({err.strerror})") from None  # fmt: skip
    return 0


def _listing(wide: bool) -> int:
    """Print every experiment: name, source, what it compares."""
    from validation.study.engine.tables import WIDTH, render
    from validation.study.reproduce import REPRODUCTIONS

    rows = [[r.name, r.source, r.title] for r in REPRODUCTIONS.values()]
    if not wide:  # the citation without its parenthesised details
        rows = [[n, src.split(" (")[0], what] for n, src, what in rows]
    print(render(["name", "source", "what"], rows, left=3, width=None if wide else WIDTH))
    return 0


def _takers(reproductions: Any, accepts: Any) -> str:
    names = [f"'{r.name}'" for r in reproductions.values() if accepts(r)]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def _options(args: argparse.Namespace, rep: Any) -> dict[str, Any]:
    """Return the keywords of the options given that ``rep`` takes; refuse the others."""
    from validation.study.reproduce import REPRODUCTIONS

    given = {flag for group in FLAGS.values() for flag in group
             if getattr(args, flag) is not None}  # fmt: skip
    if args.workers is not None:
        given.add("workers")
    for flag in sorted(given):
        groups = [g for g, flags in FLAGS.items() if flag in flags]
        if flag == "workers":
            groups = ["executor", "streams"]
        if not any(g in rep.options for g in groups):
            who = _takers(REPRODUCTIONS, lambda r, gs=groups: any(g in r.options for g in gs))
            raise UsageError(f"planner study reproduce: --{flag.replace('_', '-')} applies to "
                             f"{who} only")  # fmt: skip
    options: dict[str, Any] = {}
    for key in ("repeats", "nodes", "intervals", "exact_runs", "exact_size", "exact_solver",
                "jobs"):  # fmt: skip
        if getattr(args, key) is not None:
            options[key] = getattr(args, key)
    if "exact_solver" in options:
        from models import JOINT_SOLVERS

        if options["exact_solver"] not in JOINT_SOLVERS:
            raise UsageError(f"planner study reproduce: --exact-solver must be one of "
                             f"{', '.join(JOINT_SOLVERS)}, got '{options['exact_solver']}'")
    if "streams" in rep.options and args.workers is not None:
        options["workers"] = args.workers
    if "executor" in rep.options and (args.executor or args.workers or args.scheduler):
        from validation.study.engine.executors import check_scheduler, make_executor

        if args.scheduler is not None:
            if args.executor != "dask":
                raise UsageError("planner study reproduce: --scheduler needs --executor dask")
            check_scheduler(args.scheduler)
        options["executor"] = make_executor(args.executor or "local", workers=args.workers,
                                            scheduler=args.scheduler)  # fmt: skip
    return options


def save_result(args: argparse.Namespace, claims: Any, seed: int, runs: int, default_runs: int,
                differences: list[str], sizes: dict[str, Any]) -> None:  # fmt: skip
    """Save a reproduction's verdicts to ``--results``/NAME.json and print the path."""
    from planner import __version__
    from validation.study.reproduce import scoreboard

    res = scoreboard.result(args.name, claims, seed=seed, runs=runs, default_runs=default_runs,
                            version=__version__, differences=differences,
                            options=sizes)  # fmt: skip
    try:
        path = scoreboard.save(res, args.results)
    except OSError as err:
        raise UsageError(f"planner study reproduce: cannot write to {args.results} "
                         f"({err.strerror})") from None  # fmt: skip
    print(f"result: {path}")


def _check_results(directory: str) -> None:
    """Refuse, before any run, a ``--results`` that is a file or lies under one."""
    from pathlib import Path

    probe = Path(directory)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise UsageError(f"planner study reproduce: --results {directory}: cannot save results "
                         f"there ({probe} is not a directory)")  # fmt: skip


def _scoreboard(args: argparse.Namespace) -> int:
    """Print the scoreboard of every experiment from the results saved in ``--results``."""
    from planner import __version__
    from validation.study.reproduce import scoreboard

    if args.name is not None:
        raise UsageError("planner study reproduce: --summary covers every experiment; "
                         "drop the NAME")  # fmt: skip
    saved = scoreboard.load(args.results)
    if args.markdown:
        print(scoreboard.markdown(saved, __version__, link_from="reproductions.md"))
    else:
        print(scoreboard.text(saved, __version__, args.results))
    return 0
