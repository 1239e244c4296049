"""``planner study``: optimality-gap studies and paper reproductions.

See the README's "Optimality-gap studies" section.

- ``planner study gap [--family F] [--PARAM V ...] [--instances N] ...``: every
  heuristic against the exact optimum on N generated instances; rows go to
  an SQLite database (resumable), the summary table to stdout and a report
  with figures to ``--out`` (default: ``study-out/FAMILY-HASH``, one folder per
  study). Without arguments it runs the quick default. Every input is checked
  before any work; see docs/study-reliability.md for the guarantees under
  interruption, damage and concurrency, and the exit codes.
- ``planner study reproduce NAME``: a named paper experiment, paper vs ours.
- ``planner study report --db FILE`` / ``export --db FILE -o FILE``: re-render
  a report, export rows to CSV or Parquet.
- ``planner study list --db FILE``: the studies in a database.

``report``, ``export`` and ``list`` read a database of any study kind (gap,
cluster, schedule-gap; ``validation.study.kinds``), recognised by its format
marker and opened read-only.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from instances.errors import did_you_mean
from planner.cli.common import UsageError, param_value, print_table, wrote
from validation.study.spec import MAX_INSTANCES, MAX_THREADS

QUICK: dict[str, Any] = {
    "family": "tiny", "instances": 40, "seed": 0, "geometries": ("rough", "square"),
}  # fmt: skip
"""The quick default study (``planner study gap`` without arguments)."""

DEFAULT_OUT = "study-out"
RESULTS = f"{DEFAULT_OUT}/reproduce"

WIDE_HELP = "print every column of the summary (default: a table that fits 100 columns)"

MAX_WORKERS = 256
"""The most local worker processes."""


class _Parser(argparse.ArgumentParser):
    """One-line usage errors; with ``family_params``, unknown ``--NAME VALUE`` pairs are
    collected as family parameters (texts, parsed as in ``planner generate``)."""

    family_params = False

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if not self.family_params:
            return super().parse_known_args(args, namespace)
        tokens, params = list(args or []), {}
        known: list[str] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            key, eq, value = tok.partition("=")
            if not tok.startswith("--") or tok == "--" or key in self._option_string_actions:
                known.append(tok)
                i += 1
                continue
            if not eq:
                if i + 1 >= len(tokens):
                    self.error(f"{key} needs a value")
                value = tokens[i + 1]
                i += 1
            params[key[2:].replace("-", "_")] = value
            i += 1
        ns, extras = super().parse_known_args(known, namespace)
        ns.params = params
        return ns, extras


def _number(kind: str, cast: type, minimum: float, maximum: float | None = None) -> Any:
    def parse(text: str) -> Any:
        try:
            value = cast(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be a number, got '{text}'") from None
        if minimum == 0 and cast is float and not value > 0:
            raise argparse.ArgumentTypeError(f"{kind} must be > 0, got '{text}'")
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{kind} must be >= {minimum}, got '{text}'")
        if maximum is not None and not value <= maximum:
            raise argparse.ArgumentTypeError(f"{kind} must be <= {maximum:,.0f}, got '{text}'")
        return value

    return parse


def _sizes(kind: str) -> Any:
    def parse(text: str) -> list[int]:
        try:
            values = [int(x) for x in text.split(",")]
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{kind} must be comma-separated integers, got '{text}'"
            ) from None
        if any(v < 1 for v in values):
            raise argparse.ArgumentTypeError(f"{kind} values must be >= 1, got '{text}'")
        return values

    return parse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``study`` command and its subcommands."""
    p = sub.add_parser("study", help="optimality-gap studies and paper reproductions")
    ss = p.add_subparsers(dest="study_command", metavar="SUBCOMMAND", parser_class=_Parser)
    p.set_defaults(run=lambda args: _missing_subcommand(list(ss.choices)))

    g = ss.add_parser(
        "gap", help="every heuristic against the exact optimum (no arguments: quick default)",
        epilog="Family parameters are given as --NAME VALUE, as in 'planner generate'.",
    )  # fmt: skip
    g.family_params = True
    g.add_argument("--family", help="instance family (default: the quick study: tiny, 40 "
                   "instances, seed 0, rough and square)")  # fmt: skip
    g.add_argument("--instances", type=_number("--instances", int, 1, MAX_INSTANCES),
                   help=f"default 40, at most {MAX_INSTANCES:,}")  # fmt: skip
    g.add_argument("--seed", type=_number("--seed", int, 0), help="study seed (default 0)")
    g.add_argument("--algorithms", "--algorithm", nargs="+", metavar="NAME",
                   help="default: every heuristic (--algorithm is the same option)")
    g.add_argument("--solver", default="cpsat", help="exact solver (default cpsat)")
    g.add_argument("--time-limit", type=_number("--time-limit", float, 0, 1e9),
                   help="s per solve")  # fmt: skip
    g.add_argument("--threads", type=_number("--threads", int, 1, MAX_THREADS), default=1,
                   help=f"solver threads (default 1, at most {MAX_THREADS})")  # fmt: skip
    g.add_argument("--geometry", nargs="+", choices=("rough", "square"),
                   help="evaluate each instance in these geometries (default: own)")  # fmt: skip
    g.add_argument("--db", help=f"SQLite file (default: OUT/study.sqlite, {DEFAULT_OUT}/"
                   "study.sqlite without --out); reruns resume")  # fmt: skip
    g.add_argument("--out", help=f"report directory (default: {DEFAULT_OUT}/FAMILY-HASH, one "
                   "per study)")  # fmt: skip
    g.add_argument("--workers", type=_number("--workers", int, 1, MAX_WORKERS),
                   help=f"worker processes (default: cores // threads, at most {MAX_WORKERS})")
    g.add_argument("--executor", default="local", choices=("local", "dask"))
    g.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
    g.add_argument("--quiet", action="store_true", help="no progress line")
    g.add_argument("--svg", action="store_true", help="also write the figures as SVG "
                   "(default: PNG only)")  # fmt: skip
    g.add_argument("--wide", action="store_true", help=WIDE_HELP)
    g.set_defaults(run=run_gap)

    from planner.cli import study_cluster

    study_cluster.register(ss, _number)

    from planner.cli import study_schedule

    study_schedule.register(ss, _number)

    r = ss.add_parser("reproduce", help="a named paper experiment: paper vs ours")
    r.add_argument("name", nargs="?", help="experiment name (omit to list them)")
    r.add_argument("--seed", type=_number("--seed", int, 0), help="override the default seed")
    r.add_argument("--runs", "--cycles", dest="runs", type=_number("--runs", int, 1),
                   help="override the run count (cycles, for the VO-flow experiments)")  # fmt: skip
    r.add_argument("--executor", choices=("local", "dask"),
                   help="run VO-flow experiments' cycles on local processes or Dask")  # fmt: skip
    r.add_argument("--workers", type=_number("--workers", int, 1),
                   help="executor workers (egedf: local processes replaying the streams)")
    r.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
    r.add_argument("--repeats", type=_number("--repeats", int, 1),
                   help="timing only: timed searches per instance after the warm-up (default 3)")
    r.add_argument("--nodes", type=_sizes("--nodes"),
                   help="timing only: node counts, comma-separated (default 50,100,200,300,400)")
    r.add_argument("--intervals", type=_sizes("--intervals"),
                   help="timing only: interval lengths, comma-separated (default 600,...,3600)")
    r.add_argument("--exact-runs", type=_number("--exact-runs", int, 0),
                   help="slicer, estimates, bsf: exact-baseline cycles (default min(runs, 100))")
    r.add_argument("--exact-size", choices=("small", "paper"),
                   help="slicer, estimates, bsf: exact-baseline batch: small (6 jobs, 12 nodes; "
                   "default) or paper (20 jobs, 24 nodes, Toporkov et al. 2015)")  # fmt: skip
    r.add_argument("--exact-solver", metavar="NAME",
                   help="slicer, estimates, bsf: joint solver of the exact baseline "
                   "(planner list; default cpsat)")  # fmt: skip
    study_schedule.reproduce_arguments(r, _number)
    r.add_argument("--results", metavar="DIR", default=RESULTS,
                   help=f"where each run saves NAME.json and --summary reads them (default "
                   f"{RESULTS})")  # fmt: skip
    r.add_argument("--summary", action="store_true",
                   help="print the scoreboard of every experiment from the saved results")
    r.add_argument("--markdown", action="store_true", help="--summary as a Markdown table")
    r.add_argument("--wide", action="store_true",
                   help="the list with full titles (default: fits 100 columns)")  # fmt: skip
    r.set_defaults(run=run_reproduce)

    for name, helptext in (("report", "re-render the report of a study database"),
                           ("export", "export a study's rows to CSV or Parquet"),
                           ("list", "list the studies in a database")):  # fmt: skip
        e = ss.add_parser(name, help=helptext)
        e.add_argument("--db", required=True, help="the study database")
        if name != "list":
            e.add_argument("--study", type=int, help="study id (default: the latest)")
        if name == "report":
            e.add_argument("--out", help=f"report directory (default: {DEFAULT_OUT}/"
                           "FAMILY-HASH, one per study)")  # fmt: skip
            e.add_argument("--svg", action="store_true", help="also write the figures as SVG "
                           "(default: PNG only)")  # fmt: skip
            e.add_argument("--wide", action="store_true", help=WIDE_HELP)
        if name == "export":
            e.add_argument("-o", "--output", required=True, help="FILE.csv or FILE.parquet")
        e.set_defaults(run={"report": run_report, "export": run_export, "list": run_list}[name])


def _missing_subcommand(names: list[str]) -> int:
    raise UsageError(f"planner study: missing SUBCOMMAND (choose from: {', '.join(names)}; "
                     "see planner study --help)")  # fmt: skip


def _study_errors(fn: Any) -> Any:
    """Turn a StudyError (bad input) into a one-line usage error."""

    def wrapped(args: argparse.Namespace) -> int:
        from validation.study import StudyError

        try:
            return int(fn(args) or 0)
        except StudyError as err:
            raise UsageError(f"planner study: {str(err).splitlines()[0]}") from None

    return wrapped


@_study_errors
def run_gap(args: argparse.Namespace) -> int:
    """Run (or resume) a gap study, print the summary table and write the report.

    Every input (names, ranges, paths, the scheduler address, the database) is checked
    before any instance is computed (docs/study-reliability.md).
    """
    from pathlib import Path

    from planner import __version__
    from validation.study import Store, StudySpec, WorkerLost, make_executor, resolve, run_study
    from validation.study.executors import WorkerStartError, check_scheduler
    from validation.study.kinds import output_errors
    from validation.study.report import check_out, default_dir, write_report

    if args.family is None and args.params:
        raise UsageError("planner study gap: family parameters need --family")
    from instances import FAMILIES

    defaults = FAMILIES[args.family].defaults if args.family in FAMILIES else {}
    params = {
        k: param_value("planner study gap", k, v, defaults.get(k)) for k, v in args.params.items()
    }
    spec = StudySpec(
        family=args.family or QUICK["family"],
        params=params,
        instances=args.instances or QUICK["instances"],
        seed=QUICK["seed"] if args.seed is None else args.seed,
        algorithms=tuple(args.algorithms or ()),
        solver=args.solver,
        time_limit=args.time_limit,
        threads=args.threads,
        geometries=tuple(dict.fromkeys(args.geometry or ()))
        or (QUICK["geometries"] if args.family is None else ()),
    )
    resolve(spec)  # bad names exit 2 before anything is written
    if args.scheduler is not None:
        if args.executor != "dask":
            raise UsageError("planner study gap: --scheduler needs --executor dask")
        check_scheduler(args.scheduler)
    base = Path(args.out or DEFAULT_OUT)
    out = base if args.out else default_dir(base, spec, __version__)
    db = args.db or str(base / "study.sqlite")
    check_out(out, spec, __version__, db)
    if args.db is None:
        with output_errors(base):
            base.mkdir(parents=True, exist_ok=True)
    with Store(db) as store:
        executor = make_executor(args.executor, workers=args.workers, threads=args.threads,
                                 scheduler=args.scheduler)  # fmt: skip
        try:
            outcome = run_study(spec, store, executor=executor, version=__version__,
                                progress=False if args.quiet else None)  # fmt: skip
        except (WorkerLost, WorkerStartError) as err:
            print(f"planner study: {err}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            done = len(store.done(store.find(spec, __version__) or 0))
            raise KeyboardInterrupt(f"interrupted; {done} of {spec.instances} instances are "
                                    "saved, rerun the same command to resume") from None
        with output_errors(out):
            rep = write_report(store, outcome.study, out, _formats(args),
                               progress=False if args.quiet else None)  # fmt: skip
    wrote(db, *rep["files"])
    print(f"{spec.family}: {spec.instances} instances ({outcome.written} computed now), "
          f"{outcome.rows} rows in {db}")  # fmt: skip
    _print_summary(rep, args.wide)
    if rep["errors"]:
        print(f"planner study: {len(rep['errors'])} error row(s) (see the report); instances "
              f"saved in {out / 'errors'}", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _formats(args: argparse.Namespace) -> tuple[str, ...]:
    return ("png", "svg") if args.svg else ("png",)


def _open_study(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any]]:
    """Open a study database of any kind read-only; return its kind, store and the chosen
    study's record."""
    from validation.study import StudyError
    from validation.study.kinds import open_readonly

    kind, store = open_readonly(args.db)
    studies = {s["id"]: s for s in store.studies()}
    if not studies:
        store.close()
        raise StudyError(f"{args.db}: the database holds no study")
    study = max(studies) if args.study is None else args.study
    if study not in studies:
        store.close()
        raise StudyError(f"{args.db}: no study {study} (studies: {', '.join(map(str, studies))})")
    return kind, store, studies[study]


@_study_errors
def run_report(args: argparse.Namespace) -> int:
    """Re-render the report of a study (of any kind) from its database."""
    from validation.study.kinds import output_errors
    from validation.study.report import check_out

    kind, store, info = _open_study(args)
    with store:
        out = args.out or kind.default_dir(DEFAULT_OUT, info["spec"], info["version"])
        check_out(out, info["spec"], info["version"], args.db)
        kind.rows(store, info)  # a damaged study is refused before anything is written
        with output_errors(out):
            rep = kind.report(store, info, out, _formats(args), args.wide)
    wrote(*rep["files"])
    print(rep["table"])
    print()
    print(rep["findings"])
    print(f"report: {rep['report']}")
    return 0


def _print_summary(rep: dict[str, Any], wide: bool) -> None:
    """Print a gap study's summary table, its columns in words, the Findings and the report path."""
    from validation.study.report import NARROW_LEGEND, text_table

    print(text_table(rep["summary"], wide=wide))
    if not wide:
        print(textwrap.fill(NARROW_LEGEND, 100))
    print()
    print(rep["findings"])
    print(f"report: {rep['report']}")


@_study_errors
def run_export(args: argparse.Namespace) -> int:
    """Export a study's rows (any kind) to CSV (or Parquet for a ``.parquet`` output)."""
    import os
    from pathlib import Path

    from validation.study.export import export_csv, export_parquet

    if not args.output.lower().endswith((".csv", ".parquet")):
        raise UsageError(f"planner study export: {args.output}: the output must end in .csv "
                         "or .parquet")  # fmt: skip
    target = Path(args.output)
    same = target.resolve() == Path(args.db).resolve()
    if not same and target.exists() and Path(args.db).exists():
        same = os.path.samefile(target, args.db)
    if same:
        raise UsageError(f"planner study export: {args.output}: is the database itself; "
                         "choose another output")  # fmt: skip
    if target.is_dir() or not target.parent.is_dir():
        raise UsageError(f"planner study export: cannot write {args.output} (not a file in an "
                         "existing directory)")  # fmt: skip
    kind, store, info = _open_study(args)
    with store:
        rows = kind.rows(store, info)
    writer = export_parquet if args.output.lower().endswith(".parquet") else export_csv
    try:
        writer(rows, args.output, kind.store.COLUMNS)
    except OSError as err:
        raise UsageError(f"planner study: cannot write {args.output} ({err.strerror})") from None
    print(f"{len(rows)} rows written to {args.output}")
    return 0


@_study_errors
def run_list(args: argparse.Namespace) -> int:
    """List the studies of a database of any kind (opened read-only: nothing is written)."""
    from validation.study.kinds import open_readonly

    kind, store = open_readonly(args.db)
    with store:
        rows = [kind.listing(s) for s in store.studies()]
    print_table(list(kind.list_columns), [[r[c] for c in kind.list_columns] for r in rows])
    return 0


@_study_errors
def run_reproduce(args: argparse.Namespace) -> int:
    """Run a named paper reproduction, print paper vs ours and save its result; or list them,
    or (``--summary``) print the scoreboard of the saved results."""
    from planner.cli import study_schedule
    from validation.study.reproduce import REPRODUCTIONS, run
    from validation.study.tables import WIDTH, render

    if args.summary or args.markdown:
        return _scoreboard(args)
    if args.name is None:
        rows = [[r.name, r.source, r.title] for r in REPRODUCTIONS.values()]
        rows.append(study_schedule.REPRODUCTION_ROW)
        if not args.wide:  # the citation without its parenthesised details
            rows = [[n, src.split(" (")[0], what] for n, src, what in rows]
        print(render(["name", "source", "what"], rows, left=3,
                     width=None if args.wide else WIDTH))  # fmt: skip
        return 0
    _check_results(args.results)
    if args.name == study_schedule.REPRODUCTION_ROW[0]:
        return study_schedule.run_reproduce_egedf(args)
    if args.name not in REPRODUCTIONS:
        names = [*REPRODUCTIONS, study_schedule.REPRODUCTION_ROW[0]]
        hint = did_you_mean(args.name, names)
        raise UsageError(f"planner study reproduce: unknown experiment '{args.name}'{hint} "
                         f"(choose from: {', '.join(names)})")  # fmt: skip
    egedf_only = [k for k in ("jobs", "repetitions", "out") if getattr(args, k) is not None]
    if egedf_only:
        raise UsageError(f"planner study reproduce: --{egedf_only[0]} applies to 'egedf' only")
    options = {k: getattr(args, k) for k in ("repeats", "nodes", "intervals")}
    options = {k: v for k, v in options.items() if v is not None}
    if options and args.name != "timing":
        raise UsageError(f"planner study reproduce: --{next(iter(options))} applies to "
                         f"'timing' only")  # fmt: skip
    options.update(_exact_options(args, REPRODUCTIONS[args.name].run))
    options.update(_executor_options(args, REPRODUCTIONS[args.name].run))
    rep = REPRODUCTIONS[args.name]
    seed, runs = args.seed or 0, args.runs or rep.default_runs
    cmp = run(args.name, seed=seed, runs=runs, **options)
    print(cmp.render())
    sizes = {k: v for k, v in options.items() if k in ("repeats", "nodes", "intervals")}
    save_result(args, cmp.orderings, seed, runs, rep.default_runs, cmp.differences(), sizes)
    return 0


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


def _exact_options(args: argparse.Namespace, run: Any) -> dict[str, Any]:
    """Return ``exact_runs``/``exact_size``/``exact_solver`` for the VO-flow reproductions."""
    import inspect

    given = {k: getattr(args, k) for k in ("exact_runs", "exact_size", "exact_solver")}
    given = {k: v for k, v in given.items() if v is not None}
    if given and "exact_size" not in inspect.signature(run).parameters:
        flag = "--" + next(iter(given)).replace("_", "-")
        raise UsageError(f"planner study reproduce: {flag} applies to 'slicer', 'estimates' "
                         "and 'bsf' only")  # fmt: skip
    if "exact_solver" in given:
        from models import JOINT_SOLVERS

        name = given["exact_solver"]
        if name not in JOINT_SOLVERS:
            raise UsageError(f"planner study reproduce: --exact-solver must be one of "
                             f"{', '.join(JOINT_SOLVERS)}, got '{name}'")  # fmt: skip
    return given


def _executor_options(args: argparse.Namespace, run: Any) -> dict[str, Any]:
    """Return ``executor=`` for reproductions that take one (the VO-flow experiments)."""
    import inspect

    wanted = args.executor or args.workers or args.scheduler
    if "executor" not in inspect.signature(run).parameters:
        if wanted:
            raise UsageError(f"planner study reproduce: '{args.name}' runs in-process only "
                             "(--executor/--workers/--scheduler do not apply)")  # fmt: skip
        return {}
    if not wanted:
        return {}
    from validation.study import make_executor

    kind = args.executor or "local"
    return {"executor": make_executor(kind, workers=args.workers, scheduler=args.scheduler)}
