"""Waiting in tests without measuring time: the suite must pass on a loaded machine.

A test never asserts how long something took. It waits for an event it can observe
(a line a child prints, a file, a database row) and bounds the wait only by
:data:`HANG_GUARD_S`, a guard against a hung child far above any loaded machine's
delay; speed is measured by ``benchmarks/``. ``tests/test_suite_hygiene.py`` keeps
the suite to this rule.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import IO

HANG_GUARD_S = 600.0
"""Seconds after which a child that gave no sign is taken for hung (never a measurement)."""


def wait_until(predicate: Callable[[], bool], what: str, poll: float = 0.05) -> None:
    """Poll ``predicate`` until it holds; AssertionError naming ``what`` if it never does."""
    guard = time.monotonic() + HANG_GUARD_S
    while not predicate():
        if time.monotonic() > guard:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(poll)


def read_until(stream: IO[str], line: str) -> list[str]:
    """Read ``stream`` up to and including ``line``; return the lines read (EOF: error)."""
    seen: list[str] = []
    while True:
        got = stream.readline()
        if not got:
            raise AssertionError(f"the child ended before printing {line!r}: {seen}")
        seen.append(got.rstrip("\n"))
        if seen[-1] == line:
            return seen
