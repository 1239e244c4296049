"""The plural helper: one job, two jobs, never "1 jobs"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from instances.text import noun, plural

PACKAGES = ("instances", "planner", "models", "validation", "examples", "benchmarks")


@pytest.mark.parametrize(
    ("count", "one", "many", "expected"),
    [
        (1, "job", None, "1 job"),  # one takes the singular
        (0, "job", None, "0 jobs"),  # zero takes the plural
        (2, "test", None, "2 tests"),  # the regular plural adds s
        (-1, "second", None, "-1 second"),  # minus one is singular too
        (3, "process", "processes", "3 processes"),  # an irregular plural is given
        (1, "process", "processes", "1 process"),  # ... and not used for one
    ],
)
def test_plural(count: int, one: str, many: str | None, expected: str) -> None:
    """The count and the right form of its noun."""
    assert plural(count, one, many) == expected


def test_thousands_separator() -> None:
    """``sep`` separates thousands; the default writes the digits alone."""
    assert plural(4561, "test", sep=",") == "4,561 tests"
    assert plural(4561, "test") == "4561 tests"
    assert plural(1, "test", sep=",") == "1 test"


def test_noun_alone() -> None:
    """``noun`` gives the word only, for a count printed elsewhere."""
    assert [noun(n, "machine") for n in (0, 1, 2)] == ["machines", "machine", "machines"]


def test_no_printed_count_uses_a_parenthesised_plural() -> None:
    """No f-string of the packages or examples writes a count with "(s)" ("1 machine(s)"):
    counts go through :func:`plural`."""
    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"\{[^{}]+\}[ \w'-]*\w\(s\)")
    found = [f"{path.relative_to(root)}:{n}" for pkg in PACKAGES
             for path in sorted((root / pkg).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]  # fmt: skip
    assert found == []
