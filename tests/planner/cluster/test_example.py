"""examples/replay_trace.py runs (a slice of the packaged KTH-SP2 trace)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).parents[3]


def test_replay_trace_example(tmp_path: Path) -> None:
    """The example replays 3,000 jobs under EASY, the checker passes, files are written."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "replay_trace.py"), "--jobs", "3000",
         "--out", str(tmp_path)],
        capture_output=True, text=True, env=env, check=False, timeout=HANG_GUARD_S,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "3000 jobs of KTH-SP2-1996-2.1-cln.swf.gz under EASY: checked" in done.stdout
    assert (tmp_path / "jobs.csv").read_text().count("\n") == 3001
