"""``planner solve`` and ``planner alternatives`` (FORMATS.md command-line contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from instances import Instance, write_instance
from planner import ALGORITHMS, ALIASES
from planner.cli import main
from tests.planner.families import small


@pytest.fixture
def tiny_file(tiny: Instance, tmp_path: Path) -> str:
    """The shared ``tiny`` instance written to a file."""
    path = tmp_path / "tiny.json"
    write_instance(tiny, path)
    return str(path)


def test_solve_json_lines(tiny_file: str, capsys: pytest.CaptureFixture) -> None:
    """One JSON object per job: j1's AMP window starts at 4 on a and b (see test_search_hand)."""
    assert main(["solve", tiny_file, "--algorithm", "amp", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["job"] for r in lines] == ["j1", "j2"]
    assert set(lines[0]) == {"job", "algorithm", "status", "window"}
    assert lines[0]["status"] == "found" and lines[0]["window"]["start"] == 4
    assert [p["node"] for p in lines[0]["window"]["placements"]] == ["a", "b"]


def test_solve_table_and_not_found(tiny: Instance, tmp_path: Path, capsys) -> None:
    """The table has one row per job; a job that fits nowhere reads ``not_found``."""
    from instances import Job
    from tests.conftest import with_job

    path = tmp_path / "big.json"
    write_instance(with_job(tiny, Job("big", nodes=5, volume=8.0)), path)
    assert main(["solve", str(path), "--algorithm", "min_cost"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["job", "status", "start", "finish", "runtime", "cost",
                              "proc_time", "nodes"]  # fmt: skip
    assert out[2].split()[:2] == ["big", "not_found"]
    assert main(["solve", str(path), "--algorithm", "min_cost", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "not_found" and rec["window"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--algorithm", "nope"], "unknown algorithm 'nope'"),  # not in the registry
        (["--algorithm", "amp", "--job", "zz"], "no job 'zz'"),  # not in the instance
        ([], "--algorithm"),  # the option is required
        (["--algorithm", "min_proc_time", "--seed", "-1"], "--seed must be >= 0"),  # numpy refuses
    ],
)
def test_solve_usage_errors(tiny_file: str, argv: list[str], message: str, capsys) -> None:
    """Unknown algorithm or job: exit 2 and one line on stderr."""
    assert main(["solve", tiny_file, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", [*ALGORITHMS, *ALIASES])
@pytest.mark.parametrize("family", ["toporkov2011", "toporkov2012", "css2015", "toporkov2018",
                                    "swf", "tiny"])  # fmt: skip
@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_every_name_on_every_family(
    name: str, family: str, geometry: str, tmp_path: Path, capsys
) -> None:
    """Every registry name and alias runs from the CLI on every family, both geometries."""
    path = tmp_path / "inst.json"
    write_instance(small(family, 1, geometry), path)
    assert main(["solve", str(path), "--algorithm", name, "--json"]) == 0
    for line in capsys.readouterr().out.splitlines():
        assert json.loads(line)["status"] in ("found", "not_found")


def test_alternatives_cli(tiny_file: str, capsys) -> None:
    """JSON lines per alternative in the order found, numbered per job; table otherwise."""
    assert main(["alternatives", tiny_file, "--algorithm", "first_fit", "--json"]) == 0
    recs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert recs[0]["job"] == "j1" and recs[0]["alternative"] == 1
    assert recs[0]["algorithm"] == "amp" and recs[0]["window"]["start"] == 4
    assert main(["alternatives", tiny_file, "--algorithm", "amp", "--max-per-job", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 alternatives for 2 jobs (amp)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--algorithm", "nope"], "unknown algorithm"),  # not in the registry
        (["--algorithm", "amp", "--max-per-job", "0"], "--max-per-job"),  # not >= 1
        (["--algorithm", "amp", "--seed", "-2"], "--seed must be >= 0"),  # numpy refuses
    ],
)
def test_alternatives_usage_errors(tiny_file: str, argv: list[str], message: str, capsys) -> None:
    """Bad options: exit 2, one line."""
    assert main(["alternatives", tiny_file, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["solve", "alternatives"])
@pytest.mark.parametrize(
    ("plot", "message"),
    [
        ("w.pdf", "must end in .png or .svg"),  # a suffix plot_windows cannot write
        ("w", "must end in .png or .svg"),  # no suffix at all
        ("missing/w.png", "no such folder"),  # the folder does not exist
        ("taken.png", "cannot write"),  # the path is a folder: savefig fails
    ],
)
def test_bad_plot_path(
    tiny_file: str, tmp_path: Path, command: str, plot: str, message: str, capsys
) -> None:
    """An unusable --plot path: exit 2, one line on stderr, no traceback, nothing on stdout."""
    pytest.importorskip("matplotlib")
    (tmp_path / "taken.png").mkdir()
    argv = [command, tiny_file, "--algorithm", "amp", "--plot", str(tmp_path / plot)]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("command", ["solve", "alternatives"])
def test_plot_writes_a_png(tiny_file: str, tmp_path: Path, command: str, capsys) -> None:
    """--plot FILE.png writes a PNG besides the normal output."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "w.png"
    assert main([command, tiny_file, "--algorithm", "amp", "--plot", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert "j1" in capsys.readouterr().out


def test_plot_without_matplotlib(tiny_file: str, tmp_path: Path, monkeypatch, capsys) -> None:
    """Without matplotlib, --plot is a usage error (exit 2) naming the extra, before any search."""
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, *args):
        return None if name == "matplotlib" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    argv = ["solve", tiny_file, "--algorithm", "amp", "--plot", str(tmp_path / "w.png")]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "planner[plot]" in err and out == ""
