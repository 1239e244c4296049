"""Running the program under test: no shell, a time limit per run, its whole process group
stopped on time-out (a JVM's threads and children included).

The program's arguments name the instances with ``{instance}`` (one path,
also inside a longer argument such as ``--in={instance}``) or ``{instances}``
(an argument of its own, replaced by several paths: one start-up for many
instances). It prints result lines on standard output and exits 0; anything
it writes on standard error is kept only for the message of a crash.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass

ONE = "{instance}"
MANY = "{instances}"


class ProgramError(Exception):
    """The program cannot be started at all (not found, not executable): a usage error."""


@dataclass(frozen=True)
class Run:
    """What one run gave: ``ok``, ``crashed`` or ``timeout``; its output and a message."""

    status: str
    stdout: str = ""
    message: str = ""
    seconds: float = 0.0


class Program:
    """The command line of the program under test.

    Parameters
    ----------
    argv
        The program and its arguments, with ``{instance}`` or ``{instances}``.
    time_limit
        Seconds per run (None: no limit).
    """

    def __init__(self, argv: list[str], time_limit: float | None = 60.0) -> None:
        if not argv:
            raise ProgramError("no program given (after --)")
        if any(MANY in a and a != MANY for a in argv):
            raise ProgramError(f"{MANY} must be an argument of its own")
        many = argv.count(MANY)
        one = sum(ONE in a for a in argv)
        if many > 1 or (many and one):
            raise ProgramError(f"use {MANY} once, as an argument of its own, and not with {ONE}")
        if not many and not one:
            raise ProgramError(f"the program's arguments must name the instance: {ONE} "
                               f"(one path) or {MANY} (several)")  # fmt: skip
        self.argv = list(argv)
        self.batched = bool(many)
        self.time_limit = time_limit
        self.runs = 0

    def command(self, paths: list[str]) -> list[str]:
        """Return the argument list for ``paths`` (one path unless batched)."""
        if self.batched:
            out: list[str] = []
            for a in self.argv:
                out.extend(paths if a == MANY else [a])
            return out
        if len(paths) != 1:
            raise ValueError("a program taking {instance} runs on one instance at a time")
        return [a.replace(ONE, paths[0]) for a in self.argv]

    def run(self, paths: list[str]) -> Run:
        """Run the program on ``paths``; raise :class:`ProgramError` if it cannot start."""
        argv = self.command(paths)
        began = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
        except OSError as err:
            raise ProgramError(f"cannot run {argv[0]}: {err.strerror or err}") from None
        self.runs += 1
        try:
            out, err = proc.communicate(timeout=self.time_limit)
        except subprocess.TimeoutExpired:
            _stop(proc)
            proc.communicate()
            return Run("timeout", message=f"no answer within {self.time_limit:g} s",
                       seconds=time.perf_counter() - began)  # fmt: skip
        except BaseException:  # Ctrl-C: never leave the program running
            _stop(proc)
            proc.communicate()
            raise
        seconds = time.perf_counter() - began
        if proc.returncode != 0:
            code = proc.returncode
            why = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
            tail = err.decode("utf-8", "replace").strip().splitlines()
            last = f": {tail[-1][:200]}" if tail else ""
            return Run("crashed", message=why + last, seconds=seconds)
        try:
            text = out.decode("utf-8")
        except UnicodeDecodeError:
            return Run("crashed", message="its output is not UTF-8 text", seconds=seconds)
        return Run("ok", text, seconds=seconds)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Kill the program's whole process group (it runs in a session of its own)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
