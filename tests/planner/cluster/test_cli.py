"""``planner simulate``: outputs, summary, checker round trip and bad input (exit 2)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from instances import write_workload
from planner.cli import main
from tests.planner.cluster.test_hand import MIXED

KTH = str(Path(__file__).parents[3] / "instances" / "data" / "traces"
          / "KTH-SP2-1996-2.1-cln.swf.gz")  # fmt: skip


@pytest.fixture
def mixed(tmp_path: Path) -> str:
    """MIXED (test_hand) as a planner.workload/1 file."""
    path = tmp_path / "mixed.json"
    write_workload(MIXED, path)
    return str(path)


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_simulate_then_check_schedule(
    policy: str, mixed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """simulate -o/--reservations/--json, then check-schedule finds no violation (exit 0)."""
    jobs, res = str(tmp_path / "jobs.csv"), str(tmp_path / "res.csv")
    assert main(["simulate", mixed, "--policy", policy, "-o", jobs, "--reservations", res,
                 "--json"]) == 0  # fmt: skip
    summary = json.loads(capsys.readouterr().out)
    assert (summary["jobs"], summary["policy"], summary["killed"]) == (5, policy, 1)
    assert main(["check-schedule", mixed, jobs, "--policy", policy, "--reservations", res]) == 0
    assert "no violations" in capsys.readouterr().out


def test_table_summary(mixed: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json: a two-column table with the policy and the metrics."""
    assert main(["simulate", mixed, "--policy", "easy"]) == 0
    out = capsys.readouterr().out
    assert "mean bounded slowdown" in out and "easy" in out and "1 killed" in out


def test_estimates_actual(mixed: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--estimates actual: no job is killed."""
    assert main(["simulate", mixed, "--policy", "fcfs", "--estimates", "actual", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["killed"] == 0


def test_swf_dropped_records_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An SWF log's dropped records are counted in the summary."""
    swf = tmp_path / "t.swf"
    swf.write_text("; MaxProcs: 4\n"
                   "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n"
                   "2 5 0 10 -1 -1 -1 -1 20 -1 1 1 1 1 1 1 -1 -1\n")  # fmt: skip
    assert main(["simulate", str(swf), "--policy", "easy", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["jobs"], s["dropped"]) == (1, 1)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["simulate", "MIXED", "--policy", "sjf"], "unknown policy 'sjf'"),  # not registered
        (["simulate", "MIXED"], "--policy"),  # the policy is required
        (["simulate", "nope.json", "--policy", "easy"], "nope.json"),  # no such file
        (["simulate", "BAD", "--policy", "easy"], "jobs[0].cpus"),  # invalid workload
        (["simulate", "MIXED", "--policy", "easy", "--estimates", "x"], "--estimates"),
        (["simulate", "MIXED", "--policy", "easy", "-o", "/no/dir/j.csv"], "cannot write"),
        (["simulate", "MIXED", "--policy", "easy", "--machines", "nope"], "nope"),  # no file
    ],
)
def test_bad_input_exits_2(
    argv: list[str], fragment: str, mixed: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Bad input or usage: exit 2, one line on stderr naming the problem, no traceback."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "planner.workload/1", "machines": [{"id": "m", "cpus": 2}],
                               "jobs": [{"id": "a", "submit": 0, "cpus": 0, "work": 1}]}))
    argv = [{"MIXED": mixed, "BAD": str(bad)}.get(a, a) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_plot_written(mixed: str, tmp_path: Path) -> None:
    """--plot writes a PNG (Gantt chart, queue and utilisation, distributions)."""
    pytest.importorskip("matplotlib")
    png = tmp_path / "replay.png"
    assert main(["simulate", mixed, "--policy", "conservative", "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_empty_workload(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A workload without jobs replays to an empty jobs.csv and a summary of '-' values."""
    path = tmp_path / "empty.json"
    path.write_text('{"format": "planner.workload/1", "machines": [{"id": "m", "cpus": 2}], '
                    '"jobs": []}')  # fmt: skip
    argv = ["simulate", str(path), "--policy", "easy", "-o", str(tmp_path / "j.csv")]
    if importlib.util.find_spec("matplotlib"):
        argv += ["--plot", str(tmp_path / "e.png")]
    assert main(argv) == 0
    assert "mean wait (s)          -" in capsys.readouterr().out
    assert (tmp_path / "j.csv").read_text().count("\n") == 1


def test_simulate_loads_only_what_it_uses(tmp_path: Path) -> None:
    """`simulate --help` loads neither numpy, the generators nor the study package.

    The command line registers only the command it runs and the heavy modules
    load on first use (start-up time of every replay).
    """
    import subprocess
    import sys

    code = ("import contextlib, io, sys\nfrom planner.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "    main(['simulate', '--help'])\n"
            "heavy = ('numpy', 'instances.generators', 'validation.study', 'planner.cli.study')\n"
            "print([m for m in heavy if m in sys.modules])\n")  # fmt: skip
    root = Path(__file__).parents[3]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(root)},
                          check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "MIXED", "--policy", "fcfs", "-o", "FIFO"],  # the schedule
        ["simulate", "MIXED", "--policy", "easy", "--reservations", "FIFO"],  # the log
        ["generate", "klusacek2008", "--seed", "1", "--jobs", "5", "-o", "FIFO"],  # a workload
        ["flow", "css2015", "--cycles", "1", "--param", "jobs=2", "--param", "nodes=4",
         "--jobs", "FIFO"],  # per-job rows of a flow
    ],
)
def test_output_to_a_fifo_without_reader_is_refused(
    argv: list[str], mixed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An output naming a FIFO that nobody reads: one line and exit 2 at once (no endless
    wait, nothing printed before it)."""
    import os

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    argv = [{"MIXED": mixed, "FIFO": str(fifo)}.get(a, a) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a FIFO without a reader" in err
