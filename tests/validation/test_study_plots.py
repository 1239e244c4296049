"""The gap-study figures: rows behind every value, no negative gap axis, one point per series."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("matplotlib")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from validation.study import plots
from validation.study.metrics import summarise


def _row(algorithm: str, criterion: str, value: float, opt: float, geometry: str = "rough",
         instance: int = 0) -> dict[str, Any]:  # fmt: skip
    from validation.study.metrics import relative_gap, sense_of

    return {
        "family": "tiny", "geometry": geometry, "algorithm": algorithm, "criterion": criterion,
        "instance": instance, "found": True, "exact_found": True, "exact_status": "optimal",
        "match": value == opt, "gap": relative_gap(value, opt, sense_of(criterion)),
        "value": value, "exact_value": opt, "error": None, "heuristic_seconds": 0.001,
        "exact_seconds": 0.01,
    }  # fmt: skip


ROWS = [
    _row("amp", "min_start", 0, 0),
    _row("amp", "min_start", 3, 3, instance=1),
    _row("coord_lite", "coord", 20, 2),  # relative gap 9 (900 %), absolute 18 quanta
    _row("coord_lite", "coord", 4, 2, instance=1),
    _row("max_q_lite", "max_q", 8, 10),
    _row("max_q_lite", "max_q", 10, 10, geometry="square"),
]


def _draw(fn: Any) -> Any:
    rows, summary = ROWS, summarise(ROWS)
    ngeo = len({r["geometry"] for r in rows})
    labels = sorted({plots._label(r, ngeo) for r in rows})
    return fn(plt, rows, summary, labels, ngeo)


def test_time_vs_gap_one_labelled_point_per_series() -> None:
    """One point per algorithm × geometry, labelled with its row count; absolute panel for COORD."""
    fig = _draw(plots._times)
    relative, absolute = fig.axes
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "coord_lite [rough] (n=2)" in texts  # plotted on the absolute panel
    assert any("max_q_lite [rough] (n=1)" in t for t in texts)
    assert sum(len(c.get_offsets()) for c in relative.collections) == 2  # max_q_lite × 2
    assert sum(len(c.get_offsets()) for c in absolute.collections) == 2  # amp, coord_lite
    (y,) = [c.get_offsets()[0][1] for c in absolute.collections if c.get_offsets()[0][1] > 0]
    assert y == pytest.approx(10.0)  # mean absolute gap of coord_lite: (18 + 2) / 2
    assert all(ax.get_ylim()[0] == 0 for ax in fig.axes)  # no negative gap axis
    plt.close(fig)


def test_gap_distribution_counts_rows() -> None:
    """Each box's tick label carries n; the axes start at 0."""
    fig = _draw(plots._gaps)
    ticks = [t.get_text() for ax in fig.axes for t in ax.get_xticklabels()]
    assert "amp [rough] (n=2)" in ticks and "coord_lite [rough] (n=2)" in ticks
    assert all(ax.get_ylim()[0] == 0 for ax in fig.axes)
    plt.close(fig)


def test_exact_match_cells_show_n() -> None:
    """Each heat-map cell shows its rate and the proven rows behind it."""
    fig = _draw(plots._matches)
    texts = [t.get_text() for t in fig.axes[0].texts]
    # amp 2 of 2, coord_lite 0 of 2, max_q_lite rough 0 of 1, square 1 of 1
    assert sorted(texts) == sorted(["100% n=2", "0% n=2", "0% n=1", "100% n=1"])
    plt.close(fig)
