"""The README's Quick start and tour stay true: every tour command runs without error.

The tour's shell lines are extracted from the README and run in order in a
scratch directory (later lines read the files earlier ones write), each in
a fresh ``python -m planner.cli`` with the worktree on PYTHONPATH, job-flow
replays included. The Python snippet is executed too.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import COMMANDS
from tests.waiting import HANG_GUARD_S

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str, after: str) -> list[str]:
    """Return the fenced ``lang`` blocks that follow the heading ``after``."""
    section = README.split(after, 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"```{lang}\n(.*?)```", section, flags=re.S)


def _commands() -> list[list[str]]:
    lines = []
    for block in _blocks("sh", "## A tour"):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("planner "):
                lines.append(shlex.split(line)[1:])
    return lines


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "1"}
    return subprocess.run([sys.executable, "-m", "planner.cli", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False,
                          timeout=HANG_GUARD_S)  # fmt: skip


def test_the_tour_has_the_main_commands() -> None:
    """The tour shows generate, validate, solve, exact, alternatives, combine, study, list."""
    shown = {argv[0] for argv in _commands()}
    assert {"generate", "validate", "solve", "exact", "alternatives", "combine", "study",
            "list", "simulate", "flow"} <= shown  # fmt: skip


@pytest.mark.slow
def test_tour_commands_run(tmp_path: Path) -> None:
    """Each tour command exits 0 in order, without a traceback."""
    # the instances/ paths of the tour are relative to the clone
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    for argv in _commands():
        assert argv[0] in COMMANDS, f"unknown tour command {argv}"
        done = _run(argv, tmp_path)
        assert done.returncode == 0, f"planner {' '.join(argv)}: {done.stderr[-1500:]}"
        assert "Traceback" not in done.stderr


def test_python_snippet_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's Python example runs as written."""
    (code,) = _blocks("python", "## A tour")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})


def test_quick_start_matches_ci() -> None:
    """Quick start command 2 is what .ci/run installs and runs."""
    (block,) = _blocks("sh", "## Quick start")
    assert 'pip install ".[plot]" && planner study gap' in block
    assert 'pip install -e ".[test]" && python -m pytest' in block
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install --quiet -e ".[test]"' in ci and "python -m pytest" in ci


def test_readme_is_short_and_self_contained() -> None:
    """At most ~200 lines, and no citation of developer-only files."""
    assert len(README.splitlines()) <= 200
    for banned in ("SPEC", "FORMATS", "seed 00", "../shared"):
        assert banned not in README
