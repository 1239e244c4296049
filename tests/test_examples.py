"""Every script in ``examples/`` runs to completion, as a user would run it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.py"))

#: script -> (extra arguments, a line the output must contain)
EXPECT = {
    "gap_study.py": (["--out", "OUT", "--workers", "2"], "0 error rows; report:"),
    "exact_batch.py": ([], "problems: 0"),
    "my_heuristic.py": (["--instances", "20"], "failures 0"),
}


def run_script(name: str, args: list[str], cwd: Path) -> str:
    """Run ``examples/name`` in a fresh interpreter with the worktree on PYTHONPATH."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "1"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=HANG_GUARD_S, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_every_example_is_covered() -> None:
    """A new example must be added to EXPECT (so it is run here)."""
    own = {"gap_study.py", "exact_batch.py", "my_heuristic.py"}
    assert own <= set(EXAMPLES)
    unknown = set(EXAMPLES) - set(EXPECT)
    # other engineers' examples may be covered by their own tests; ours must be here
    assert not (unknown & own)


SLOW = {"gap_study.py"}
"""Examples that take more than ~4 s on 2 cores (marked ``slow``)."""


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(EXPECT)]
)
def test_example_runs(name: str, tmp_path: Path) -> None:
    """The script exits 0 and prints its success line."""
    args, expected = EXPECT[name]
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    out = run_script(name, args, tmp_path)
    assert expected in out


def test_examples_have_a_main_guard() -> None:
    """Each example only runs under ``if __name__ == "__main__":`` (process pools need it)."""
    for name in EXAMPLES:
        assert 'if __name__ == "__main__":' in (ROOT / "examples" / name).read_text("utf-8")
