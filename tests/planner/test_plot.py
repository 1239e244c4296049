"""Tests of the window chart (planner/plot.py); skipped without matplotlib."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from instances import Busy, Instance, Job, Node
from planner import make_window
from planner.plot import PALETTE, job_colors, plot_windows, window_labels

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _window(inst: Instance, job: str, start: int, nodes: tuple[str, ...]):
    slots = [next(s for s in inst.slots if s.node == n and s.start <= start < s.end) for n in nodes]
    return make_window(inst, inst.job(job), start, slots)


def _has_colour(png: Path, colour: str) -> bool:
    from matplotlib.colors import to_rgb
    from matplotlib.image import imread

    img = imread(png)[..., :3]
    want = to_rgb(colour)
    close = ((img - want) ** 2).sum(axis=-1) < 1e-3
    return int(close.sum()) > 50


def test_one_window_png(tiny: Instance, tmp_path: Path) -> None:
    """One window -> a PNG of the expected size with the job's colour painted."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "w.png"
    plot_windows(tiny, _window(tiny, "j1", 4, ("a", "b")), out, title="j1 at 4")
    data = out.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    # The figure is 10 in wide at 100 dpi; height grows with the node count (4 nodes).
    from matplotlib.image import imread

    height, width = imread(out).shape[:2]
    assert (width, height) == (1000, 300)
    assert _has_colour(out, PALETTE[0])
    assert not _has_colour(out, PALETTE[1])


def test_alternatives_png(tiny: Instance, tmp_path: Path) -> None:
    """Several windows of two jobs: both job colours appear; None entries are skipped."""
    pytest.importorskip("matplotlib")
    windows = [
        _window(tiny, "j1", 4, ("a", "b")),
        _window(tiny, "j2", 10, ("d",)),
        None,
        _window(tiny, "j1", 24, ("a", "b")),
    ]
    out = tmp_path / "alts.png"
    plot_windows(tiny, windows, out)
    assert out.read_bytes().startswith(PNG_SIGNATURE)
    assert _has_colour(out, PALETTE[0]) and _has_colour(out, PALETTE[1])


def test_svg(tiny: Instance, tmp_path: Path) -> None:
    """The .svg suffix writes SVG text."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "w.svg"
    plot_windows(tiny, [], out)
    assert "<svg" in out.read_text(encoding="utf-8")


def test_busy_instance(tmp_path: Path) -> None:
    """An instance given by busy intervals draws them; a window on it is painted."""
    pytest.importorskip("matplotlib")
    inst = Instance(
        nodes=(Node("a", 1.0), Node("b", 2.0)),
        busy=(Busy("a", 0, 5), Busy("b", 10, 20)),
        jobs=(Job("j", nodes=2, volume=4.0),),
        horizon=(0, 20),
    )
    out = tmp_path / "busy.png"
    plot_windows(inst, _window(inst, "j", 5, ("a", "b")), out)
    assert out.read_bytes().startswith(PNG_SIGNATURE)
    assert _has_colour(out, PALETTE[0])


def test_bad_suffix(tiny: Instance, tmp_path: Path) -> None:
    """Only .png and .svg are written."""
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        plot_windows(tiny, [], tmp_path / "w.pdf")


def test_missing_matplotlib(tiny: Instance, tmp_path: Path, monkeypatch) -> None:
    """Without matplotlib: one-line RuntimeError naming the extra to install."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(RuntimeError, match=r"planner\[plot\]") as err:
        plot_windows(tiny, [], tmp_path / "w.png")
    assert "\n" not in str(err.value)


def test_labels_and_colours(tiny: Instance) -> None:
    """Labels number a job's windows only when it has several; colours follow first appearance."""
    w1 = _window(tiny, "j1", 4, ("a", "b"))
    w2 = _window(tiny, "j2", 10, ("d",))
    w3 = _window(tiny, "j1", 24, ("a", "b"))
    assert window_labels([w1, w2, w3]) == ["j1#1", "j2", "j1#2"]
    assert job_colors([w2, w1, w3]) == {"j2": PALETTE[0], "j1": PALETTE[1]}


def test_large_instance_draws_the_used_nodes_only(tmp_path: Path) -> None:
    """Above MAX_ROWS nodes only the window's nodes are drawn (5 of 100: a 345 px tall PNG)."""
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread

    from instances import generate
    from planner import search
    from planner.plot import MAX_ROWS

    inst = generate("toporkov2012", seed=1)
    window = search(inst, "job1", "min_cost")
    assert window is not None and len(inst.nodes) > MAX_ROWS
    plot_windows(inst, window, tmp_path / "w.png")
    height = imread(tmp_path / "w.png").shape[0]
    assert height == round(100 * (1.2 + 0.45 * len(window.placements)))


def test_colours_are_distinct_for_forty_jobs() -> None:
    """The palette holds forty different colours: a batch of up to 40 jobs repeats none."""
    assert len(set(PALETTE)) == len(PALETTE) == 40
