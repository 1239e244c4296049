"""The ``planner`` command line (docs/formats.md, "Command line").

Each command lives in its own module with ``register(subparsers)`` and
``run(args) -> int``; :data:`COMMANDS` lists them. This is the only place
that wires instances, planner, models and validation together; commands
import the upper layers lazily so ``planner --help`` stays fast.

Exit codes: 0 the command ran, 2 bad input or usage (one line on stderr, no
traceback; an unwritable standard output counts as a bad output path), 1 an
internal error, 3 violations or disagreements found by ``check``, ``verify`` or
``check-schedule``, 130 interrupted (Ctrl-C). A closed standard output (``| head``)
ends quietly with 0.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from planner.cli.common import UsageError, fast_exit, one_line, pause_point

COMMANDS: tuple[str, ...] = (
    "generate", "validate", "solve", "exact", "alternatives", "combine", "study", "list",
    "check", "verify", "check-schedule",
    "simulate",
    "flow",
)  # fmt: skip


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Return the top-level parser with every command registered (just ``only`` when given)."""
    parser = _Parser(
        prog="planner",
        description="Co-allocation of parallel jobs on heterogeneous, non-dedicated resources.",
    )
    from planner import __version__

    parser.add_argument("--version", action="version", version=f"planner {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"planner.cli.{name.replace('-', '_')}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code (also used as the console script).

    The command's ``args.began`` is the clock at this call: a ``--time-limit`` counts from
    it, so that imports and reading the input are inside the limit.
    """
    began = time.perf_counter()
    stdout, sys.stdout = sys.stdout, _GuardedOutput(sys.stdout)
    try:
        pause_point("main")
        from instances import DataError, InstanceFileError

        words = [*(sys.argv[1:] if argv is None else argv)]  # not list(): planner.cli.list
        first = next((w for w in words if not w.startswith("-")), None)
        parser = build_parser(first if first in COMMANDS else None)  # one command: fast start
        args = parser.parse_args(words)
        if args.command is None:
            raise UsageError(f"planner: missing COMMAND (choose from: {', '.join(COMMANDS)}; "
                             "see planner --help)")  # fmt: skip
        args.began = began
        pause_point("run")
        code = int(args.run(args) or 0)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt as err:  # first: the imports above may not have run
        print(f"planner: {str(err).splitlines()[0] if str(err) else 'interrupted'}",
              file=sys.stderr)  # fmt: skip
        return 130
    except (UsageError, InstanceFileError, DataError) as err:
        print(one_line(str(err)) if str(err) else "planner: bad input", file=sys.stderr)
        return 2
    except OutputError as err:
        _silence(stdout)
        if isinstance(err.__cause__, BrokenPipeError):
            return 0  # the reader went away (| head): not an error
        print(f"planner: cannot write to standard output ({err})", file=sys.stderr)
        return 2
    except Exception as err:  # last resort: one line, exit 1
        if os.environ.get("PLANNER_DEBUG"):
            raise
        if _interrupted(err):  # a Ctrl-C that a C extension turned into another error
            print("planner: interrupted", file=sys.stderr)
            return 130
        print(one_line(f"planner: internal error: {type(err).__name__}: {err}"), file=sys.stderr)
        return 1
    finally:
        sys.stdout = stdout



def _release_semaphores() -> None:
    """Unlink and unregister the named semaphores of this process (the locks and queues of a
    study's worker pool), as the interpreter's shutdown would: ``os._exit`` skips it, and
    multiprocessing's resource tracker would then print a warning for each one after the
    single "interrupted" line."""
    if "multiprocessing.synchronize" not in sys.modules:
        return
    from multiprocessing import resource_tracker, synchronize, util

    for fin in list(util._finalizer_registry.values()):
        if getattr(fin, "_callback", None) is not synchronize.SemLock._cleanup:
            continue
        name = fin._args[0]
        with contextlib.suppress(Exception):
            synchronize.sem_unlink(name)
        with contextlib.suppress(Exception):
            resource_tracker.unregister(name, "semaphore")
        fin.cancel()


def entry() -> None:
    """The ``planner`` command (console script, ``python -m planner``): :func:`main`, then exit.

    After Ctrl-C (exit code 130) the process ends at once, without the interpreter's
    shutdown: a solver thread still unwinding then (CP-SAT's C++ code) could otherwise
    end the process with ``terminate called without an active exception`` (SIGABRT)
    instead of 130. Everything worth keeping is written by then: a study commits each
    unit as it completes and rolls back the unit in progress. A command bounded by a time
    limit ends the same way (:func:`planner.cli.common.exit_fast`), so that the
    interpreter's teardown does not run past the limit.
    """
    code = main()
    if code == 130 or fast_exit():
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        _release_semaphores()
        os._exit(code)
    sys.exit(code)

def _interrupted(err: BaseException) -> bool:
    """Return True when a KeyboardInterrupt stands in ``err``'s cause or context chain."""
    seen: set[int] = set()
    cur: BaseException | None = err
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


class OutputError(Exception):
    """Writing to standard output failed (a closed pipe, a full disk)."""


class _GuardedOutput:
    """Standard output whose write errors are :class:`OutputError` (told apart from any
    other OSError, e.g. a BrokenPipeError of the study's worker machinery)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as err:
            raise OutputError(err.strerror or str(err)) from err

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as err:
            raise OutputError(err.strerror or str(err)) from err

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence(stream: Any) -> None:
    """Point a failed standard output at /dev/null (no second error at interpreter exit)."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
