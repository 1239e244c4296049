"""Helpers shared by the CLI commands.

:data:`DEFAULT_TIME_LIMIT` (the seconds of every exact solve unless ``--time-limit`` says
otherwise) comes from :mod:`planner.deadline`, which imports no solver, so ``--help`` stays
fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

_FAST_EXIT: list[bool] = []


def __getattr__(name: str) -> Any:
    """Re-export :data:`planner.deadline.DEFAULT_TIME_LIMIT` on first use (PEP 562): the
    commands without a time limit (``simulate``) do not build that module's dataclass."""
    if name == "DEFAULT_TIME_LIMIT":
        from planner.deadline import DEFAULT_TIME_LIMIT

        return DEFAULT_TIME_LIMIT
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def exit_fast() -> None:
    """Ask :func:`planner.cli.entry` to end the process at once after this command, without
    the interpreter's teardown: a command bounded by ``--time-limit`` has written its output,
    and tearing down OR-Tools, NumPy and SciPy would add 0.3–0.9 s past the limit (measured
    on the 2-core machine). Only for commands that leave no file open and start no process."""
    _FAST_EXIT.append(True)


def fast_exit() -> bool:
    """Return whether the command asked for :func:`exit_fast`."""
    return bool(_FAST_EXIT)


EXIT_VIOLATIONS = 3
"""Exit code of ``planner check``, ``verify`` and ``check-schedule`` when the checked results
break rules or disagree with the reference (bad input stays 2; docs/verify.md)."""


PAUSE_ENV = "PLANNER_PAUSE_AT"
"""Hidden test hook: the name of a :func:`pause_point` at which to stop and wait."""


def pause_point(name: str) -> None:
    """Stop at this point when ``PLANNER_PAUSE_AT`` names it: say so, then wait for a signal.

    Tests deliver Ctrl-C at a moment they observe (after the line ``planner: paused
    at NAME``) instead of after a fixed delay that a loaded machine turns into a race
    with interpreter start-up. The wait ends after ten minutes at the latest.
    """
    if os.environ.get(PAUSE_ENV) != name:
        return
    sys.stderr.write(f"planner: paused at {name}\n")
    sys.stderr.flush()
    time.sleep(600)


class UsageError(Exception):
    """A usage error: printed as one line on stderr, exit code 2."""


def one_line(text: str) -> str:
    """Return ``text`` with control characters and lone surrogates escaped (``\\n``, ``\\ud800``).

    Error messages quote file names, ids and JSON keys: escaped, they stay one line
    and can always be written to stderr.
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def writable(command: str, path: str) -> None:
    """Raise UsageError when ``path`` is a FIFO nobody reads (opening it would wait for ever).

    A regular file, a new path, a device or a pipe with a reader (``>(gzip > x.gz)``) passes.
    """
    import os
    import stat

    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return  # a new file, or an error the write itself reports
    if fifo:
        try:
            os.close(os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0)))
        except OSError:
            raise UsageError(f"{command}: cannot write {path} (a FIFO without a reader)") from None


def param_value(command: str, name: str, text: str, default: Any) -> Any:
    """Return a family parameter's ``text`` as a JSON literal, or as the plain string.

    A parameter whose default is a string always takes the text itself
    (``--trace 2024`` is a file name, not a number); lists and objects are a
    UsageError naming ``command``.
    """
    from instances.generators.base import parse_param

    try:
        return parse_param(text, default)
    except ValueError as err:
        raise UsageError(f"{command}: parameter '{name}' {err}") from None


def load(path: str) -> Any:
    """Read an instance file, raising the one-line InstanceFileError on bad input."""
    from instances import read_instance

    return read_instance(path)


def pick_jobs(instance: Any, job_id: str | None) -> list[Any]:
    """Return the instance's jobs, or just ``job_id`` (UsageError if it is absent)."""
    if job_id is None:
        return list(instance.jobs)
    for job in instance.jobs:
        if job.id == job_id:
            return [job]
    raise UsageError(f"planner: no job '{job_id}' in the instance")


def emit_json(obj: Any) -> None:
    """Print one JSON object on one line (JSON Lines)."""
    import json

    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def print_table(headers: list[str], rows: list[list[Any]]) -> None:
    """Print an aligned plain-text table (headers left, cells right; the study table printer)."""
    from planner import table

    print(table.text(headers, rows, left=0, header_left=True))


def choice(kind: str, value: str, options: Any) -> str:
    """Return ``value`` if it is one of ``options``; UsageError naming the options otherwise.

    The one-line error suggests the closest name (difflib) before listing them all.
    """
    if value not in options:
        from instances.errors import did_you_mean

        hint = did_you_mean(value, options)
        raise UsageError(
            f"planner: unknown {kind} '{value}'{hint} (choose from: {', '.join(options)})"
        )
    return value


def time_limit(text: str) -> float | None:
    """Parse ``--time-limit``: positive seconds, or ``none`` for no limit."""
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--time-limit must be a number of seconds or 'none', got '{text}'"
        ) from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(
            f"--time-limit must be a positive number of seconds, got '{text}'"
        )
    if value > 1e9:  # models.result.TIME_LIMIT_MAX; the solvers' clocks count in int64
        raise argparse.ArgumentTypeError(
            f"--time-limit must be at most 10^9 seconds ('none' for no limit), got '{text}'"
        )
    return value


def wrote(*paths: Any) -> None:
    """Name on stderr every file a command wrote: ``wrote PATH``, ``wrote DIR/: a, b`` for
    several files of one folder, ``wrote a, b`` in the working directory (stdout stays the
    command's output, e.g. its JSON)."""
    from pathlib import Path

    folders: dict[Path, list[str]] = {}
    for path in paths:
        if path:
            folders.setdefault(Path(path).parent, []).append(Path(path).name)
    for folder, names in folders.items():
        if len(names) == 1 or folder == Path():
            text = f"wrote {', '.join(str(folder / n) for n in names)}"
        else:
            text = f"wrote {folder}{os.sep}: {', '.join(names)}"
        print(one_line(text), file=sys.stderr)
