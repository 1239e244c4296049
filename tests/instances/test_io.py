"""Reading and writing ``planner.instance/1`` files and ``planner validate`` (FORMATS.md)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from instances import (
    Busy,
    Instance,
    InstanceFileError,
    Job,
    Node,
    Slot,
    dumps_instance,
    generate,
    loads_instance,
    read_instance,
    write_instance,
)

EXAMPLE = resources.files("instances").joinpath("data/example.json")


def _busy_instance() -> Instance:
    return Instance(
        nodes=(Node("a", 1.5, price=0.1, q=-1.0, attributes={"os": "linux", "ram": 8}),),
        busy=(Busy("a", 2, 5), Busy("a", 4, 7)),
        jobs=(
            Job(
                "j", 1, 3.0, min_performance=1.0, max_price=2.5, criterion="dep",
                requirements={"ram": 4}, release=0, deadline=9, priority=2.0,
            ),
        ),
        name="busy ünïcode",
        horizon=(0, 10),
        geometry="square",
    )  # fmt: skip


def _instances() -> list[Instance]:
    return [
        read_instance(EXAMPLE),
        _busy_instance(),
        Instance(nodes=(Node("a", 1.0),), slots=(Slot("a", 0, 3, price=2.25),)),
        generate("tiny", seed=3),
        generate("toporkov2011", seed=1),
    ]


@pytest.mark.parametrize("inst", _instances(), ids=lambda i: i.name or "anonymous")
def test_round_trip(inst: Instance, tmp_path: Path) -> None:
    """write → read gives an equal instance; write → read → write gives the same bytes."""
    first = tmp_path / "a.json"
    second = tmp_path / "b.json"
    write_instance(inst, first)
    back = read_instance(first)
    assert back == inst
    write_instance(back, second)
    assert first.read_bytes() == second.read_bytes()
    assert loads_instance(dumps_instance(inst)) == inst


def test_tiny_fixture_round_trip(tiny: Instance) -> None:
    """The shared fixture survives the text round trip."""
    assert loads_instance(dumps_instance(tiny)) == tiny


def test_busy_is_written_as_busy() -> None:
    """A busy instance is written with its busy intervals, not the derived slots."""
    doc = json.loads(dumps_instance(_busy_instance()))
    assert "slots" not in doc and len(doc["busy"]) == 2


def test_equal_instances_give_equal_bytes() -> None:
    """Attribute and requirement order does not make instances differ, nor their text."""
    a = Instance(
        nodes=(Node("a", 1.0, attributes={"ram": 8, "os": "linux"}),),
        slots=(Slot("a", 0, 5),),
        jobs=(Job("j", 1, 2.0, requirements={"ram": 4, "os": "linux"}),),
    )
    b = Instance(
        nodes=(Node("a", 1.0, attributes={"os": "linux", "ram": 8}),),
        slots=(Slot("a", 0, 5),),
        jobs=(Job("j", 1, 2.0, requirements={"os": "linux", "ram": 4}),),
    )
    assert a == b
    assert dumps_instance(a) == dumps_instance(b)
    assert '"attributes": {"os": "linux", "ram": 8}' in dumps_instance(a)


def test_bundled_example_is_writer_output() -> None:
    """instances/data/example.json is byte-identical to what the writer produces for it."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert dumps_instance(loads_instance(text)) == text


def _doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "planner.instance/1",
        "nodes": [{"id": "a", "performance": 1.0}, {"id": "b", "performance": 2.0}],
        "slots": [{"node": "a", "start": 0, "end": 10}, {"node": "b", "start": 0, "end": 10}],
        "jobs": [{"id": "j", "nodes": 1, "volume": 4}],
    }
    for key, value in changes.items():
        if value is ...:
            doc.pop(key)
        else:
            doc[key] = value
    return doc


def _text(**changes: Any) -> str:
    return json.dumps(_doc(**changes))


SLOT_A = {"node": "a", "start": 0, "end": 10}
JOB = {"id": "j", "nodes": 1, "volume": 4}
NODE = {"id": "a", "performance": 1.0}

INVALID: list[tuple[str, str]] = [
    # (file text, expected "path: rule" after the file name)
    ("{", "invalid JSON at line 1 column 2"),  # truncated JSON
    ("[]", "the document must be a JSON object"),  # top level not an object
    ('{"format": "planner.instance/1", "format": "x"}', "duplicate key 'format'"),
    (_text(format=...), "missing required key 'format'"),  # no format
    (_text(format="planner.instance/2"), "format: must equal 'planner.instance/1'"),
    (_text(format=None), "format: is required and must not be null"),  # null format
    (_text(nodes=...), "missing required key 'nodes'"),  # no nodes
    (_text(colour="red"), "unknown key 'colour'"),  # unknown top-level key
    (_text(nodes=[{**NODE, "speed": 2}]), "nodes[0]: unknown key 'speed'"),
    (_text(slots=[{**SLOT_A, "len": 2}]), "slots[0]: unknown key 'len'"),
    (_text(jobs=[{**JOB, "walltime": 2}]), "jobs[0]: unknown key 'walltime'"),
    (_text(slots=...), "exactly one of 'slots' and 'busy' must be present"),  # neither
    (_text(busy=[], horizon=[0, 10]), "exactly one of 'slots' and 'busy' must be present"),
    (_text(slots=..., busy=[]), "horizon: is required when busy is given"),
    # NaN and Infinity are not JSON numbers
    (_text().replace('"performance": 1.0', '"performance": NaN'), "nodes[0].performance: must"),
    (_text().replace('"volume": 4', '"volume": Infinity'), "jobs[0].volume: must be a finite"),
    (_text().replace('"volume": 4', '"volume": -Infinity'), "jobs[0].volume: must be a finite"),
    (_text().replace('"volume": 4', '"volume": 1e999'), "jobs[0].volume: must be a finite"),
    # overlapping slots on one node
    (
        _text(slots=[SLOT_A, {"node": "a", "start": 5, "end": 12}]),
        "slots[1]: overlaps slots[0] on node 'a'",
    ),
    (_text(slots=[{"node": "zz", "start": 0, "end": 1}]), "slots[0].node: unknown node 'zz'"),
    (_text(nodes=[NODE, NODE]), "nodes[1].id: duplicate id 'a'"),  # duplicate node id
    (_text(jobs=[JOB, JOB]), "jobs[1].id: duplicate id 'j'"),  # duplicate job id
    (_text(slots=[{"node": "a", "start": 5, "end": 5}]), "slots[0].end: must be greater than"),
    (_text(slots=[{"node": "a", "start": 0.0, "end": 5}]), "slots[0].start: must be an integer"),
    (_text(jobs=[{**JOB, "nodes": 2.0}]), "jobs[0].nodes: must be an integer >= 1"),
    (_text(jobs=[{**JOB, "nodes": 0}]), "jobs[0].nodes: must be an integer >= 1"),
    (_text(jobs=[{**JOB, "budget": 1.5}]), "jobs[0].budget: must be an integer >= 0"),
    (_text(horizon=[0, 10.0]), "horizon: must be two integers [start, end]"),
    (_text(horizon=[0]), "horizon: must be two integers [start, end]"),
    (_text(horizon=[0, 5]), "slots[0]: must lie inside the horizon"),
    (_text(nodes=[{"id": "a", "performance": None}]), "nodes[0].performance: is required"),
    (_text(nodes=[{"id": "a", "performance": 0}]), "nodes[0].performance: must be a finite"),
    (_text(jobs=[{**JOB, "volume": 0}]), "jobs[0].volume: must be a finite number > 0"),
    (_text(jobs=[{**JOB, "criterion": "fast"}]), "jobs[0].criterion: must be one of"),
    (_text(jobs={}), "jobs: must be an array"),
    (_text(jobs=[3]), "jobs[0]: must be an object"),
    (_text(geometry="round"), "geometry: must be one of rough, square"),
    (_text(name=7), "name: must be a string"),
    (_text(jobs=[{**JOB, "release": 5, "deadline": 5}]), "jobs[0].deadline: must be greater"),
    # a duplicate key inside a nested object names that object's path
    (
        _text().replace('"performance": 2.0', '"performance": 2.0, "performance": 3.0'),
        "nodes[1]: duplicate key 'performance'",
    ),
    # true is an int in Python, not a JSON number
    (_text(jobs=[{**JOB, "nodes": True}]), "jobs[0].nodes: must be an integer >= 1"),
    (_text(nodes=[{"id": "a", "performance": True}]), "nodes[0].performance: must be a finite"),
    # an integer literal too large for a float is not a finite real
    (_text(jobs=[{**JOB, "volume": 10**400}]), "jobs[0].volume: must be a finite number > 0"),
    # an integer literal beyond Python's digit limit (4300) is not a crash
    (_text().replace('"volume": 4', '"volume": 1' + "0" * 5000), "invalid JSON: a number has"),
    # nesting deeper than the parser's recursion limit is not a crash
    ('{"name": ' + "[" * 100_000 + "]" * 100_000 + "}", "invalid JSON: nested too deeply"),
    # a criterion of the wrong JSON type (an array is unhashable in Python)
    (_text(jobs=[{**JOB, "criterion": ["min_cost"]}]), "jobs[0].criterion: must be one of"),
    ("", "invalid JSON at line 1 column 1"),  # empty file
]


@pytest.mark.parametrize(("text", "message"), INVALID, ids=[m[:40] for _, m in INVALID])
def test_invalid_file(text: str, message: str, tmp_path: Path) -> None:
    """Each file rule: InstanceFileError ``file: path: rule``, one line."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InstanceFileError) as err:
        read_instance(path)
    assert str(err.value).startswith(f"{path}: {message}")
    assert "\n" not in str(err.value)


def test_unreadable_files(tmp_path: Path) -> None:
    """A missing file and a non-UTF-8 file are one-line InstanceFileErrors naming the file."""
    with pytest.raises(InstanceFileError, match="cannot read file"):
        read_instance(tmp_path / "missing.json")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"name": "\xe9"}')
    with pytest.raises(InstanceFileError, match="is not UTF-8 text"):
        read_instance(bad)


def test_null_optional_keys_take_defaults() -> None:
    """An optional key given as null takes its SPEC §2 default (FORMATS.md shows deadline null)."""
    inst = loads_instance(_text(jobs=[{**JOB, "deadline": None, "criterion": None}]))
    assert (inst.jobs[0].deadline, inst.jobs[0].criterion) == (None, "min_start")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "planner.cli", *args], capture_output=True, text=True, check=False
    )


def test_validate_cli_accepts_writer_output(tmp_path: Path) -> None:
    """``planner validate`` exits 0 on the bundled example and on every writer output."""
    files = [str(EXAMPLE)]
    for k, inst in enumerate([*_instances(), dataclasses.replace(_busy_instance(), jobs=())]):
        path = tmp_path / f"{k}.json"
        write_instance(inst, path)
        files.append(str(path))
    for f in files:
        done = _cli("validate", f)
        assert done.returncode == 0, done.stderr
        assert "valid" in done.stdout


@pytest.mark.parametrize(("text", "message"), INVALID[:: max(1, len(INVALID) // 8)])
def test_validate_cli_rejects(text: str, message: str, tmp_path: Path) -> None:
    """Invalid files (a spread of the rows above): exit 2, one stderr line, no traceback."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    done = _cli("validate", str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{path}: {message}")


def test_validate_cli_all_rules_in_process(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    """Every invalid row through ``planner.cli.main``: exit 2 and the same one line."""
    from planner.cli import main

    for k, (text, message) in enumerate(INVALID):
        path = tmp_path / f"bad{k}.json"
        path.write_text(text, encoding="utf-8")
        assert main(["validate", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{path}: {message}") and err.count("\n") == 1, err
