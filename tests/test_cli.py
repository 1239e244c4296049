"""The ``planner`` command-line skeleton: help, version, usage errors (FORMATS.md)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from planner import __version__
from planner.cli import COMMANDS, main
from planner.cli.common import PAUSE_ENV
from tests.waiting import HANG_GUARD_S, read_until


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "planner.cli", *args], capture_output=True, text=True, check=False
    )


def test_help_lists_every_command() -> None:
    """``planner --help`` exits 0 and names every command."""
    done = _cli("--help")
    assert done.returncode == 0
    for name in COMMANDS:
        assert name in done.stdout


def test_version() -> None:
    """``planner --version`` prints the package version."""
    done = _cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"planner {__version__}"


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],  # unknown command
        ["validate"],  # missing argument
        ["validate", "x.json", "--bogus"],  # unknown option
        ["--bogus"],  # unknown top-level option
    ],
)
def test_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Usage errors: exit 2, one line on stderr, no traceback."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and err.startswith("planner")


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--problem", "8", "--joint", "--json"], 0),  # a solve under a limit
        (["--problem", "8", "--joint"], 2),  # a missing file: an error after the fast exit
    ],
)
def test_a_limited_command_ends_without_teardown_and_loses_nothing(
    tmp_path: Path, argv: list[str], code: int
) -> None:
    """``planner combine`` ends with ``os._exit`` after flushing (the interpreter's teardown
    of OR-Tools would run past the limit): the exit code, every JSON line and the one error
    line still arrive."""
    from instances import generate, write_instance

    path = tmp_path / "tiny.json"
    if code == 0:
        write_instance(generate("tiny", 0, jobs=3), path)
    done = _cli("combine", str(path), *argv)
    assert done.returncode == code
    if code == 0:
        lines = done.stdout.splitlines()
        assert len(lines) == 4 and '"status": "optimal"' in lines[-1]
    else:
        assert done.stderr.count("\n") == 1 and str(path) in done.stderr


def test_unknown_command_subprocess() -> None:
    """The same through the real entry point."""
    done = _cli("frobnicate")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "frobnicate" in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        [],  # no command
        ["study"],  # a command group without its subcommand
    ],
)
def test_no_command_is_one_line_of_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """No command (or subcommand): one line naming the choices, exit 2, like any missing
    argument; ``--help`` prints the help with exit 0."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "--help" in captured.err
    assert "choose from" in captured.err


def test_missing_study_subcommand_names_them_all(capsys: pytest.CaptureFixture[str]) -> None:
    """``planner study`` alone lists every study subcommand the parser knows, none forgotten."""
    assert main(["study"]) == 2
    err = capsys.readouterr().err
    for name in ("gap", "cluster", "schedule-gap", "reproduce", "report", "export", "list"):
        assert f" {name}," in err or f" {name};" in err


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    """A missing instance file: exit 2 and one line naming it."""
    path = tmp_path / "nope.json"
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: cannot read file") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        (None, "cannot read file"),  # a directory, not a file
        (b"", "invalid JSON at line 1 column 1"),  # an empty file
        (b'{"name": "\xe9"}', "is not UTF-8 text"),  # Latin-1 bytes
        (b"[1, 2]", "the document must be a JSON object"),  # top level not an object
        (b"[" * 50_000, "invalid JSON: nested too deeply"),  # deeper than the parser recurses
    ],
)
def test_validate_bad_paths_and_bytes(
    content: bytes | None, rule: str, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    """Unreadable or non-JSON input: exit 2, one stderr line naming the file, no traceback."""
    path = tmp_path / "in.json"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: {rule}") and err.count("\n") == 1 and "Traceback" not in err


def _sigint_default() -> None:
    """Child set-up: SIGINT at its default, as in a terminal (a shell's background job, such
    as a test run started with ``&``, starts with it ignored, and then Python installs no
    KeyboardInterrupt handler and Ctrl-C does nothing)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("runner", "point"),
    [
        ("-m planner.cli", "main"),  # first instant of main: nothing heavy imported yet
        ("-m planner.cli", "run"),  # parsed; the command's lazy imports (OR-Tools) to come
        ("-m planner", "main"),  # the package's own __main__
        ("runpy", "main"),  # as an embedding program runs it, SIGINT handler installed
    ],
)
def test_early_ctrl_c_is_one_line_and_130(tmp_path: Path, runner: str, point: str) -> None:
    """Ctrl-C before the command has imported its modules: one line, exit 130.

    The signal is sent once the child says it stands at ``point`` (the hidden
    ``PLANNER_PAUSE_AT`` hook of ``planner.cli.common.pause_point``), never after a
    fixed delay that a loaded machine turns into a race with interpreter start-up.
    """
    env = {**os.environ, "CI": "1", PAUSE_ENV: point}
    start = (["-c", "import signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
                    "import runpy; runpy.run_module('planner.cli', run_name='__main__')"]
             if runner == "runpy" else runner.split())  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, *start,
         "study", "gap", "--instances", "1000", "--workers", "1", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=_sigint_default,
    )  # fmt: skip
    assert proc.stderr is not None
    read_until(proc.stderr, f"planner: paused at {point}")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=HANG_GUARD_S)
    assert "Traceback" not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.count("\n") == 1 and err.startswith("planner: interrupted"), err
    assert not list(tmp_path.iterdir())  # stopped before the study opened anything


def test_python_dash_m_planner_is_the_cli() -> None:
    """``python -m planner`` runs the same command line as ``planner``."""
    done = subprocess.run([sys.executable, "-m", "planner", "--version"], capture_output=True,
                          text=True, check=False, timeout=HANG_GUARD_S)  # fmt: skip
    assert (done.returncode, done.stdout.strip()) == (0, f"planner {__version__}")


def test_simulate_help_says_bare_names_read_the_bundled_logs() -> None:
    """``simulate --help`` names every bundled log a bare file name resolves to."""
    from instances.traces.bundled import bundled_traces

    text = " ".join(_cli("simulate", "--help").stdout.split())
    assert "bundled log" in text and "Batsim" in text
    logs = [name for name in bundled_traces() if name.endswith(".swf.gz")]
    assert logs and all(name in text.replace("- ", "-") for name in logs)
