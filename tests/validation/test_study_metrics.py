"""Tests of the gap definition and the summary table of a study."""

from __future__ import annotations

import math
from typing import Any

import pytest

from validation.study import SUMMARY_COLUMNS, relative_gap, summarise


@pytest.mark.parametrize(
    ("h", "opt", "sense", "gap"),
    [
        (12, 10, "min", 0.2),  # min: 20 % more than the optimum
        (10, 10, "min", 0.0),  # optimal
        (8, 10, "max", 0.2),  # max: 20 % less than the optimum
        (10, 10, "max", 0.0),  # optimal
        (3, 0, "min", 3.0),  # optimum 0: the denominator is floored at 1 unit
        (-2, -4, "min", 0.5),  # |optimum| in the denominator
        (0.25, 0.5, "max", 0.25),  # |optimum| < 1: denominator 1
        (9, 10, "min", -0.1),  # better than the optimum: negative (an error row)
        (10 + 1e-12, 10, "min", 0.0),  # floating-point noise is no gap
    ],
)
def test_relative_gap(h: float, opt: float, sense: str, gap: float) -> None:
    """gap = (h − o)/max(|o|, 1) for min, (o − h)/max(|o|, 1) for max."""
    assert relative_gap(h, opt, sense) == pytest.approx(gap)


def _row(instance: int, **kw: Any) -> dict[str, Any]:
    row = {
        "family": "tiny", "geometry": "rough", "algorithm": "a", "criterion": "min_cost",
        "instance": instance, "found": True, "exact_found": True, "exact_status": "optimal",
        "match": True, "gap": 0.0, "error": None, "heuristic_seconds": 0.001,
        "exact_seconds": 0.01, "value": 10.0, "exact_value": 10.0,
    }  # fmt: skip
    row.update(kw)
    return row


def test_summary_by_hand() -> None:
    """Four jobs: one optimal, one 50 % off, one not found, one exact-infeasible."""
    rows = [
        _row(0),
        _row(0, match=False, gap=0.5, heuristic_seconds=0.003, value=15.0),
        _row(1, found=False, match=False, gap=None),
        _row(2, found=False, exact_found=False, exact_status="infeasible", match=None, gap=None),
    ]
    (s,) = summarise(rows)
    assert list(s) == list(SUMMARY_COLUMNS)
    assert (s["instances"], s["jobs"]) == (3, 4)
    assert s["found_rate"] == pytest.approx(2 / 3)  # not found where a window exists
    assert s["exact_found_rate"] == pytest.approx(3 / 4)
    assert s["exact_match_rate"] == pytest.approx(1 / 3)  # 1 match of 3 proven optima
    assert (s["gap_mean"], s["gap_median"], s["gap_max"]) == (0.25, 0.25, 0.5)
    assert (s["proven"], s["gap_rows"]) == (3, 2)  # the rows behind the match rate and gaps
    assert (s["abs_gap_mean"], s["abs_gap_max"]) == (2.5, 5.0)  # 15 vs 10, in money units
    assert s["heuristic_ms"] == pytest.approx(1.0)
    assert s["speedup"] == pytest.approx(10.0)
    assert (s["unproven"], s["errors"]) == (0, 0)


def test_summary_groups_and_unproven_rows() -> None:
    """Groups are (family, geometry, algorithm, criterion); time-limited rows are unproven."""
    rows = [
        _row(0, algorithm="b"),
        _row(0, geometry="square", exact_status="feasible", match=None, gap=None),
        _row(1, criterion="max_q", error="infeasible window: cost"),
    ]
    out = summarise(rows)
    assert [(s["geometry"], s["algorithm"], s["criterion"]) for s in out] == [
        ("rough", "a", "max_q"),
        ("rough", "b", "min_cost"),
        ("square", "a", "min_cost"),
    ]
    assert out[0]["errors"] == 1
    assert out[2]["unproven"] == 1 and out[2]["exact_match_rate"] is None
    assert out[2]["gap_mean"] is None and not math.isnan(out[2]["heuristic_ms"])


@pytest.mark.parametrize(
    ("h", "opt", "sense", "gap"),
    [
        (12, 2, "min", 10.0),  # relative gap 5.0 (500 %), absolute 10 units
        (0, 40, "max", 40.0),  # DEP distance 0 against 40
        (3.0, 3.0, "max", 0.0),  # optimal
    ],
)
def test_absolute_gap(h: float, opt: float, sense: str, gap: float) -> None:
    """The absolute gap is the sign-normalised difference in the criterion's own unit."""
    from validation.study.gap.metrics import absolute_gap

    assert absolute_gap(h, opt, sense) == pytest.approx(gap)


def test_gap_kind() -> None:
    """Start and DEP/COORD distances (optimum can be 0) read absolute; the rest relative."""
    from validation.study.gap.metrics import gap_kind

    assert [gap_kind(c) for c in ("min_start", "dep", "coord", "min_cost", "max_q")] == [
        "absolute", "absolute", "absolute", "relative", "relative"
    ]  # fmt: skip
