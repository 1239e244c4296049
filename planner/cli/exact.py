"""``planner exact``: see FORMATS.md (filled in by its issue)."""

from __future__ import annotations

import argparse

from planner.cli.common import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``exact`` command."""
    p = sub.add_parser("exact", help="(not available yet)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Not available in this build."""
    raise UsageError("planner: 'exact' is not available yet")
