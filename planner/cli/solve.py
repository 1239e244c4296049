"""``planner solve``: see FORMATS.md (filled in by its issue)."""

from __future__ import annotations

import argparse

from planner.cli.common import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``solve`` command."""
    p = sub.add_parser("solve", help="(not available yet)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Not available in this build."""
    raise UsageError("planner: 'solve' is not available yet")
