"""``planner.workload/1`` files: reader, writer, schema and the CLI's error lines."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from instances import (
    ClusterJob,
    DataError,
    InstanceFileError,
    Machine,
    Workload,
    dumps_workload,
    generate_workload,
    loads_workload,
    read_workload,
    write_workload,
)
from planner.cli import main
from tests.instances.mutate import with_value

BASE: dict[str, Any] = {
    "format": "planner.workload/1",
    "name": "two machines",
    "machines": [{"id": "a", "cpus": 4, "speed": 1.0}, {"id": "b", "cpus": 2, "speed": 2.0}],
    "jobs": [
        {"id": "1", "submit": 0, "cpus": 2, "work": 10, "estimate": 12, "deadline": 30},
        {"id": "2", "submit": 5, "cpus": 4, "work": 7},
    ],
}


def _with(path: str, value: Any) -> dict[str, Any]:
    """Return BASE with the value at ``path`` (``jobs.0.cpus``) set; ``...`` deletes it."""
    return with_value(BASE, path, value)


def test_reads_the_documented_example() -> None:
    """The example of docs/workloads.md reads to the expected data; defaults fill the gaps."""
    w = loads_workload(json.dumps(BASE))
    assert w.machines == (Machine("a", 4, 1.0), Machine("b", 2, 2.0))
    assert w.jobs == (ClusterJob("1", 0, 2, 10, 12, 30), ClusterJob("2", 5, 4, 7))
    assert w.name == "two machines" and w.jobs[1].requested == 7


def test_writer_round_trip_and_bytes() -> None:
    """Written text reads back equal; equal workloads give identical bytes (sorted keys)."""
    w = loads_workload(json.dumps(BASE))
    text = dumps_workload(w)
    assert loads_workload(text) == w
    shuffled = Workload(tuple(reversed(w.machines)), tuple(reversed(w.jobs)), w.name)
    assert dumps_workload(Workload(w.machines, tuple(reversed(w.jobs)), w.name)) == text
    assert dumps_workload(shuffled) != text  # machine order is meaningful (CPU numbering)
    line = text.splitlines()[3]
    assert line.strip().rstrip(",") == json.dumps(json.loads(line.rstrip(",")), sort_keys=True)


def test_write_and_read_file(tmp_path: Path) -> None:
    """write_workload then read_workload gives the workload back."""
    w = generate_workload("klusacek2008", 2, machines=5, jobs=20)
    path = tmp_path / "w.json"
    write_workload(w, path)
    assert read_workload(path) == Workload(w.machines, w.jobs, w.name)


def test_estimates_actual() -> None:
    """``estimates="actual"`` sets every estimate to the work (no job is killed)."""
    path = Path(__file__).parent / "data" / "flow.swf"
    w = read_workload(path, estimates="actual")
    assert all(j.estimate == j.work and not j.killed() for j in w.jobs)
    with pytest.raises(ValueError, match="estimates"):
        read_workload(path, estimates="perfect")


def test_null_optional_keys_are_their_defaults() -> None:
    """``null`` for an optional key (name, speed, estimate, deadline) reads as its default."""
    doc = _with("name", None)
    doc["machines"][0]["speed"] = None
    doc["jobs"][0]["estimate"] = None
    w = loads_workload(json.dumps(doc), "w.json")
    assert w.name == "" and w.machines[0].speed == 1.0 and w.jobs[0].estimate is None


INVALID: list[tuple[Any, str, str, bool]] = [
    # (document, JSON path named, rule fragment, the schema can express it too)
    (_with("format", "planner.workload/2"), "format", "must equal", True),  # wrong format
    (_with("format", ...), "", "missing required key 'format'", True),  # no format
    (_with("jobs", ...), "", "missing required key 'jobs'", True),  # jobs are required
    (_with("colour", "red"), "", "unknown key 'colour'", True),  # unknown top-level key
    (_with("machines.0.ram", 8), "machines[0]", "unknown key 'ram'", True),  # unknown machine key
    (_with("jobs.0.walltime", 8), "jobs[0]", "unknown key 'walltime'", True),  # unknown job key
    (_with("machines", []), "machines", "at least one machine", True),  # no machine
    (_with("machines", {}), "machines", "must be an array", True),  # not a list
    (_with("machines.0.cpus", 0), "machines[0].cpus", ">= 1", True),  # a machine needs a CPU
    (_with("machines.0.cpus", 2.0), "machines[0].cpus", "integer", False),  # 2.0: JSON Schema int
    (_with("machines.0.cpus", "4"), "machines[0].cpus", "integer", True),  # text, not a number
    (_with("machines.0.speed", 0), "machines[0].speed", ">= 10^-3", True),  # speed must be positive
    (_with("machines.0.speed", 1e-300), "machines[0].speed", ">= 10^-3", True),  # durations explode
    (_with("machines.0.speed", 5e-324), "machines[0].speed", ">= 10^-3", True),  # subnormal speed
    (_with("machines.0.speed", 1e7), "machines[0].speed", "<= 10^6", True),  # beyond the limit
    (_with("machines.1.id", "a"), "machines[1].id", "unique", False),  # repeated machine id
    (_with("machines.0.id", ""), "machines[0].id", "non-empty", True),  # empty id
    (_with("jobs.0.cpus", 5), "jobs[0].cpus", "widest machine", False),  # wider than every machine
    (_with("jobs.0.submit", -1), "jobs[0].submit", ">= 0", True),  # negative submit
    (_with("jobs.0.submit", 1.5), "jobs[0].submit", "integer", True),  # fractional seconds
    (_with("jobs.0.work", None), "jobs[0].work", "must not be null", True),  # required key null
    (_with("jobs.0.estimate", -3), "jobs[0].estimate", ">= 0", True),  # negative estimate
    (_with("jobs.0.deadline", True), "jobs[0].deadline", "integer", True),  # a boolean, no time
    (_with("jobs.1.id", "1"), "jobs[1].id", "unique", False),  # repeated job id
    (_with("jobs.0.work", 2**53), "jobs[0].work", "<= 10^12", True),  # huge number
    (_with("jobs.0.deadline", 10**12 + 1), "jobs[0].deadline", "<= 10^12", True),  # past the limit
    (_with("jobs.0.id", "a\nb"), "jobs[0].id", "control characters", True),  # breaks CSV rows
    (_with("name", "x\x85"), "name", "control characters", True),  # C1 control (NEL)
    (_with("name", "\ud800"), "name", "lone surrogates", False),  # not encodable as UTF-8
    (_with("name", "n" * 10_001), "name", "at most 10000", True),  # name too long
    (_with("machines.0.cpus", 10**12), "machines[0].cpus", "<= 2147483647", True),  # huge count
    (_with("machines.0.cpus", 2**31), "machines[0].cpus", "<= 2147483647", True),  # one past
    (_with("name", 3), "name", "must be a string", True),  # name is text
    ([], "", "JSON object", True),  # not an object
]


@pytest.mark.parametrize(("doc", "path", "rule", "schema"), INVALID, ids=[r[2] for r in INVALID])
def test_invalid_documents(doc: Any, path: str, rule: str, schema: bool) -> None:
    """Each rule violation raises InstanceFileError naming the file, the JSON path and the rule."""
    with pytest.raises(InstanceFileError) as err:
        loads_workload(json.dumps(doc), "w.json")
    assert err.value.file == "w.json" and err.value.path == path
    assert rule in err.value.rule


@pytest.mark.parametrize(
    ("text", "path", "rule"),
    [
        # NaN is not a finite number; the path still names it
        (
            '{"format": "planner.workload/1", "machines": [{"id": "a", "cpus": 1, "speed": NaN}], '
            '"jobs": []}',
            "machines[0].speed",
            "finite",
        ),
        # a repeated key is rejected, not silently overwritten
        (
            '{"format": "planner.workload/1", "machines": [], "machines": [], "jobs": []}',
            "",
            "duplicate key 'machines'",
        ),
        # broken JSON names line and column
        ('{"format": "planner.workload/1",', "", "invalid JSON at line 1"),
        # an integer literal beyond Python's digit limit
        (
            '{"format": "planner.workload/1", "machines": [{"id": "a", "cpus": 1'
            + "0" * 5000
            + '}], "jobs": []}',
            "",
            "too many digits",
        ),
    ],
)
def test_invalid_text(text: str, path: str, rule: str) -> None:
    """Rules of the JSON text itself (NaN, duplicate keys, syntax, huge literals)."""
    with pytest.raises(InstanceFileError) as err:
        loads_workload(text, "w.json")
    assert err.value.path == path and rule in err.value.rule


@pytest.mark.parametrize(
    ("doc", "needle"),
    [
        (_with("jobs.0.cpus", 0), "bad.json: jobs[0].cpus: must be an integer >= 1"),
        (
            _with("machines.0.speed", -1),
            "bad.json: machines[0].speed: must be a finite number >= 10^-3 and <= 10^6",
        ),
        (_with("jobs.0.deadline", "soon"), "bad.json: jobs[0].deadline: must be an integer >= 0"),
    ],
)
def test_cli_names_file_path_and_rule(tmp_path: Path, capsys, doc: Any, needle: str) -> None:
    """``planner validate`` and ``check-schedule`` on a bad workload: one stderr line, exit 2."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    csv = tmp_path / "jobs.csv"
    csv.write_text("", encoding="utf-8")
    for argv in (["validate", str(bad)], ["check-schedule", str(bad), str(csv)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.strip().endswith(needle.split("bad.json")[1])
        assert str(bad) in err


def test_unknown_suffix(tmp_path: Path) -> None:
    """A workload file must be .json, .swf or .swf.gz."""
    other = tmp_path / "w.txt"
    other.write_text("{}", encoding="utf-8")
    with pytest.raises(InstanceFileError, match="unknown workload type"):
        read_workload(other)


jsonschema = pytest.importorskip("jsonschema")


def _validator():
    text = resources.files("instances").joinpath("workload.schema.json").read_text()
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_written_files_validate_against_the_schema() -> None:
    """Writer outputs (hand, generated, from SWF) pass the JSON Schema."""
    validator = _validator()
    flows = [
        loads_workload(json.dumps(BASE)),
        generate_workload("klusacek2008", 1, machines=4, jobs=30),
        read_workload(Path(__file__).parent / "data" / "flow.swf"),
    ]
    for w in flows:
        validator.validate(json.loads(dumps_workload(w)))
    validator.validate(_with("jobs.1.estimate", None))  # null means the default


@pytest.mark.parametrize(("doc", "path", "rule", "schema"), INVALID, ids=[r[2] for r in INVALID])
def test_schema_rejects_what_it_can_express(doc: Any, path: str, rule: str, schema: bool) -> None:
    """Rows the schema can express fail it too; the others (uniqueness, width, 2.0) pass it."""
    assert _validator().is_valid(doc) is not schema


def test_perfect_estimates_equal_replacing_each_estimate() -> None:
    """perfect_estimates (no per-job checks) equals dataclasses.replace(job, estimate=work)."""
    import dataclasses

    from instances.workload_io import perfect_estimates

    jobs = (ClusterJob("a", 5, 1, 10, 3, deadline=40), ClusterJob("b", 0, 2, 4),
            ClusterJob("c", 5, 1, 0, 9))  # fmt: skip
    w = Workload((Machine("m", 2, 1.5),), jobs, name="w", dropped=(("submit_unknown", 2),))
    expected = dataclasses.replace(
        w, jobs=tuple(dataclasses.replace(j, estimate=j.work) for j in w.jobs)
    )
    assert perfect_estimates(w) == expected
    assert [j.deadline for j in perfect_estimates(w).jobs] == [None, 40, None]


def _job_doc(**changes: Any) -> dict[str, Any]:
    """A one-machine document of three plain jobs; ``changes`` replaces keys of the second."""
    jobs = [{"id": "a", "submit": 4, "cpus": 1, "work": 9, "estimate": 12},
            {"id": "b b", "submit": 0, "cpus": 2, "work": 0, "deadline": 30},
            {"id": "c", "submit": 4, "cpus": 2, "work": 5, "estimate": None}]  # fmt: skip
    jobs[1].update(changes)
    return {"format": "planner.workload/1", "machines": [{"id": "m", "cpus": 2}], "jobs": jobs}


@pytest.mark.parametrize(
    ("changes", "plain"),
    [
        ({}, True),  # every job plain: built column by column
        ({"id": "é"}, False),  # a valid name, but not printable ASCII: job by job
        ({"id": "x" * 300}, False),  # long: job by job (valid up to the text limit)
        ({"id": "a\nb"}, False),  # a line break: refused job by job (control character)
        ({"submit": 1.0}, False),  # a float is refused job by job, naming the job
        ({"cpus": True}, False),  # a boolean is not an integer
        ({"work": -1}, False),  # out of range
        ({"estimate": 10**13}, False),  # beyond the time limit
        ({"deadline": "5"}, False),  # a string
        ({"colour": 1}, False),  # an unknown key
        ({"id": None}, False),  # a required key null
    ],
)
def test_jobs_in_bulk_or_one_by_one(changes: dict[str, Any], plain: bool) -> None:
    """The bulk path takes only plain jobs; both paths give the same workload or message."""
    from instances.io import _build_list
    from instances.workload_io import _JOB_KEYS, _JOB_REQUIRED, _plain_jobs, workload_from_dict

    doc = _job_doc(**changes)
    assert (_plain_jobs(doc["jobs"]) is not None) == plain
    try:
        one_by_one = Workload(
            (Machine("m", 2),), _build_list(doc, "jobs", _JOB_KEYS, _JOB_REQUIRED, ClusterJob)
        )
    except DataError as err:
        with pytest.raises(DataError) as got:
            workload_from_dict(doc)
        assert (got.value.path, got.value.rule) == (err.path, err.rule)
        return
    assert workload_from_dict(doc) == one_by_one
