"""``planner validate FILE``: check an instance file (exit 0 valid, 2 invalid)."""

from __future__ import annotations

import argparse

from planner.cli.common import load


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``validate`` command."""
    p = sub.add_parser("validate", help="check an instance file; exit 0 if valid")
    p.add_argument("file", help="a planner.instance/1 JSON file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the file; print a one-line summary when it is valid."""
    inst = load(args.file)
    print(
        f"{args.file}: valid ({len(inst.nodes)} nodes, {len(inst.slots)} slots, "
        f"{len(inst.jobs)} jobs, {inst.geometry} geometry)"
    )
    return 0
