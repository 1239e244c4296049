"""``examples/vo_flow.py`` runs as a script within a time budget and prints its three policies."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 60.0
"""Seconds: the example takes about 2 s of CPU; the budget absorbs a loaded shared machine."""


def test_vo_flow_example_runs_within_budget() -> None:
    """The example exits 0 within the budget, checks every cycle and prints each policy's line."""
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "vo_flow.py")],
        capture_output=True, text=True, check=False, timeout=BUDGET, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - began < BUDGET
    lines = done.stdout.splitlines()
    assert [ln.split("  ")[0].strip() for ln in lines] == [
        "CSS (first fit)", "slicer k=1", "slicer k=5",
    ]  # fmt: skip
    assert all("T_CPU per job" in ln for ln in lines)
