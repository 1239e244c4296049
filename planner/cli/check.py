"""``planner check INSTANCE RESULTS``: check a result file against its instance (docs/verify.md).

Every window of the file (``planner solve``/``exact``, ``alternatives`` or
``combine`` lines, or the minimal form another program prints) goes through
the independent checker of :mod:`validation.results`, field by field.
``--algorithm`` also compares each job with planner's own answer,
``--exact`` with the proven optimum of its criterion.

Exit codes: 0 every rule holds (and, with ``--algorithm``, every job is
identical or tied); 3 violations or disagreements, one per line on stdout;
2 bad input (one line on stderr); 1 an internal error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from instances.text import plural
from planner.cli.common import EXIT_VIOLATIONS, UsageError, choice, emit_json, load, time_limit
from planner.cli.solve import seed_value


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``check`` command."""
    p = sub.add_parser(
        "check",
        help="check a result file (solve, exact, alternatives, combine) against its instance",
        description="Check every window of a result file against its instance with the "
        "independent checker; optionally compare each job with planner's own answer "
        "(--algorithm) or with the proven optimum (--exact). Exit 0 when clean, 3 on "
        "violations or disagreements, 2 on bad input.",
    )
    p.add_argument("instance", help="the planner.instance/1 file the results answer")
    p.add_argument("results", help="result lines (JSON Lines; docs/verify.md)")
    p.add_argument("--kind", help="solve, alternatives or combine (default: detected)")
    p.add_argument("--algorithm", help="compare with planner's answer by this algorithm")
    p.add_argument("--seed", type=seed_value, default=0,
                   help="seed of the random-subset selector (with --algorithm)")  # fmt: skip
    p.add_argument("--exact", action="store_true", help="compare with the proven optimum")
    p.add_argument("--solver", default="cpsat", help="exact solver for --exact (default cpsat)")
    p.add_argument("--time-limit", type=time_limit, default=10.0,
                   help="seconds per exact solve (default 10; 'none': no limit)")  # fmt: skip
    p.add_argument("--alternatives", metavar="FILE",
                   help="(combine) the alternatives the combination chose from")  # fmt: skip
    p.add_argument("--t-star", type=int, help="(combine) t* given to the solve")
    p.add_argument("--b-star", type=int, help="(combine) b* given to the solve")
    p.add_argument("--limit", type=int, default=50, help="print at most N lines (0: all)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read, check, compare; print the findings; return 0 or :data:`EXIT_VIOLATIONS`."""
    from validation.results import KINDS, read_results

    if args.kind is not None:
        choice("kind", args.kind, KINDS)
    if args.limit < 0:
        raise UsageError("planner check: --limit must be >= 0")
    name = _algorithm(args.algorithm)
    instance = load(args.instance)
    results = read_results(args.results, args.kind)
    if args.exact:
        from models.solve import SOLVERS

        choice("solver", args.solver, SOLVERS)
        if results.kind == "combine":
            raise UsageError("planner check: --exact applies to solve and alternatives lines")
    if results.kind != "combine" and (args.alternatives or args.t_star is not None
                                      or args.b_star is not None):  # fmt: skip
        raise UsageError("planner check: --alternatives, --t-star and --b-star apply to "
                         "combine lines")  # fmt: skip
    found = _findings(args, instance, results, name)
    return _print(args, results, found)


def _algorithm(text: str | None) -> str | None:
    if text is None:
        return None
    from planner.cli.solve import algorithm_name

    return algorithm_name(text)


def _findings(args: argparse.Namespace, instance: Any, results: Any, name: str | None) -> dict:
    """Check the file and gather every finding (violations, verdicts, optima)."""
    from validation.conformance.compare import tally
    from validation.conformance.reference import CAPPED
    from validation.results import check_file, read_results

    algo = name or results.algorithm
    constraint = "price_cap" if algo in CAPPED else "budget"
    limits = {k: v for k, v in (("t_star", args.t_star), ("b_star", args.b_star)) if v is not None}
    alternatives = None
    if args.alternatives:
        alternatives = read_results(args.alternatives, "alternatives")
    elif results.kind == "combine" and name is not None:
        from validation.conformance.combination import planner_alternatives

        alternatives = planner_alternatives(instance, name, args.seed)
    report = check_file(instance, results, constraint=constraint, alternatives=alternatives,
                        limits=limits)  # fmt: skip
    found: dict[str, Any] = {"report": report, "outcomes": [], "optima": [], "tally": None}
    if name is not None:
        found["outcomes"] = _compare(args, instance, results, name, report)
        if results.kind != "combine":
            found["tally"] = tally(found["outcomes"])
    if args.exact:
        found["optima"] = _optima(args, instance, results, report, name)
    return found


def _compare(args: argparse.Namespace, instance: Any, results: Any, name: str,
             report: Any) -> list[Any]:  # fmt: skip
    from planner import resolve
    from validation.conformance.compare import judge
    from validation.conformance.reference import expected

    if results.kind == "combine":
        from validation.conformance.combination import compare_combination

        if str(results.summary.get("solver", "")).startswith("joint"):
            return []  # the joint model's windows are no alternatives: nothing to compare
        chosen = {ln.job: ln.alternative for ln in results.lines}
        return [compare_combination(instance, results.summary, chosen, name, t_star=args.t_star,
                                    b_star=args.b_star, seed=args.seed)]  # fmt: skip
    mode = "alternatives" if results.kind == "alternatives" else "solve"
    _, ref = expected(instance, name, mode, seed=args.seed)
    outcomes, _ = judge(instance, results, ref, resolve(name))
    return outcomes


def _optima(args: argparse.Namespace, instance: Any, results: Any, report: Any,
            name: str | None) -> list[Any]:  # fmt: skip
    from instances import CRITERIA
    from planner import resolve
    from planner.progress import Progress
    from validation.conformance.exact import optima

    fixed = resolve(name).criterion if name else None

    def criterion_of(job: Any, line: Any) -> str:
        return fixed or (line.criterion if line.criterion in CRITERIA else job.criterion)

    count = len({ln.job for ln in results.lines})
    with Progress(count, label="exact solves: jobs") as bar:
        return optima(instance, results, report, criterion_of, solver=args.solver,
                      time_limit=args.time_limit, progress=bar.step)  # fmt: skip


def _who(job: str) -> str:
    return "combination" if job == "(combination)" else f"job '{job}'"


def _print(args: argparse.Namespace, results: Any, found: dict[str, Any]) -> int:
    report = found["report"]
    outcomes = [o for o in found["outcomes"] if o.verdict != "identical"]
    flagged = [o for o in found["optima"] if o.flagged]
    failing = bool(report.violations) or any(o.verdict not in ("identical", "tie")
                                             for o in outcomes) or bool(flagged)  # fmt: skip
    if args.json:
        emit_json({
            "file": args.results, "kind": results.kind, "jobs": report.jobs,
            "windows": report.windows,
            "violations": [v.to_dict() for v in report.violations],
            "comparison": None if not found["outcomes"] else {
                "algorithm": _algorithm(args.algorithm), "counts": found["tally"],
                "jobs": [o.to_dict() for o in found["outcomes"]]},
            "optima": [o.to_dict() for o in found["optima"]],
            "clean": not failing,
        })  # fmt: skip
        return EXIT_VIOLATIONS if failing else 0
    lines = [v.text() for v in report.violations]
    lines += [f"{_who(o.job)}: {o.verdict}: {o.explanation}" for o in outcomes]
    lines += [f"job '{o.job}': {o.text}" for o in found["optima"]]
    shown = lines if args.limit == 0 else lines[: args.limit]
    for text in shown:
        print(text)
    if len(shown) < len(lines):
        print(f"... and {len(lines) - len(shown)} more (--limit 0 shows all)")
    head = (f"{args.results}: {plural(report.jobs, 'job')}, "
            f"{plural(report.windows, 'window')} checked ({results.kind} lines): ")  # fmt: skip
    head += plural(len(report.violations), 'violation') if report.violations else "no violations"
    if found["tally"] is not None:
        counts = ", ".join(f"{n} {k}" for k, n in found["tally"].items() if n)
        head += f"; against planner's {_algorithm(args.algorithm)}: {counts or 'no jobs'}"
    if results.kind == "combine" and args.algorithm is not None:
        verdict = found["outcomes"][0].verdict if found["outcomes"] else (
            "not compared (a joint solution chooses no alternatives)")  # fmt: skip
        head += (f"; against planner's {_algorithm(args.algorithm)} alternatives and "
                 f"combination: {verdict}")  # fmt: skip
    if found["optima"]:
        head += f"; {len(flagged)} better than a proven optimum"
    print(head)
    if failing:
        print(f"{args.results}: violations or disagreements (listed on stdout)", file=sys.stderr)
        return EXIT_VIOLATIONS
    return 0
