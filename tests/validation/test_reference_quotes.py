"""Every stored paper number is read from a quoted fragment of the paper's text.

Each number in ``validation/data/*.json`` carries ``seed_file``, ``section``
and ``quote``; the quote must occur in ../shared/seeds/<seed_file> (white
space and end-of-line hyphenation normalised) and must contain the number
(its digits, as printed). The quote check is skipped, visibly, when the
seeds are not checked out. Stated percentages follow the papers' convention
(larger − smaller) / larger, which is what fixes minRuntime's cost at 1464.9.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2] / "validation" / "data"
SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"
FILES = sorted(DATA.glob("*.json"))


def _norm(text: str) -> str:
    return " ".join(re.sub(r"-[ \t]*\n\s*", "", text).split())


def _quoted(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    if isinstance(node, dict):
        if "quote" in node:
            yield path, node
        for k, v in node.items():
            yield from _quoted(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _quoted(v, (*path, i))


def _stored(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Every number entry of the ``paper`` block: dicts with ``value`` or ``values``."""
    if isinstance(node, dict):
        if "value" in node or "values" in node:
            yield path, node
            return
        for k, v in node.items():
            if k != "columns":
                yield from _stored(v, (*path, k))


def _bare_numbers(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Paths of numbers in the ``paper`` block outside a ``value``/``values`` entry."""
    if isinstance(node, dict):
        if "value" in node or "values" in node:
            return
        for k, v in node.items():
            if k != "columns":  # table headings (node counts, interval lengths), not results
                yield from _bare_numbers(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _bare_numbers(v, (*path, i))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path


def _digits(x: float) -> str:
    return f"{x:g}"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_paper_number_has_its_source(path: Path) -> None:
    """Each number of the ``paper`` block names a source file, a section and a quote."""
    ref = json.loads(path.read_text(encoding="utf-8"))
    entries = list(_stored(ref["paper"]))
    assert list(_bare_numbers(ref["paper"])) == []  # every number sits in a quoted entry
    for where, e in entries:
        assert e["seed_file"].endswith(".txt") and e["section"].startswith("§"), where
        quote = e["quote"].replace(" ", "").replace("−", "-")  # the papers' minus sign
        numbers = e["values"] if "values" in e else [e["value"]]
        for x in numbers:
            if "derived" not in e:
                assert _digits(x) in quote, (where, x, e["quote"])


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_quotes_occur_in_the_papers(path: Path) -> None:
    """Every quote is a fragment of its paper's text (skipped when the seeds are absent)."""
    if not SEEDS.is_dir():
        pytest.skip(f"paper texts not found at {SEEDS}: quote check skipped")
    ref = json.loads(path.read_text(encoding="utf-8"))
    texts: dict[str, str] = {}
    for where, e in _quoted(ref):
        name = e["seed_file"]
        if name not in texts:
            texts[name] = _norm((SEEDS / name).read_text(encoding="utf-8"))
        assert _norm(e["quote"]) in texts[name], (path.name, where, e["quote"])


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_stated_percentages_use_the_papers_convention(path: Path) -> None:
    """A stated "x% more/less" is (larger − smaller) / larger of the stored numbers (±0.7 pt)."""
    ref = json.loads(path.read_text(encoding="utf-8"))
    for e in ref.get("percentages", []):
        big, small = e["larger"], e["smaller"]
        assert str(e["percent"]) in e["quote"]
        assert abs(100 * (big - small) / big - e["percent"]) <= 0.7, e["quote"]
    for e in ref.get("ratios", []):
        assert abs(e["larger"] / e["smaller"] / e["times"] - 1) <= 0.05, e["quote"]


def test_min_runtime_cost_is_the_printed_one() -> None:
    """minRuntime costs 1464.9 (Toporkov et al. 2015 §6.1), i.e. 29.9% above 1027.3 by
    (larger − smaller) / larger; the other convention would give 1334.4."""
    ref = json.loads((DATA / "aep-criteria.json").read_text(encoding="utf-8"))
    cost = ref["paper"]["min_runtime"]["cost"]["value"]
    low = ref["paper"]["min_cost"]["cost"]["value"]
    assert cost == 1464.9
    assert round(100 * (cost - low) / cost, 1) == 29.9
    assert round(low * 1.299, 1) != cost
