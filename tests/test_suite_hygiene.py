"""The suite passes on a loaded machine: no test measures wall-clock time or races a signal.

Rules (``tests/waiting.py``): a test waits for an event it observes and bounds the
wait only by ``HANG_GUARD_S``; it never asserts a duration, never gives a child a
literal timeout, and never sends a signal after a fixed sleep. A child that gets
SIGINT starts with SIGINT at its default (``preexec_fn``) or installs Python's
handler itself: a suite run in the background starts with SIGINT ignored.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SOURCES = sorted(p for p in TESTS.rglob("*.py") if p.name != "test_suite_hygiene.py")

CLOCK = re.compile(r"monotonic\(|perf_counter\(|time\.time\(|\belapsed\b|\.runtime\b|_seconds\b")
SIGNAL = re.compile(r"send_signal\(|killpg\(|os\.kill\(|\.terminate\(\)")


def violations(text: str) -> list[str]:
    """Return ``line: rule`` for every breach of the module's rules in a test file."""
    found = []
    lines = text.splitlines()
    for no, line in enumerate(lines, 1):
        code = line.split("#", 1)[0]
        if code.lstrip().startswith("assert") and "<" in code and CLOCK.search(code):
            found.append(f"{no}: asserts a duration")
        if re.search(r"timeout=(?!HANG_GUARD_S\b)", code):
            found.append(f"{no}: a timeout other than the hang guard HANG_GUARD_S")
        if SIGNAL.search(code) and any("time.sleep(" in x for x in lines[max(0, no - 4) : no - 1]):
            found.append(f"{no}: a signal sent after a fixed sleep")
    sends = len(re.findall(r"(send_signal|killpg)\([^)]*SIGINT", text))
    if sends > len(re.findall(r"preexec_fn=|default_int_handler", text)):
        found.append("0: SIGINT to a child that may ignore it (reset it in preexec_fn)")
    return found


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("assert time.monotonic() - began < 10", "asserts a duration"),  # a measured duration
        ("    assert res.runtime < 6.0", "asserts a duration"),  # a solver's reported runtime
        ("assert max(r['exact_seconds'] for r in rows) < 0.5", "asserts a duration"),  # a row
        ("proc.communicate(timeout=30)", "other than the hang guard"),  # a literal timeout
        ("run(argv, timeout=budget)", "other than the hang guard"),  # a budget in a variable
        ("time.sleep(0.08)\nproc.send_signal(signal.SIGINT)", "after a fixed sleep"),  # a race
        ("proc.send_signal(signal.SIGINT)", "may ignore it"),  # inherited SIG_IGN: no effect
        # two children get SIGINT and only one of them resets it
        ("signal.default_int_handler\na.send_signal(signal.SIGINT)\nb.send_signal(signal.SIGINT)",
         "may ignore it"),
    ],
)
def test_the_rules_catch_each_breach(text: str, rule: str) -> None:
    """Each rule flags the pattern it forbids (the checker can fail)."""
    assert any(rule in v for v in violations(text))


def test_no_test_depends_on_wall_clock_time() -> None:
    """No test file breaks a rule."""
    assert SOURCES
    bad = [f"{p.relative_to(TESTS)}:{v}" for p in SOURCES for v in violations(p.read_text("utf-8"))]
    assert bad == []
