"""Tests of the paper reproductions: reference data with sources, and tiny runs of each."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import main
from validation.study.reproduce import REPRODUCTIONS
from validation.study.reproduce.common import reference

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"


def test_the_four_named_studies_are_registered() -> None:
    """The issue's four reproductions, each with a default run count."""
    assert list(REPRODUCTIONS)[:4] == ["amp-vs-alp", "aep-criteria", "maxq", "dep-coord"]
    assert all(r.default_runs >= 1 for r in REPRODUCTIONS.values())


@pytest.mark.parametrize("name", list(REPRODUCTIONS))
def test_reference_data_names_its_source(name: str) -> None:
    """Every data file names a seed file, a section, a family and the paper's orderings."""
    ref = reference(name)
    assert ref["name"] == name and ref["section"] and ref["orderings"] and ref["paper"]
    assert ref["seed_file"].endswith(".txt")
    if SEEDS.is_dir():
        assert (SEEDS / ref["seed_file"]).is_file()


@pytest.mark.parametrize(
    ("name", "runs", "expect"),
    [
        ("amp-vs-alp", 3, ["TM", "CM", "alternatives_per_job", "59.85", "34.28"]),
        ("aep-criteria", 1, ["min_runtime", "csa", "33.00", "1027"]),
        ("maxq", 1, ["max_q_lite", "multiple_best", "61.80"]),
        ("dep-coord", 1, ["dep_lite", "coord_lite", "369.00", "52.00"]),
    ],
)
def test_tiny_run_prints_paper_and_ours(name: str, runs: int, expect: list[str]) -> None:
    """A run of one to three instances prints the paper's numbers, ours and the orderings."""
    cmp = REPRODUCTIONS[name].run(seed=0, runs=runs)
    text = cmp.render()
    for word in expect:
        assert word in text
    assert cmp.kept >= 1
    assert any(ours is not None for _, _, _, _, ours, _ in cmp.rows)
    assert len(cmp.orderings) == len(reference(name)["orderings"])
    stored = set(_numbers(reference(name)["paper"]))
    assert {paper for _, _, _, paper, _, _ in cmp.rows if paper is not None} <= stored


def _numbers(data: object) -> list[float]:
    """Every number in a reference's ``paper`` block (the printed paper column's only source)."""
    if isinstance(data, dict):
        return [x for v in data.values() for x in _numbers(v)]
    return [data] if isinstance(data, (int, float)) else []


def test_exact_column_bounds_the_heuristic() -> None:
    """In ``maxq`` the CP-SAT optimum is at least MaxQ's Q (exact over the AEP space)."""
    cmp = REPRODUCTIONS["maxq"].run(seed=0, runs=2)
    (row,) = [r for r in cmp.rows if r[2] == "max_q" and r[1] == "q"]
    assert row[5] is not None and row[5] >= row[4] - 1e-9


def test_cli_lists_and_rejects_names(capsys: pytest.CaptureFixture) -> None:
    """``reproduce`` alone lists the studies; an unknown name exits 2 with one line."""
    assert main(["study", "reproduce"]) == 0
    assert "dep-coord" in capsys.readouterr().out
    assert main(["study", "reproduce", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown experiment 'nope'" in err
