"""``planner verify --algorithm NAME [options] -- PROGRAM [ARGS...]``: differential testing of any
program against planner (docs/verify.md).

The program is run without a shell, on generated instances (the families at
small sizes and the ``edge`` family; ``--instance`` files; or an exported
``--corpus``), with ``{instance}`` or ``{instances}`` in its arguments
replaced by instance paths. It prints result lines (docs/verify.md) on
standard output. Every job is checked and compared; each distinct
disagreement is shrunk and written to ``--out`` with both answers, the
explanation and a one-line rerun command. ``--export DIR`` writes a
conformance corpus instead (no program).

Exit codes: 0 every job identical or tied; 3 a disagreement (differs,
infeasible, missing, crashed, timed out; ties too with ``--strict``); 2 bad
usage or a program that cannot be started; 1 an internal error.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from instances.text import plural
from planner.cli.common import EXIT_VIOLATIONS, UsageError, emit_json, time_limit, wrote
from planner.cli.solve import algorithm_name, seed_value


def _count(name: str, low: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got '{text}'") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{name} must be >= {low}, got '{text}'")
        return value

    return parse


def _scale(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--scale must be a number, got '{text}'") from None
    if not 0 < value <= 100:
        raise argparse.ArgumentTypeError(f"--scale must be in (0, 100], got '{text}'")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``verify`` command."""
    p = sub.add_parser(
        "verify",
        help="differential testing of any program against planner (shrunk counterexamples)",
        description="Run PROGRAM on generated instances, check and compare every job with "
        "planner's answer, shrink each distinct disagreement to a minimal instance. "
        "{instance} in ARGS becomes one instance path, {instances} several. Exit 0 when "
        "every job is identical or tied, 3 on a disagreement, 2 on bad usage.",
        usage="planner verify --algorithm NAME [options] -- PROGRAM [ARGS...]\n"
        "       planner verify --export DIR --algorithm NAME [--alternatives] [--seed S]",
    )
    p.add_argument("--algorithm", help="the algorithm the program implements (a registry name)")
    p.add_argument("--alternatives", action="store_true",
                   help="the program runs the alternatives search of the batch")  # fmt: skip
    p.add_argument("--seed", type=seed_value, default=0, help="seed of the instances (default 0)")
    p.add_argument("--scale", type=_scale, default=1.0,
                   help="multiply the number of generated instances (default 1)")  # fmt: skip
    p.add_argument("--instance", action="append", metavar="FILE",
                   help="run on this instance file instead (repeatable)")  # fmt: skip
    p.add_argument("--corpus", metavar="DIR", help="run on an exported corpus (offline)")
    p.add_argument("--export", metavar="DIR", help="write a conformance corpus, run nothing")
    p.add_argument("--time-limit", type=time_limit, default=60.0,
                   help="seconds per program run (default 60; 'none': no limit)")  # fmt: skip
    p.add_argument("--batch", type=_count("--batch", 1), default=25,
                   help="instances per run with {instances} (default 25)")  # fmt: skip
    p.add_argument("--strict", action="store_true", help="count ties as disagreements")
    p.add_argument("--no-shrink", action="store_true", help="write counterexamples unshrunk")
    p.add_argument("--counterexamples", type=_count("--counterexamples", 0), default=10,
                   help="shrink at most N distinct disagreements (default 10)")  # fmt: skip
    p.add_argument("--shrink-runs", type=_count("--shrink-runs", 1), default=300,
                   help="program runs per shrink at most (default 300)")  # fmt: skip
    p.add_argument("--out", default="verify-out", help="counterexample folder (verify-out)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("program", nargs="*", metavar="PROGRAM [ARGS...]",
                   help="the program and its arguments, after --")  # fmt: skip
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Export a corpus, or verify a program; print the summary."""
    program = [a for a in args.program]
    if program[:1] == ["--"]:
        program = program[1:]
    if args.export:
        return _export(args, program)
    if not program:
        raise UsageError("planner verify: name the program after --: planner verify "
                         "--algorithm NAME -- PROGRAM [ARGS...] (with {instance})")  # fmt: skip
    return _verify(args, program)


def _cases(args: argparse.Namespace) -> tuple[list[Any], str | None]:
    """Return the cases to run and the corpus's algorithm (None unless --corpus)."""
    from validation.conformance.corpus import default_corpus, from_files, read_corpus

    if args.corpus and args.instance:
        raise UsageError("planner verify: give --corpus or --instance, not both")
    if args.corpus:
        manifest, cases = read_corpus(args.corpus)
        mode = "alternatives" if args.alternatives else "solve"
        if manifest.get("mode") != mode:
            raise UsageError(f"planner verify: {args.corpus} holds {manifest.get('mode')} "
                             "lines" + ("" if args.alternatives else " (add --alternatives)"))
        return cases, str(manifest.get("algorithm"))
    if args.instance:
        return from_files(args.instance), None
    return default_corpus(args.seed, scale=args.scale), None


def _export(args: argparse.Namespace, program: list[str]) -> int:
    from planner.progress import phase
    from validation.conformance.corpus import default_corpus
    from validation.conformance.export import export

    if program:
        raise UsageError("planner verify: --export runs no program; drop PROGRAM")
    if args.algorithm is None:
        raise UsageError("planner verify: --export needs --algorithm NAME")
    name = algorithm_name(args.algorithm)
    mode = "alternatives" if args.alternatives else "solve"
    words = ["planner", "verify", "--export", args.export, "--algorithm", name]
    words += ["--alternatives"] if args.alternatives else []
    words += ["--seed", str(args.seed)] if args.seed else []
    words += ["--scale", f"{args.scale:g}"] if args.scale != 1.0 else []
    with phase(f"exporting {name} ({mode}) to {args.export}"):
        try:
            paths = export(default_corpus(args.seed, scale=args.scale), args.export, name, mode,
                           args.seed, shlex.join(words))  # fmt: skip
        except OSError as err:
            raise UsageError(f"planner verify: cannot write {args.export} "
                             f"({err.strerror or err})") from None  # fmt: skip
    wrote(paths[-1])
    print(f"{args.export}: {plural(len(paths) // 2, 'instance')} and their expected lines "
          f"for {name} ({mode}); manifest.json")  # fmt: skip
    return 0


def _verify(args: argparse.Namespace, argv: list[str]) -> int:
    from planner.progress import Progress
    from validation.conformance.counterexample import summary_dict
    from validation.conformance.program import Program, ProgramError
    from validation.conformance.run import Settings, Verifier

    cases, recorded = _cases(args)
    if args.algorithm is None and recorded is None:
        raise UsageError("planner verify: --algorithm NAME is required")
    name = algorithm_name(args.algorithm or recorded)
    if recorded is not None and name != recorded:
        raise UsageError(f"planner verify: {args.corpus} was exported for {recorded}, not {name}")
    try:
        program = Program(argv, args.time_limit)
    except ProgramError as err:
        raise UsageError(f"planner verify: {err}") from None
    settings = Settings(
        algorithm=name,
        mode="alternatives" if args.alternatives else "solve",
        seed=args.seed,
        strict=args.strict,
        batch=args.batch,
        shrink=not args.no_shrink,
        counterexamples=args.counterexamples,
        shrink_runs=args.shrink_runs,
    )
    verifier = Verifier(program, settings)
    total = sum(len(c.instance.jobs) for c in cases)
    bars: list[Any] = []

    def shrinking(number: int, sig: tuple[str, str]) -> Any:
        bar = Progress(None, label=f"shrinking disagreement {number} ({sig[0]})", unit="runs")
        bars.append(bar)
        return bar

    verifier.on_shrink = shrinking
    verifier.on_run = lambda: bars[-1].step() if bars and not bars[-1].closed else None
    try:
        with Progress(total, label=f"verify {name}: jobs") as bar:
            verifier.on_jobs = bar.step
            bars.append(bar)
            summary = verifier.verify(cases, out=args.out)
    except ProgramError as err:
        raise UsageError(f"planner verify: {err}") from None
    except OSError as err:
        raise UsageError(f"planner verify: cannot write {args.out} "
                         f"({err.strerror or err})") from None  # fmt: skip
    for cx in summary.counterexamples:
        if cx.files:
            wrote(*cx.files)
    if args.json:
        emit_json(summary_dict(summary))
    else:
        _print(summary)
    return 0 if summary.agree else EXIT_VIOLATIONS


def _print(summary: Any) -> None:
    c = summary.counts
    print(f"verify {summary.algorithm} ({summary.mode}): {plural(summary.instances, 'instance')}, "
          f"{plural(summary.jobs, 'job')}, {plural(summary.runs, 'program run')}")  # fmt: skip
    print(f"  identical {c['identical']}, ties {c['tie']}, differ {c['differs']}, infeasible "
          f"{c['infeasible']}, missing {c['missing']}, crashed {c['crashed']}, timed out "
          f"{c['timeout']}")  # fmt: skip
    for cx in summary.counterexamples:
        from validation.conformance.counterexample import size

        verdict = cx.signature[0] + (f" ({cx.signature[1]})" if cx.signature[1] else "")
        print(f"counterexample {cx.number}: {verdict}, {size(cx.minimal)}")
        print(f"  job {cx.outcome.job}: {cx.outcome.explanation}")
        if cx.rerun:
            print(f"  rerun: {cx.rerun}")
    if summary.agree:
        print(f"{plural(summary.jobs, 'job')}, all identical or tied")
    else:
        bad = summary.jobs - c["identical"] - c["tie"]
        print(f"{bad} of {summary.jobs} jobs disagree", file=sys.stdout)
