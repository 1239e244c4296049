"""The gap-study figures: rows behind every value, no negative gap axis, one point per series."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("matplotlib")

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from validation.study.gap import plots
from validation.study.gap.metrics import summarise


def _row(algorithm: str, criterion: str, value: float, opt: float, geometry: str = "rough",
         instance: int = 0) -> dict[str, Any]:  # fmt: skip
    from validation.study.gap.metrics import relative_gap, sense_of

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
    """One point per algorithm × geometry, numbered, and named with its row count in the key
    under its panel; absolute panel for COORD; no label written beside a point."""
    fig = _draw(plots._times)
    relative, absolute, rel_key, abs_key = fig.axes
    keys = [t.get_text() for t in abs_key.texts], [t.get_text() for t in rel_key.texts]
    assert " 1  coord_lite [rough] (n=2)" in keys[0][0].splitlines()  # the absolute panel
    assert "grey, gap 0 on every row: amp [rough] (n=2)" in keys[0][0]
    assert " 1  max_q_lite [rough] (n=1)" in keys[1][0].splitlines()
    assert [t.get_text() for t in absolute.texts] == ["1"]  # tags, not names
    assert sum(len(c.get_offsets()) for c in relative.collections) == 2  # max_q_lite × 2
    assert sum(len(c.get_offsets()) for c in absolute.collections) == 2  # amp, coord_lite
    (y,) = [c.get_offsets()[0][1] for c in absolute.collections if c.get_offsets()[0][1] > 0]
    assert y == pytest.approx(10.0)  # mean absolute gap of coord_lite: (18 + 2) / 2
    for ax in (relative, absolute):  # 0 inside the axis, nothing below it labelled
        low = ax.get_ylim()[0]
        assert low < 0 and all(v >= 0 for v in ax.get_yticks() if v >= low)
    plt.close(fig)


def test_time_vs_gap_tags_close_points_together() -> None:
    """Two series at the same time and gap share one tag ("1,2"), each named in the key."""
    rows = [_row("max_q_lite", "max_q", 8, 10), _row("csa", "max_q", 8, 10)]
    fig = plots._times(plt, rows, summarise(rows), ["csa", "max_q_lite"], 1)
    assert [t.get_text() for t in fig.axes[0].texts] == ["1,2"]
    assert fig.axes[1].texts[0].get_text().splitlines() == [" 1  csa (n=1)",
                                                              " 2  max_q_lite (n=1)"]
    plt.close(fig)


def test_gap_distribution_counts_rows() -> None:
    """A box per label with a gap above 0, its n in the tick; always-optimal labels listed."""
    fig = _draw(plots._gaps)
    relative, absolute = fig.axes
    assert [t.get_text() for t in relative.get_yticklabels()] == ["max_q_lite [rough] (n=1)"]
    assert [t.get_text() for t in absolute.get_yticklabels()] == ["coord_lite [rough] (n=2)"]
    notes = "\n".join(t.get_text() for ax in fig.axes for t in ax.texts)
    assert "amp [rough] (n=2)" in notes and "max_q_lite [square] (n=1)" in notes
    for ax in fig.axes:  # 0 inside the axis (a median at 0 shows), nothing below it labelled
        low = ax.get_xlim()[0]
        assert low < 0 and all(v >= 0 for v in ax.get_xticks() if v >= low)
    (legend,) = fig.legends  # median, box and colour = geometry, explained above the panels
    assert [t.get_text() for t in legend.get_texts()] == [
        "median", "middle half of the rows", "a row, rough geometry", "a row, square geometry"]
    plt.close(fig)


def test_gap_distribution_medians_are_black_and_zero_medians_named() -> None:
    """The median line is black (not a geometry's colour); a box whose median is 0 says so
    in its tick."""
    rows = [_row("csa", "max_q", 10, 10), _row("csa", "max_q", 10, 10, instance=1),
            _row("csa", "max_q", 8, 10, instance=2)]  # median gap 0, one gap above it
    fig = plots._gaps(plt, rows, summarise(rows), ["csa"], 1)
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_yticklabels()] == ["csa (n=3, median 0)"]
    medians = [ln for ln in ax.lines if ln.get_linewidth() == 2.2]
    assert medians and all(ln.get_color() == "black" for ln in medians)
    assert list(medians[0].get_xdata()) == [0, 0]
    plt.close(fig)


MIXED = [
    _row("csa", "max_q", 8, 10),  # relative gap 0.2
    _row("csa", "max_q", 10, 10, instance=1),  # relative gap 0
    _row("csa", "coord", 20, 2),  # absolute gap 18 (relative 9 must not appear)
]


def test_a_label_with_both_gap_kinds_is_split_by_kind() -> None:
    """CSA serves relative and absolute criteria: each panel holds only its own kind's rows."""
    ngeo, summary = 1, summarise(MIXED)
    fig = plots._gaps(plt, MIXED, summary, ["csa"], ngeo)
    relative, absolute = fig.axes
    assert [t.get_text() for t in relative.get_yticklabels()] == ["csa (n=2)"]
    assert [t.get_text() for t in absolute.get_yticklabels()] == ["csa (n=1)"]
    xs = {ax: sorted(x for c in ax.collections for x, _ in c.get_offsets()) for ax in fig.axes}
    assert xs[relative] == pytest.approx([0.0, 0.2])
    assert xs[absolute] == pytest.approx([18.0])
    plt.close(fig)


def _counts(fig: Any) -> dict[tuple[str, str], int]:
    """Every ``label (n=k)`` a gap figure shows, keyed by (panel kind, label)."""
    import re

    out: dict[tuple[str, str], int] = {}
    for ax in fig.axes:
        if not ax.get_title():  # a key under a time-vs-gap panel: the panel above's kind
            kind = "relative" if ax is fig.axes[len(fig.axes) // 2] else "absolute"
        else:
            kind = "relative" if "relative" in ax.get_title().lower() else "absolute"
        for t in (*ax.get_yticklabels(), *ax.texts):
            text = re.sub(r"(grey, )?gap 0 on every row:", "", t.get_text())
            text = re.sub(r"(^|\n) *\d+  ", " ", text).replace("\n", " ")  # key numbers
            for label, n in re.findall(r"([^,()]+?) \(n=(\d+)[,)]", text):
                assert out.setdefault((kind, label.strip()), int(n)) == int(n)
    return out


def test_a_label_has_the_same_n_in_every_gap_figure() -> None:
    """gap_distribution and time_vs_gap show the same n per panel and label, all rows counted."""
    rows = [*ROWS, *MIXED, _row("csa", "coord", 2, 2, geometry="square")]
    ngeo, summary = 2, summarise(rows)
    labels = sorted({plots._label(r, ngeo) for r in rows})
    gaps = _counts(plots._gaps(plt, rows, summary, labels, ngeo))
    times = _counts(plots._times(plt, rows, summary, labels, ngeo))
    plt.close("all")
    assert gaps == times
    assert gaps[("relative", "csa [rough]")] == 2 and gaps[("absolute", "csa [rough]")] == 1
    assert sum(gaps.values()) == sum(r["gap"] is not None for r in rows)


def test_draw_writes_png_and_svg_only_on_request(tmp_path: Any) -> None:
    """PNG by default; ``svg`` adds SVG files; a later PNG-only run removes the stale SVG."""
    names = plots.draw(ROWS, summarise(ROWS), tmp_path, ("png", "svg"))
    assert names == [f"{f}.png" for f in plots.FIGURES]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{f}.{e}" for f in plots.FIGURES for e in ("png", "svg"))
    plots.draw(ROWS, summarise(ROWS), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)


def test_gap_points_are_rasterised() -> None:
    """The points (thousands in a real report) are rasterised; boxes and text stay vector."""
    fig = _draw(plots._gaps)
    points = [c for ax in fig.axes for c in ax.collections]
    assert points and all(c.get_rasterized() for c in points)
    plt.close(fig)


def test_exact_match_cells_show_n() -> None:
    """Each heat-map cell shows its rate and the proven rows behind it."""
    fig = _draw(plots._matches)
    texts = [t.get_text() for t in fig.axes[0].texts]
    # amp 2 of 2, coord_lite 0 of 2, max_q_lite rough 0 of 1, square 1 of 1
    assert sorted(texts) == sorted(["100% n=2", "0% n=2", "0% n=1", "100% n=1"])
    plt.close(fig)
