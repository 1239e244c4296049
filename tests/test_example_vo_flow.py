"""``examples/vo_flow.py`` runs as a script and prints its three policies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[1]


def test_vo_flow_example_runs() -> None:
    """The example exits 0, checks every cycle and prints each policy's line."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "vo_flow.py")],
        capture_output=True, text=True, check=False, timeout=HANG_GUARD_S, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [ln.split("  ")[0].strip() for ln in lines] == [
        "CSS (first fit)", "slicer k=1", "slicer k=5",
    ]  # fmt: skip
    assert all("T_CPU per job" in ln for ln in lines)
