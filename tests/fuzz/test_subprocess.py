"""A few hostile inputs through a real ``python -m planner.cli`` process (no in-process shortcut).

What the in-process fuzz tests cannot see: the interpreter's own encoding of
stderr, and a process that must end by itself on a FIFO or a device.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[2]


def _planner(*argv: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="ascii")
    return subprocess.run([sys.executable, "-m", "planner.cli", *argv], capture_output=True,
                          env=env, timeout=HANG_GUARD_S, check=False)  # fmt: skip


def _one_line(result: subprocess.CompletedProcess[bytes]) -> str:
    assert result.returncode == 2, result.stderr
    err = result.stderr.decode("utf-8")
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_lone_surrogate_name_is_one_line_with_an_ascii_stderr(tmp_path: Path) -> None:
    """A name holding a lone surrogate is refused in one line even when stderr is ASCII."""
    doc = {"format": "planner.workload/1", "name": "\ud800", "machines": [{"id": "a", "cpus": 1}],
           "jobs": []}  # fmt: skip
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert "name: must be valid Unicode" in _one_line(_planner("simulate", str(path), "--policy",
                                                               "easy"))  # fmt: skip


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_and_dev_zero_end_at_once(tmp_path: Path) -> None:
    """check-schedule on a FIFO and simulate on /dev/zero behind a .swf name end with exit 2."""
    flow = tmp_path / "w.json"
    flow.write_text(json.dumps({"format": "planner.workload/1", "machines": [{"id": "a",
                    "cpus": 1}], "jobs": []}), encoding="utf-8")  # fmt: skip
    fifo = tmp_path / "jobs.csv"
    os.mkfifo(fifo)
    assert "not a regular file" in _one_line(_planner("check-schedule", str(flow), str(fifo)))
    zero = tmp_path / "zero.swf"
    zero.symlink_to("/dev/zero")
    assert "not a regular file" in _one_line(_planner("simulate", str(zero), "--policy", "easy"))


def test_tiny_speed_is_refused_not_overflowed(tmp_path: Path) -> None:
    """A machine speed of 5e-324 is refused by the limits (no int64 overflow in the replay)."""
    doc = {"format": "planner.workload/1", "machines": [{"id": "a", "cpus": 1, "speed": 5e-324}],
           "jobs": [{"id": "1", "submit": 0, "cpus": 1, "work": 9}]}  # fmt: skip
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert ">= 10^-3" in _one_line(_planner("simulate", str(path), "--policy", "fcfs"))


def test_gzip_bomb_is_refused(tmp_path: Path) -> None:
    """A .swf.gz that inflates past the 128 MiB bound is refused with one line."""
    record = b"1 0 0 10 1 -1 -1 1 10 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
    bomb = tmp_path / "bomb.swf.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as fh:
        block = record * (2**20 // len(record))
        for _ in range(130):
            fh.write(block)
    err = _one_line(_planner("simulate", str(bomb), "--policy", "easy"))
    assert "more than 128 MiB of log text" in err
