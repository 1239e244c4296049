"""``planner generate FAMILY --seed N [--PARAM VALUE ...] [-o FILE]``: write a generated instance.

Families are named after the seed experiments they reproduce
(``instances.FAMILIES``; ``--list`` prints them with their parameters). A
workload family (``instances.WORKLOAD_FAMILIES``, ``Family.produces ==
"workload"``) writes a ``planner.workload/1`` job flow instead, and reports
the source records it dropped on stderr.
Parameter values are JSON literals (``--nodes 50``, ``--bounds 0.5``); a
parameter whose default is a string takes the text as given (``--geometry
square``, ``--trace path/to/log.swf.gz``).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from instances.text import plural
from planner.cli.common import UsageError, param_value, writable, wrote

_EPILOG = (
    "Family parameters are given as --NAME VALUE (dashes in NAME may stand for "
    "underscores); see --list for every family's parameters and defaults."
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``generate`` command."""
    p = sub.add_parser(
        "generate",
        help="write a generated instance or workload (families named after the seed experiments)",
        description="Write a seeded instance of FAMILY as a planner.instance/1 file, or a "
        "job flow as a planner.workload/1 file for a workload family (see --list).",
        epilog=_EPILOG,
    )
    p.add_argument("--seed", type=int, help="random seed (a non-negative integer; required)")
    p.add_argument("-o", "--output", help="output file (default: standard output)")
    p.add_argument("--list", action="store_true", help="list the families and exit")
    p.add_argument("--format", choices=WORKLOAD_FORMATS, help="a workload family's file format: "
                   "planner (planner.workload/1, the default) or batsim (a Batsim workload: "
                   "one machine at speed 1, delay profiles; docs/workloads.md)")  # fmt: skip
    p.add_argument("family", nargs="?", help="family name (see --list)")
    p.add_argument("params", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(run=run, help_text=p.format_help)


def run(args: argparse.Namespace) -> int:
    """Generate the instance and write it to ``--output`` or standard output."""
    from instances import FAMILIES, WORKLOAD_FAMILIES, dumps_instance, generate

    if any(t in ("-h", "--help") for t in _option_tokens(args.params)):
        print(args.help_text(), end="")
        return 0
    seed, output, listing, params, fmt = _split(
        args.params, args.seed, args.output, args.list, args.format
    )
    if output is not None:
        writable("planner generate", output)
    if listing:
        for f in (*FAMILIES.values(), *WORKLOAD_FAMILIES.values()):
            kind = " [writes planner.workload/1]" if f.produces == "workload" else ""
            print(f"{f.name}: {f.source}{kind}")
            print(textwrap.fill(_defaults(f.defaults), 100, initial_indent="    ",
                                subsequent_indent="    "))  # fmt: skip
        return 0
    if args.family is None:
        raise UsageError("planner generate: a FAMILY is required (see --list)")
    if seed is None:
        raise UsageError("planner generate: --seed N is required")
    family = FAMILIES.get(args.family) or WORKLOAD_FAMILIES.get(args.family)
    defaults = family.defaults if family is not None else {}
    params = {k: param_value("planner generate", k, v, defaults.get(k)) for k, v in params.items()}
    try:
        if family is not None and family.produces == "workload":
            workload = family.generate(seed, **params)
        else:
            inst = generate(args.family, seed, **params)
    except ValueError as err:
        raise UsageError(f"planner generate: {str(err).splitlines()[0]}") from None
    if fmt is not None and (family is None or family.produces != "workload"):
        names = ", ".join(WORKLOAD_FAMILIES)
        raise UsageError(f"planner generate: --format applies to the workload families ({names})")
    if args.family == "swf":
        from instances.generators.swf import summary

        merged = FAMILIES["swf"].check_params(params)
        print(f"planner generate: {summary(merged['trace'], merged['max_procs'])}", file=sys.stderr)
    if family is not None and family.produces == "workload":
        text = _dump_workload(workload, fmt or "planner")
        print(f"planner generate: {workload_summary(workload)}", file=sys.stderr)
    else:
        text = dumps_instance(inst)
    if output is None:
        print(text, end="")
        return 0
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as err:
        raise UsageError(f"planner generate: cannot write {output} ({err.strerror})") from None
    wrote(output)
    return 0


WORKLOAD_FORMATS = ("planner", "batsim")
"""The file formats ``generate --format`` writes a workload in."""


def _dump_workload(workload: Any, fmt: str) -> str:
    from instances import dumps_workload

    if fmt == "planner":
        return dumps_workload(workload)
    from instances.batsim import dumps_batsim

    try:
        return dumps_batsim(workload)
    except ValueError as err:
        raise UsageError(f"planner generate: --format batsim: {err} (e.g. swf-workload, or "
                         "klusacek2008 --machines 1 --speed-min 200 --speed-max 200)") from None


def workload_summary(workload: Any) -> str:
    """Return one line: jobs, machines, CPUs and the dropped source records by reason."""
    dropped = ", ".join(f"{k} {v}" for k, v in workload.dropped) or "none"
    return (
        f"{plural(len(workload.jobs), 'job')} on {plural(len(workload.machines), 'machine')}, "
        f"{plural(workload.total_cpus, 'CPU')}; dropped records: {dropped}"
    )


def _split(
    tokens: list[str], seed: int | None, output: str | None, listing: bool, fmt: str | None
) -> tuple[int | None, str | None, bool, dict[str, str], str | None]:
    """Parse the tokens after FAMILY: --seed, -o, --list, --format and ``--NAME VALUE``."""
    params: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "--list":
            listing = True
            i += 1
            continue
        if not token.startswith("-") or token in ("-", "--"):
            raise UsageError(f"planner generate: unexpected argument '{token}'")
        key, eq, value = token.partition("=")
        if not eq:
            if i + 1 >= len(tokens):
                raise UsageError(f"planner generate: {key} needs a value")
            value = tokens[i + 1]
            i += 1
        i += 1
        if key in ("-o", "--output"):
            output = value
        elif key == "--seed":
            seed = _seed(value)
        elif key == "--format":
            if value not in WORKLOAD_FORMATS:
                raise UsageError(f"planner generate: --format must be one of "
                                 f"{', '.join(WORKLOAD_FORMATS)}, got '{value}'")  # fmt: skip
            fmt = value
        else:
            name = key.lstrip("-").replace("-", "_")
            if not name:
                raise UsageError(f"planner generate: bad option '{token}'")
            params[name] = value
    return seed, output, listing, params, fmt


def _option_tokens(tokens: list[str]) -> list[str]:
    """Return the tokens after FAMILY that stand where an option name is expected."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        out.append(token)
        takes_value = token.startswith("-") and "=" not in token
        i += 2 if takes_value and token not in ("--list", "-h", "--help") else 1
    return out


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"planner generate: --seed must be an integer, got '{text}'") from None


def _defaults(defaults: dict[str, Any]) -> str:
    return " ".join(f"{k}={json.dumps(v)}" for k, v in defaults.items()) or "-"
