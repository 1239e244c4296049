"""The ``planner`` command line (FORMATS.md, "Command line").

Each command lives in its own module with ``register(subparsers)`` and
``run(args) -> int``; :data:`COMMANDS` lists them. This is the only place
that wires instances, planner, models and validation together; commands
import the upper layers lazily so ``planner --help`` stays fast.

Exit codes: 0 the command ran, 2 bad input or usage (one line on stderr, no
traceback), 1 an internal error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from planner.cli.common import UsageError, one_line

COMMANDS: tuple[str, ...] = (
    "generate", "validate", "solve", "exact", "alternatives", "combine", "study",
)  # fmt: skip


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every command registered."""
    parser = _Parser(
        prog="planner",
        description="Co-allocation of parallel jobs on heterogeneous, non-dedicated resources.",
    )
    from planner import __version__

    parser.add_argument("--version", action="version", version=f"planner {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"planner.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code (also used as the console script)."""
    from instances import DataError, InstanceFileError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except (UsageError, InstanceFileError, DataError) as err:
        print(one_line(str(err)) if str(err) else "planner: bad input", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("planner: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # last resort: one line, exit 1
        if os.environ.get("PLANNER_DEBUG"):
            raise
        print(one_line(f"planner: internal error: {type(err).__name__}: {err}"), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
