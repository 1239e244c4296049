"""Replay figures: the queue/utilisation time line by hand, files written, bad suffix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from planner.cli import main
from planner.cluster import simulate
from planner.cluster.plots import binned_mean, plot_policies, plot_replay, timeline
from tests.planner.cluster.test_hand import DELAY


def test_timeline_of_delay_under_easy() -> None:
    """DELAY under EASY (x 0-10, u 2-32, y 10-20, z 20-30), values after each instant."""
    t, waiting, busy = timeline(simulate(DELAY, "easy"))
    assert list(t) == [0, 1, 2, 10, 20, 30, 32]
    assert list(waiting) == [0, 2, 2, 1, 0, 0, 0]
    assert list(busy) == [3, 3, 4, 3, 3, 1, 0]


def test_binned_mean_is_time_weighted() -> None:
    """Busy 1 on [0, 3), 0 on [3, 4): two bins of length 2 average 1 and 0.5."""
    edges, mean = binned_mean(np.array([0, 3, 4]), np.array([1.0, 0.0, 0.0]), bins=2)
    assert list(edges) == [0, 2, 4] and list(mean) == [1.0, 0.5]


def test_figures_written(tmp_path: Path) -> None:
    """plot_replay and plot_policies write PNG and SVG files."""
    pytest.importorskip("matplotlib")
    reps = {p: simulate(DELAY, p) for p in ("fcfs", "easy", "conservative")}
    plot_replay(reps["easy"], tmp_path / "one.svg", window=(0, 40))
    plot_policies(reps, tmp_path / "all.png")
    assert (tmp_path / "one.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "all.png").read_bytes()[:4] == b"\x89PNG"


def test_bad_plot_suffix_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--plot FILE.pdf is a usage error naming the allowed suffixes."""
    from instances import write_workload

    path = tmp_path / "w.json"
    write_workload(DELAY, path)
    assert main(["simulate", str(path), "--policy", "easy", "--plot", "x.pdf"]) == 2
    assert ".png or .svg" in capsys.readouterr().err
