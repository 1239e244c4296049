"""Every file-writing command names its files; progress shows when forced on, never in a pipe."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from instances import write_workload
from planner.cli import main
from tests.planner.cluster.test_hand import MIXED

pytest.importorskip("matplotlib")


def named(text: str) -> set[Path]:
    """The paths that ``wrote ...`` lines (and ``rows written to X``) name."""
    out: set[Path] = set()
    for line in text.splitlines():
        if m := re.fullmatch(r"wrote (.+?)" + re.escape(os.sep) + r": (.+)", line):
            out |= {Path(m[1]) / n for n in m[2].split(", ")}
        elif line.startswith("wrote "):
            out |= {Path(p) for p in line[len("wrote "):].split(", ")}
        elif m := re.search(r"written to (.+)$", line):
            out.add(Path(m[1]))
    return out


def _workload(tmp: Path) -> str:
    write_workload(MIXED, tmp / "mixed.json")
    return "mixed.json"


COMMANDS = [
    # an instance file
    (["generate", "tiny", "--seed", "1", "--jobs", "2", "-o", "inst.json"], ["inst.json"]),
    # a figure of the windows found
    (["solve", "inst.json", "--algorithm", "amp", "--plot", "w.png"], ["w.png"]),
    # a figure of the alternatives
    (["alternatives", "inst.json", "--algorithm", "amp", "--plot", "a.svg"], ["a.svg"]),
    # the three outputs of a replay
    (["simulate", "WORKLOAD", "--policy", "easy", "-o", "jobs.csv", "--reservations", "res.csv",
      "--plot", "easy.png"], ["jobs.csv", "res.csv", "easy.png"]),
    # the per-job records and the two flow figures
    (["flow", "tiny", "--cycles", "2", "--jobs", "flow.csv", "--plot", "fp"],
     ["flow.csv", "fp/cycles.png", "fp/timeline.png"]),
    # a gap study: database and every report file, SVG on request
    (["study", "gap", "--family", "tiny", "--instances", "2", "--algorithms", "amp",
      "--out", "gs", "--workers", "1", "--svg"],
     ["gs/study.sqlite", "gs/report.md", "gs/summary.csv", "gs/rows.csv", "gs/study.json",
      "gs/gap_distribution.png", "gs/gap_distribution.svg", "gs/exact_match.png"]),
    # a cluster study's database and report
    (["study", "cluster", "--workload", "WORKLOAD", "--policies", "fcfs", "--out", "cs",
      "--workers", "1"], ["cs/cluster.sqlite", "cs/report.md", "cs/summary.csv"]),
    # a schedule-gap study's database, report and the extra CSV
    (["study", "schedule-gap", "--snapshots", "1", "--jobs", "4", "--machines", "2",
      "--policies", "easy", "--out", "sg", "--csv", "sg.csv", "--workers", "1"],
     ["sg/schedule-gap.sqlite", "sg/report.md", "sg/rows.csv", "sg.csv"]),
    # the EG-EDF reproduction's figure and means
    (["study", "reproduce", "egedf", "--jobs", "20", "--repetitions", "1", "--out", "eg"],
     ["eg/egedf-figures.png", "eg/egedf-means.csv"]),
]


@pytest.mark.parametrize(("argv", "files"), COMMANDS, ids=[" ".join(c[0][:2]) for c in COMMANDS])
def test_every_written_file_is_named(argv: list[str], files: list[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """The command writes the files and names each of them, and names no file it did not write."""
    monkeypatch.chdir(tmp_path)
    workload = _workload(tmp_path)
    if argv[0] in ("solve", "alternatives"):
        assert main(["generate", "tiny", "--seed", "1", "--jobs", "2", "-o", "inst.json"]) == 0
    capsys.readouterr()
    assert main([workload if a == "WORKLOAD" else a for a in argv]) == 0
    out, err = capsys.readouterr()
    said = named(out + "\n" + err)
    for f in files:
        assert (tmp_path / f).is_file(), f
        assert Path(f) in said, f"{f} not named in: {err!r}"
    assert all((tmp_path / p).is_file() for p in said)
    assert "\r" not in err  # captured stderr is no terminal: no progress line


def test_report_rerender_names_its_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """``study report`` names what it rewrites; ``study export`` its output file."""
    monkeypatch.chdir(tmp_path)
    assert main(["study", "gap", "--family", "tiny", "--instances", "1", "--algorithms", "amp",
                 "--out", "gs", "--workers", "1"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["study", "report", "--db", "gs/study.sqlite", "--out", "again"]) == 0
    assert Path("again/report.md") in named(capsys.readouterr().err)
    assert main(["study", "export", "--db", "gs/study.sqlite", "-o", "rows.csv"]) == 0
    assert named(capsys.readouterr().out) == {Path("rows.csv")}


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["simulate", "WORKLOAD", "--policy", "fcfs"], "replaying under fcfs: jobs [5/5]"),
        (["simulate", "WORKLOAD", "--policy", "fcfs"], "reading mixed.json: done in"),
        (["check-schedule", "WORKLOAD", "jobs.csv"], "checking jobs.csv: done in"),
        (["exact", "inst.json"], "exact cpsat solves: jobs [2/2] 100.0%"),
        (["flow", "tiny", "--cycles", "2"], "flow slicer: cycles [2/2] 100.0%"),
        (["flow", "tiny", "--cycles", "2", "--replay", "1"], "replaying the cycles [2/2]"),
        (["study", "reproduce", "css-criteria", "--runs", "1"],
         "reproduce css-criteria [1 cycles]"),
        (["study", "reproduce", "timing", "--runs", "1", "--nodes", "50", "--intervals", "600",
          "--repeats", "1"], "reproduce timing [2 runs]"),
    ],
)
def test_progress_when_forced_on_and_not_in_a_pipe(
    argv: list[str], line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """PLANNER_PROGRESS=1 shows the progress line on stderr; unset, stderr (a pipe) has none."""
    monkeypatch.chdir(tmp_path)
    workload = _workload(tmp_path)
    argv = [workload if a == "WORKLOAD" else a for a in argv]
    if argv[0] == "check-schedule":
        assert main(["simulate", workload, "--policy", "fcfs", "-o", "jobs.csv"]) == 0
    if argv[0] == "exact":
        assert main(["generate", "tiny", "--seed", "1", "--jobs", "2", "-o", "inst.json"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("PLANNER_PROGRESS", "1")
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert line in err and "\r" in err and line not in out
    monkeypatch.delenv("PLANNER_PROGRESS")
    assert main(argv) == 0
    assert "\r" not in capsys.readouterr().err
