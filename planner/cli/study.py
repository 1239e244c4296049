"""``planner study``: studies of every kind, and the commands that read their databases.

See the README's "Optimality-gap studies" section and docs/studies.md.

- ``planner study KIND [OPTIONS]``: run (or resume) a study of a registered kind
  (``gap``, ``cluster``, ``schedule-gap``; ``validation.study.registry``). Each kind
  declares its own options; every kind shares the rest and one run loop
  (:func:`run_study`): every input is checked before any work, rows go to an SQLite
  database (resumable), the summary table to stdout and a report with figures to
  ``--out`` (default: ``study-out/PREFIX-HASH``, one folder per study). See
  docs/study-reliability.md for the guarantees under interruption, damage and
  concurrency, and the exit codes.
- ``planner study reproduce NAME``: a named paper experiment, paper vs ours
  (:mod:`planner.cli.study_reproduce`).
- ``planner study report --db FILE`` / ``export --db FILE -o FILE``: re-render
  a report, export rows to CSV or Parquet.
- ``planner study list --db FILE``: the studies in a database.

``report``, ``export`` and ``list`` read a database of any kind, recognised by its
format marker and opened read-only.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any

from instances.text import plural
from planner.cli import study_reproduce
from planner.cli.common import UsageError, print_table, wrote
from planner.cli.study_errors import study_errors

DEFAULT_OUT = "study-out"

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


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``study`` command: one subcommand per registered kind, ``reproduce``, and
    ``report``, ``export``, ``list``."""
    from validation.study.engine.options import number
    from validation.study.registry import KINDS

    p = sub.add_parser("study", help="optimality-gap studies and paper reproductions")
    ss = p.add_subparsers(dest="study_command", metavar="SUBCOMMAND", parser_class=_Parser)
    p.set_defaults(run=lambda args: _missing_subcommand(list(ss.choices)))

    for kind in KINDS.values():
        k = ss.add_parser(kind.name, help=kind.help, epilog=kind.epilog)
        k.family_params = kind.family_params
        kind.add_arguments(k)
        k.add_argument("--db", help=f"SQLite file (default: OUT/{kind.database}, "
                       f"{DEFAULT_OUT}/{kind.database} without --out); reruns resume")
        k.add_argument("--out", help=f"report directory (default: {DEFAULT_OUT}/PREFIX-HASH, "
                       "one per study)")  # fmt: skip
        k.add_argument("--workers", type=number("--workers", int, 1, MAX_WORKERS),
                       help=f"worker processes (default: cores // threads, at most "
                       f"{MAX_WORKERS})")  # fmt: skip
        k.add_argument("--executor", default="local", choices=("local", "dask"),
                       help=f"where {kind.unit}s run: local processes (default) or Dask "
                       "(docs/several-machines.md)")  # fmt: skip
        k.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
        k.add_argument("--quiet", action="store_true", help="no progress line")
        k.add_argument("--svg", action="store_true", help="also write the figures as SVG "
                       "(default: PNG only)")  # fmt: skip
        k.add_argument("--wide", action="store_true", help=WIDE_HELP)
        k.set_defaults(run=functools.partial(run_study, kind))

    study_reproduce.register(ss)

    for name, helptext in (("report", "re-render the report of a study database"),
                           ("export", "export a study's rows to CSV or Parquet"),
                           ("list", "list the studies in a database")):  # fmt: skip
        e = ss.add_parser(name, help=helptext)
        e.add_argument("--db", required=True, help="the study database")
        if name != "list":
            e.add_argument("--study", type=int, help="study id (default: the latest)")
        if name == "report":
            e.add_argument("--out", help=f"report directory (default: {DEFAULT_OUT}/"
                           "PREFIX-HASH, one per study)")  # fmt: skip
            e.add_argument("--svg", action="store_true", help="also write the figures as SVG "
                           "(default: PNG only)")  # fmt: skip
            e.add_argument("--wide", action="store_true", help=WIDE_HELP)
        if name == "export":
            e.add_argument("-o", "--output", required=True, help="FILE.csv or FILE.parquet")
        e.set_defaults(run={"report": run_report, "export": run_export, "list": run_list}[name])


def _missing_subcommand(names: list[str]) -> int:
    raise UsageError(f"planner study: missing SUBCOMMAND (choose from: {', '.join(names)}; "
                     "see planner study --help)")  # fmt: skip


@study_errors
def run_study(kind: Any, args: argparse.Namespace) -> int:
    """Run (or resume) a study of ``kind``, print its summary and write its report.

    The one run loop of every kind: the spec, the scheduler address, the extra outputs,
    the report folder and the database are checked before any unit is computed
    (docs/study-reliability.md); then the units not yet stored run on the executor and
    are written as they complete; then the report. Exit 1 when the report found problems
    (error rows, checker violations).
    """
    from planner import __version__
    from validation.study.engine.document import check_out, output_errors
    from validation.study.engine.executors import check_scheduler, make_executor

    spec = kind.spec_from_args(args)
    kind.check(spec)  # bad names exit 2 before anything is written
    if args.scheduler is not None:
        if args.executor != "dask":
            raise UsageError(f"planner study {kind.name}: --scheduler needs --executor dask")
        check_scheduler(args.scheduler)
    kind.check_outputs(args)
    base = Path(args.out or DEFAULT_OUT)
    out = base if args.out else kind.default_dir(base, spec, __version__)
    db = args.db or str(base / kind.database)
    check_out(out, spec, __version__, db, kind.report_files())
    if args.db is None:
        with output_errors(base):
            base.mkdir(parents=True, exist_ok=True)
    progress = False if args.quiet else None
    with kind.store(db) as store:
        executor = make_executor(args.executor, workers=args.workers,
                                 threads=kind.threads(spec), scheduler=args.scheduler)
        try:
            outcome = kind.run(spec, store, executor=executor, version=__version__,
                               progress=progress)  # fmt: skip
        except KeyboardInterrupt:
            done = len(store.done(store.find(spec, __version__) or 0))
            total = len(kind.units(spec, store).expected)
            raise KeyboardInterrupt(f"interrupted; {done} of {total} {kind.unit}s are saved, "
                                    "rerun the same command to resume") from None
        with output_errors(out):
            report = kind.write_report(store, outcome.study, out, _formats(args), progress)
        headline = kind.headline(spec, outcome, store)
    extra = kind.write_outputs(args, outcome.rows)
    wrote(db, *report.files, *extra)
    print(headline)
    _print_report(report, args.wide)
    for problem in report.problems:
        print(f"planner study {kind.name}: {problem}", file=sys.stderr)
    return 1 if report.problems else 0


def _formats(args: argparse.Namespace) -> tuple[str, ...]:
    return ("png", "svg") if args.svg else ("png",)


def _print_report(report: Any, wide: bool) -> None:
    """Print a report's summary table, its Findings and its path."""
    print(report.text(wide))
    print()
    print(report.findings)
    print(f"report: {report.path}")


def _open_study(args: argparse.Namespace) -> tuple[Any, Any, dict[str, Any]]:
    """Open a study database of any kind read-only; return its kind, store and the chosen
    study's record."""
    from validation.study.engine.errors import StudyError
    from validation.study.registry import open_readonly

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


@study_errors
def run_report(args: argparse.Namespace) -> int:
    """Re-render the report of a study (of any kind) from its database."""
    from validation.study.engine.document import check_out, output_errors

    kind, store, info = _open_study(args)
    with store:
        out = args.out or kind.default_dir(DEFAULT_OUT, info["spec"], info["version"])
        check_out(out, info["spec"], info["version"], args.db, kind.report_files())
        kind.rows(store, info)  # a damaged study is refused before anything is written
        with output_errors(out):
            report = kind.write_report(store, info["id"], out, _formats(args))
    wrote(*report.files)
    _print_report(report, args.wide)
    return 0


@study_errors
def run_export(args: argparse.Namespace) -> int:
    """Export a study's rows (any kind) to CSV (or Parquet for a ``.parquet`` output)."""
    import os

    from validation.study.engine.export import export_csv, export_parquet

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
    print(f"{plural(len(rows), 'row')} written to {args.output}")
    return 0


@study_errors
def run_list(args: argparse.Namespace) -> int:
    """List the studies of a database of any kind (opened read-only: nothing is written)."""
    from validation.study.registry import open_readonly

    kind, store = open_readonly(args.db)
    with store:
        rows = [kind.listing(s) for s in store.studies()]
    print_table(list(kind.list_columns), [[r[c] for c in kind.list_columns] for r in rows])
    return 0
