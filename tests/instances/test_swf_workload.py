"""SWF logs as job flows (SPEC §10 mapping), Alea machines files, and bad logs.

``data/flow.swf`` (MaxProcs 8, MaxNodes 4) holds one record per rule; its
header comments list them. Expected jobs, worked out by hand:

    id  submit  cpus  work  estimate  why
    1   0       2     100   120       plain record
    10  5       1     20    21        estimate 20.4 rounds up; queued before job 2
    2   11      3     51    51        submit 10.2, run 50.5 round up; field 5 = -1 -> field 8;
                                      field 9 = -1 -> estimate = work
    8   30      4     200   150       outlives its estimate (killed at 150)
    9   30      1     0     60        zero run time; field 5 = 0 -> field 8
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from instances import ClusterJob, InstanceFileError, Machine, read_workload
from instances.generators.swf import BUNDLED, DEFAULT_TRACE
from instances.traces.machines import read_machines
from planner.cli import main

FLOW = Path(__file__).parent / "data" / "flow.swf"
KTH = BUNDLED / DEFAULT_TRACE


def test_flow_mapping() -> None:
    """Each kept record maps to the hand-computed job; queue order is (submit, file order)."""
    w = read_workload(FLOW)
    assert w.machines == (Machine("cluster", 8, 1.0),)
    assert w.jobs == (
        ClusterJob("1", 0, 2, 100, 120),
        ClusterJob("10", 5, 1, 20, 21),
        ClusterJob("2", 11, 3, 51, 51),
        ClusterJob("8", 30, 4, 200, 150),
        ClusterJob("9", 30, 1, 0, 60),
    )
    assert w.jobs[3].killed() and w.name == "flow.swf"


def test_flow_dropped_by_reason() -> None:
    """Every dropped record is counted under its reason, in the documented order."""
    assert read_workload(FLOW).dropped == (
        ("submit_unknown", 1),
        ("run_time_unknown", 1),
        ("processors_unknown", 1),
        ("wider_than_every_machine", 1),
        ("duplicate_job_number", 1),
    )


def _variant(tmp_path: Path, drop: str, name: str = "v.swf") -> Path:
    path = tmp_path / name
    lines = [ln for ln in FLOW.read_text(encoding="utf-8").splitlines() if drop not in ln]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_maxnodes_when_maxprocs_is_absent(tmp_path: Path) -> None:
    """Without MaxProcs the cluster has MaxNodes CPUs; wider jobs (3 and 4 CPUs) are dropped."""
    w = read_workload(_variant(tmp_path, "MaxProcs"))
    assert w.machines == (Machine("cluster", 4, 1.0),)
    assert [j.id for j in w.jobs] == ["1", "10", "2", "8", "9"]
    assert dict(w.dropped)["wider_than_every_machine"] == 1  # only the 16-CPU job: 4 fits
    log = _variant(tmp_path, "Max")
    with pytest.raises(InstanceFileError, match="no MaxProcs or MaxNodes; give a machines file"):
        read_workload(log)


def test_machines_file_replaces_the_header(tmp_path: Path) -> None:
    """An Alea machines file gives one machine per line with nodes x cpus_per_node CPUs."""
    machines = tmp_path / "flow.machines"
    machines.write_text("0\tfast\t2\t2\t2\t1024\n1 slow 1 3 1\n", encoding="utf-8")
    w = read_workload(FLOW, machines=machines)
    assert w.machines == (Machine("fast", 4, 2.0), Machine("slow", 3, 1.0))
    assert w.cpu_offsets() == (0, 4)
    assert [j.id for j in w.jobs] == ["1", "10", "2", "8", "9"]  # the widest, 4 CPUs, fits all


def test_bundled_alea_trace_and_machines() -> None:
    """Alea's HPC2N file, ``0 seth 120 2 1 1048576``: one machine of 240 CPUs at speed 1.

    The log's header says MaxProcs 240 too, so both readings agree; 25 records
    have run time -1 (3,170 records in all).
    """
    machines = read_machines(BUNDLED / "hpc2n-alea.swf.machines")
    assert machines == (Machine("seth", 240, 1.0),)
    w = read_workload(BUNDLED / "hpc2n-alea.swf.gz", machines=BUNDLED / "hpc2n-alea.swf.machines")
    assert w.machines == machines and w.dropped == (("run_time_unknown", 25),)
    assert len(w.jobs) == 3170 - 25
    assert read_workload(BUNDLED / "hpc2n-alea.swf.gz").total_cpus == 240


@pytest.mark.parametrize(
    ("text", "where", "rule"),
    [
        ("0 a 2 2\n", "line 1", "expected 5 or 6 fields"),  # speed missing
        ("0 a 2 2 1 8 x\n", "line 1", "expected 5 or 6 fields"),  # one field too many
        ("0 a 0 2 1\n", "line 1", "nodes: must be an integer >= 1"),  # no node
        ("0 a 2 1.5 1\n", "line 1", "cpus_per_node: must be an integer >= 1"),  # half a CPU
        ("0 a 2 2 0\n", "line 1", "speed: must be a finite number > 0"),  # speed 0
        ("0 a 2 2 nan\n", "line 1", "speed: must be a finite number > 0"),  # NaN speed
        ("x a 2 2 1\n", "line 1", "id: must be an integer >= 0"),  # id is a number in Alea
        ("0 a 2 2 1 -5\n", "line 1", "ram_kb: must be an integer >= 0"),  # negative RAM
        ("# c\n0 a 1 1 1\n1 a 1 1 1\n", "line 3", "repeats (first on line 2)"),  # same name
        ("# only a comment\n", "", "holds no machine line"),  # empty file
        ("0 a 99999 99999 1\n", "line 1", "must be <= 2147483647"),  # absurd size
    ],
)
def test_bad_machines_files(tmp_path: Path, text: str, where: str, rule: str) -> None:
    """Each malformed machines line is an InstanceFileError naming file, line and rule."""
    path = tmp_path / "bad.machines"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InstanceFileError) as err:
        read_machines(path)
    assert err.value.file == str(path) and err.value.path == where and rule in err.value.rule


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("11 40 0 10 2.5 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1", "field 5 (allocated processors)"),
        ("11 40 0 10 -1 -1 -1 2.5 10 -1 1 1 1 -1 -1 -1 -1 -1", "field 8 (processors)"),
        ("11 40 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1", "expected 18 fields, found 17"),
        (
            "11 1" + "0" * 300 + " 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1",
            "submit: must be an integer <=",
        ),  # a submit time of 10^300 s
        ("11 1e3 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1", "field 2 is not a number"),  # no e
    ],
)
def test_bad_record_names_its_line(tmp_path: Path, line: str, rule: str) -> None:
    """A record that cannot be read is an error naming the file and line, never dropped."""
    path = tmp_path / "bad.swf"
    text = FLOW.read_text(encoding="utf-8")
    path.write_text(text + line + "\n", encoding="utf-8")
    with pytest.raises(InstanceFileError) as err:
        read_workload(path)
    assert err.value.path == f"line {len(text.splitlines()) + 1}" and rule in err.value.rule


def _gz(tmp_path: Path, damage: str) -> Path:
    data = bytearray(gzip.compress(FLOW.read_bytes() * 30))
    if damage == "truncated":
        data = data[: len(data) // 2]
    else:
        for i in range(30, 80):
            data[i] ^= 0x5A
    path = tmp_path / f"{damage}.swf.gz"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_damaged_gzip_exits_2(tmp_path: Path, capsys, damage: str) -> None:
    """A truncated or corrupt .swf.gz: one stderr line naming the file, exit 2."""
    path = _gz(tmp_path, damage)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}: cannot read file")


def test_gzip_equals_plain(tmp_path: Path) -> None:
    """A .swf.gz reads to the same workload as the plain log."""
    path = tmp_path / "flow.swf.gz"
    path.write_bytes(gzip.compress(FLOW.read_bytes()))
    plain, packed = read_workload(FLOW), read_workload(path)
    assert plain.jobs == packed.jobs and plain.dropped == packed.dropped


def test_cli_reports_dropped_records(capsys) -> None:
    """``planner validate`` on a log names every drop reason with its count (never silent)."""
    assert main(["validate", str(FLOW)]) == 0
    out = capsys.readouterr().out
    assert "5 jobs on 1 machine, 8 CPUs" in out
    for reason in ("submit_unknown 1", "run_time_unknown 1", "duplicate_job_number 1"):
        assert reason in out


def test_whole_kth_log() -> None:
    """The bundled KTH log: every record is a job or counted as dropped; 100 CPUs."""
    w = read_workload(KTH)
    assert w.machines == (Machine("cluster", 100, 1.0),)
    assert len(w.jobs) + sum(n for _, n in w.dropped) == 28476
    assert len(w.jobs) == 28475 and w.dropped == (("processors_unknown", 1),)
    assert all(j.estimate is not None and j.estimate > 0 for j in w.jobs)


def test_bundled_names(tmp_path: Path, monkeypatch) -> None:
    """A bare bundled name reads the bundled log; a local file of that name wins."""
    monkeypatch.chdir(tmp_path)
    w = read_workload("hpc2n-alea.swf.gz", machines="hpc2n-alea.swf.machines")
    assert w.machines == (Machine("seth", 240, 1.0),) and len(w.jobs) == 3145
    (tmp_path / "hpc2n-alea.swf.gz").write_bytes(gzip.compress(FLOW.read_bytes()))
    assert len(read_workload("hpc2n-alea.swf.gz").jobs) == 5
