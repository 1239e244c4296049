"""examples/replay_trace.py runs (a slice of the packaged KTH-SP2 trace) within a time budget."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[3]
BUDGET_S = 60  # generous: the 3,000-job replay and check take about 2 s on a quiet machine


def test_replay_trace_example(tmp_path: Path) -> None:
    """The example replays 3,000 jobs under EASY, the checker passes, files are written."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "replay_trace.py"), "--jobs", "3000",
         "--out", str(tmp_path)],
        capture_output=True, text=True, env=env, check=False, timeout=BUDGET_S,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert time.perf_counter() - began < BUDGET_S
    assert "3000 jobs of KTH-SP2-1996-2.1-cln.swf.gz under EASY: checked" in done.stdout
    assert (tmp_path / "jobs.csv").read_text().count("\n") == 3001
