"""``planner study``: optimality-gap studies and paper reproductions.

See the README's "Optimality-gap studies" section.

- ``planner study gap [--family F] [--PARAM V ...] [--instances N] ...``: every
  heuristic against the exact optimum on N generated instances; rows go to
  an SQLite database (resumable), the summary table to stdout and a report
  with figures to ``--out``. Without arguments it runs the quick default.
- ``planner study reproduce NAME``: a named paper experiment, paper vs ours.
- ``planner study report --db FILE`` / ``export --db FILE -o FILE``: re-render
  a report, export rows to CSV or Parquet.
- ``planner study list --db FILE``: the studies in a database.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from planner.cli.common import UsageError, param_value, print_table

QUICK: dict[str, Any] = {
    "family": "tiny", "instances": 40, "seed": 0, "geometries": ("rough", "square"),
}  # fmt: skip
"""The quick default study (``planner study gap`` without arguments)."""

DEFAULT_OUT = "study-out"


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


def _number(kind: str, cast: type, minimum: float) -> Any:
    def parse(text: str) -> Any:
        try:
            value = cast(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be a number, got '{text}'") from None
        if minimum == 0 and cast is float and not value > 0:
            raise argparse.ArgumentTypeError(f"{kind} must be > 0, got '{text}'")
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{kind} must be >= {minimum}, got '{text}'")
        return value

    return parse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``study`` command and its subcommands."""
    p = sub.add_parser("study", help="optimality-gap studies and paper reproductions")
    p.set_defaults(run=lambda args: _help(p))
    ss = p.add_subparsers(dest="study_command", metavar="SUBCOMMAND", parser_class=_Parser)

    g = ss.add_parser(
        "gap", help="every heuristic against the exact optimum (no arguments: quick default)",
        epilog="Family parameters are given as --NAME VALUE, as in 'planner generate'.",
    )  # fmt: skip
    g.family_params = True
    g.add_argument("--family", help="instance family (default: the quick study: tiny, 40 "
                   "instances, seed 0, rough and square)")  # fmt: skip
    g.add_argument("--instances", type=_number("--instances", int, 1), help="default 40")
    g.add_argument("--seed", type=_number("--seed", int, 0), help="study seed (default 0)")
    g.add_argument("--algorithms", nargs="+", metavar="NAME", help="default: every heuristic")
    g.add_argument("--solver", default="cpsat", help="exact solver (default cpsat)")
    g.add_argument("--time-limit", type=_number("--time-limit", float, 0), help="s per solve")
    g.add_argument("--threads", type=_number("--threads", int, 1), default=1,
                   help="solver threads (default 1)")  # fmt: skip
    g.add_argument("--geometry", nargs="+", choices=("rough", "square"),
                   help="evaluate each instance in these geometries (default: own)")  # fmt: skip
    g.add_argument("--db", help="SQLite file (default: OUT/study.sqlite); reruns resume")
    g.add_argument("--out", default=DEFAULT_OUT, help=f"report directory (default {DEFAULT_OUT})")
    g.add_argument("--workers", type=_number("--workers", int, 1),
                   help="worker processes (default: cores // threads)")  # fmt: skip
    g.add_argument("--executor", default="local", choices=("local", "dask"))
    g.add_argument("--scheduler", help="Dask scheduler address (default: a local cluster)")
    g.add_argument("--quiet", action="store_true", help="no progress line")
    g.set_defaults(run=run_gap)

    from planner.cli import study_cluster

    study_cluster.register(ss, _number)

    from planner.cli import study_schedule

    study_schedule.register(ss, _number)

    r = ss.add_parser("reproduce", help="a named paper experiment: paper vs ours")
    r.add_argument("name", nargs="?", help="experiment name (omit to list them)")
    r.add_argument("--seed", type=_number("--seed", int, 0), help="override the default seed")
    r.add_argument("--runs", type=_number("--runs", int, 1), help="override the run count")
    study_schedule.reproduce_arguments(r, _number)
    r.set_defaults(run=run_reproduce)

    for name, helptext in (("report", "re-render the report of a study database"),
                           ("export", "export a study's rows to CSV or Parquet"),
                           ("list", "list the studies in a database")):  # fmt: skip
        e = ss.add_parser(name, help=helptext)
        e.add_argument("--db", required=True, help="the study database")
        if name != "list":
            e.add_argument("--study", type=int, help="study id (default: the latest)")
        if name == "report":
            e.add_argument("--out", default=DEFAULT_OUT, help="report directory")
        if name == "export":
            e.add_argument("-o", "--output", required=True, help="FILE.csv or FILE.parquet")
        e.set_defaults(run={"report": run_report, "export": run_export, "list": run_list}[name])


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


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
    """Run (or resume) a gap study, print the summary table and write the report."""
    from pathlib import Path

    from validation.study import Store, StudySpec, WorkerLost, make_executor, resolve, run_study
    from validation.study.report import text_table, write_report

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
    out = Path(args.out)
    if args.db is None:
        out.mkdir(parents=True, exist_ok=True)
    db = args.db or str(out / "study.sqlite")
    with Store(db) as store:
        executor = make_executor(args.executor, workers=args.workers, threads=args.threads,
                                 scheduler=args.scheduler)  # fmt: skip
        try:
            outcome = run_study(spec, store, executor=executor,
                                progress=False if args.quiet else None)  # fmt: skip
        except WorkerLost as err:
            print(f"planner study: {err}", file=sys.stderr)
            return 1
        rep = write_report(store, outcome.study, out)
    print(f"{spec.family}: {spec.instances} instances ({outcome.written} computed now), "
          f"{outcome.rows} rows in {db}")  # fmt: skip
    print(text_table(rep["summary"]))
    print(f"report: {rep['report']}")
    if rep["errors"]:
        print(f"planner study: {len(rep['errors'])} error row(s) (see the report); instances "
              f"saved in {out / 'errors'}", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _open_study(args: argparse.Namespace) -> tuple[Any, int]:
    from pathlib import Path

    from validation.study import Store, StudyError

    if not Path(args.db).is_file():
        raise StudyError(f"{args.db}: no such file")
    store = Store(args.db)
    ids = [s["id"] for s in store.studies()]
    if not ids:
        store.close()
        raise StudyError(f"{args.db}: the database holds no study")
    study = ids[-1] if args.study is None else args.study
    if study not in ids:
        store.close()
        raise StudyError(f"{args.db}: no study {study} (studies: {', '.join(map(str, ids))})")
    return store, study


@_study_errors
def run_report(args: argparse.Namespace) -> int:
    """Re-render the report of a study from its database."""
    from validation.study.report import text_table, write_report

    store, study = _open_study(args)
    with store:
        rep = write_report(store, study, args.out)
    print(text_table(rep["summary"]))
    print(f"report: {rep['report']}")
    return 0


@_study_errors
def run_export(args: argparse.Namespace) -> int:
    """Export a study's rows to CSV (or Parquet for a ``.parquet`` output)."""
    from validation.study.export import export_csv, export_parquet

    if not args.output.lower().endswith((".csv", ".parquet")):
        raise UsageError(f"planner study export: {args.output}: the output must end in .csv "
                         "or .parquet")  # fmt: skip
    store, study = _open_study(args)
    with store:
        rows = store.rows(study)
    writer = export_parquet if args.output.lower().endswith(".parquet") else export_csv
    try:
        writer(rows, args.output)
    except OSError as err:
        raise UsageError(f"planner study: cannot write {args.output} ({err.strerror})") from None
    print(f"{len(rows)} rows written to {args.output}")
    return 0


@_study_errors
def run_list(args: argparse.Namespace) -> int:
    """List the studies of a database."""
    from pathlib import Path

    from validation.study import Store, StudyError

    if not Path(args.db).is_file():
        raise StudyError(f"{args.db}: no such file")
    with Store(args.db) as store:
        rows = [[s["id"], s["spec"].family, json.dumps(s["spec"].params), s["spec"].instances,
                 s["done"], s["spec"].seed, s["spec"].solver, s["version"], s["created"]]
                for s in store.studies()]  # fmt: skip
    print_table(["id", "family", "params", "instances", "done", "seed", "solver", "version",
                 "created"], rows)  # fmt: skip
    return 0


@_study_errors
def run_reproduce(args: argparse.Namespace) -> int:
    """Run a named paper reproduction and print paper vs ours."""
    from planner.cli import study_schedule
    from validation.study.reproduce import REPRODUCTIONS, reproduce

    if args.name is None:
        print_table(["name", "source", "what"],
                    [[r.name, r.source, r.title] for r in REPRODUCTIONS.values()]
                    + [study_schedule.REPRODUCTION_ROW])  # fmt: skip
        return 0
    if args.name == study_schedule.REPRODUCTION_ROW[0]:
        return study_schedule.run_reproduce_egedf(args)
    if args.name not in REPRODUCTIONS:
        raise UsageError(f"planner study reproduce: unknown experiment '{args.name}' "
                         f"(choose from: {', '.join(REPRODUCTIONS)})")  # fmt: skip
    print(reproduce(args.name, seed=args.seed, runs=args.runs))
    return 0
