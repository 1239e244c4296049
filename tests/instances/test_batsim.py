"""Batsim workload JSON (instances.batsim): reading, writing, the round trip, bad files."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from instances import ClusterJob, InstanceFileError, Machine, Workload, read_workload
from instances.batsim import batsim_from_workload, dumps_batsim, workload_from_batsim
from planner.cli import main

BATSIM: dict[str, Any] = {
    "description": "hand",
    "nb_res": 4,
    "jobs": [
        {"id": 1, "subtime": 0, "walltime": 10, "res": 2, "profile": "short"},
        {"id": "2", "subtime": 3.0, "res": 4, "profile": "long"},
        {"id": "3", "subtime": 5, "walltime": -1, "res": 1, "profile": "short"},
        {"id": "4", "subtime": 6, "walltime": 4, "res": 1, "profile": "long", "deadline": 30},
    ],
    "profiles": {"short": {"type": "delay", "delay": 8}, "long": {"type": "delay", "delay": 20}},
}
"""Four jobs on 4 CPUs: job 4 outlives its walltime (killed at 4 s); 2 and 3 have none."""

HAND = Workload(
    (Machine("cluster", 4),),
    (ClusterJob("1", 0, 2, 8, 10), ClusterJob("2", 3, 4, 20), ClusterJob("3", 5, 1, 8),
     ClusterJob("4", 6, 1, 20, 4, deadline=30)),
    name="hand",
)  # fmt: skip


def test_reads_the_hand_workload() -> None:
    """delay ↔ work, walltime ↔ estimate (absent or -1: none), nb_res ↔ one machine."""
    assert workload_from_batsim(BATSIM) == HAND


def test_round_trip_both_ways(tmp_path: Path) -> None:
    """Workload → Batsim → Workload is the identity; the file is read by read_workload."""
    path = tmp_path / "batsim.json"
    path.write_text(dumps_batsim(HAND), encoding="utf-8")
    assert read_workload(path) == HAND
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["nb_res"] == 4 and doc["profiles"]["delay_20"] == {"type": "delay", "delay": 20}
    assert workload_from_batsim(doc) == HAND and batsim_from_workload(HAND) == doc


def test_generated_workload_round_trips(tmp_path: Path) -> None:
    """``planner generate swf-workload --format batsim`` replays like the planner.workload/1
    file of the same seed (same jobs, same summary)."""
    ours, theirs = tmp_path / "w.json", tmp_path / "batsim.json"
    base = ["generate", "swf-workload", "--seed", "1", "--jobs", "60"]
    assert main([*base, "-o", str(ours)]) == 0
    assert main([*base, "--format", "batsim", "-o", str(theirs)]) == 0
    a, b = read_workload(ours), read_workload(theirs)
    assert (a.jobs, a.name, [m.cpus for m in a.machines]) == (
        b.jobs, b.name, [m.cpus for m in b.machines])  # fmt: skip


def test_simulate_replays_a_batsim_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``planner simulate batsim.json`` replays it: job 4 is killed at its walltime."""
    path = tmp_path / "batsim.json"
    path.write_text(json.dumps(BATSIM), encoding="utf-8")
    assert main(["simulate", str(path), "--policy", "fcfs", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["jobs"] == 4 and summary["killed"] == 1


def _with(path: str, value: Any) -> dict[str, Any]:
    """BATSIM with the dotted ``path`` set to ``value`` (``...``: key removed)."""
    doc = copy.deepcopy(BATSIM)
    *parents, last = path.split(".")
    node: Any = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is ...:
        del node[int(last) if isinstance(node, list) else last]
    else:
        node[int(last) if isinstance(node, list) else last] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "where", "rule"),
    [
        (_with("nb_res", 0), "nb_res", "between 1 and"),  # no resource
        (_with("nb_res", 2.5), "nb_res", "integer"),  # a fraction of a resource
        (_with("profiles", ...), "", "missing required key 'profiles'"),  # profiles required
        (_with("colour", "red"), "", "unknown key 'colour'"),  # unknown top-level key
        (_with("profiles.long.type", "parallel"), "profiles.long.type", "only 'delay'"),
        (_with("profiles.long.delay", -1), "profiles.long.delay", "between 0"),  # negative run
        (_with("jobs.0.subtime", 0.5), "jobs[0].subtime", "whole number"),  # half a second
        (_with("jobs.0.profile", "none"), "jobs[0].profile", "names no profile"),  # dangling
        (_with("jobs.0.res", 0), "jobs[0].res", "between 1 and"),  # a job needs a resource
        (_with("jobs.0.res", 5), "jobs[0].res", "<= nb_res (4)"),  # wider than the cluster
        (_with("jobs.0.walltime", "10"), "jobs[0].walltime", "number of seconds"),  # text
        (_with("jobs.0.id", True), "jobs[0].id", "string or an integer"),  # a boolean id
        (_with("jobs.1.id", 1), "jobs[1].id", "unique"),  # 1 and "1" are the same job
        (_with("jobs.0.user", "x"), "jobs[0]", "unknown key 'user'"),  # unknown job key
    ],
)
def test_invalid_batsim_files(doc: dict[str, Any], where: str, rule: str, tmp_path: Path) -> None:
    """Each broken rule: one InstanceFileError naming the file, the JSON path and the rule."""
    path = tmp_path / "batsim.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InstanceFileError) as err:
        read_workload(path)
    assert (err.value.file, err.value.path) == (str(path), where) and rule in err.value.rule


def test_validate_reads_a_batsim_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``planner validate batsim.json`` takes it for a workload and summarises it."""
    path = tmp_path / "batsim.json"
    path.write_text(json.dumps(BATSIM), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert "valid workload (4 jobs on 1 machine, 4 CPUs" in capsys.readouterr().out


def test_neither_format_names_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A JSON object that is neither planner.workload/1 nor Batsim: one line naming both."""
    path = tmp_path / "other.json"
    path.write_text('{"machines": [], "jobs": []}', encoding="utf-8")
    assert main(["simulate", str(path), "--policy", "easy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "planner.workload/1" in err and "Batsim" in err


@pytest.mark.parametrize(
    ("argv", "rule"),
    [
        (["klusacek2008", "--jobs", "5"], "one machine of nb_res CPUs at speed 1"),  # 150 machines
        (["tiny"], "--format applies to the workload families"),  # a slot instance
        (["klusacek2008", "--format=swf"], "--format must be one of"),  # unknown format
    ],
)
def test_generate_batsim_refusals(
    argv: list[str], rule: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--format batsim`` where Batsim cannot hold the workload: exit 2, one line, no file."""
    fmt = [] if any(a.startswith("--format") for a in argv) else ["--format", "batsim"]
    assert main(["generate", *argv, "--seed", "1", *fmt]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and rule in err
