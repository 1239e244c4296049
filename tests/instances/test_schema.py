"""The JSON Schema of ``planner.instance/1`` agrees with the reader (instances/io.py).

Rows the schema cannot express (overlap, unknown node ids, uniqueness,
integers written as ``2.0``, NaN, ``start < end``, ...) are marked
``schema=False``: for them only the reader is checked.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from instances import (
    CRITERIA,
    GEOMETRIES,
    Busy,
    Instance,
    InstanceFileError,
    Job,
    Node,
    dumps_instance,
    generate,
    loads_instance,
)
from tests.instances.mutate import with_value

jsonschema = pytest.importorskip("jsonschema")


def _schema() -> dict[str, Any]:
    return json.loads(resources.files("instances").joinpath("instance.schema.json").read_text())


def _validator():
    return jsonschema.Draft202012Validator(_schema())


def _example_text() -> str:
    return resources.files("instances").joinpath("data/example.json").read_text(encoding="utf-8")


BASE: dict[str, Any] = {
    "format": "planner.instance/1",
    "nodes": [{"id": "a", "performance": 1.0}, {"id": "b", "performance": 2.0}],
    "slots": [{"node": "a", "start": 0, "end": 10}, {"node": "b", "start": 0, "end": 10}],
    "jobs": [{"id": "j", "nodes": 1, "volume": 4}],
}


def _with(path: str, value: Any) -> dict[str, Any]:
    """Return BASE with the value at ``path`` (``jobs.0.nodes``) set; ``...`` deletes it."""
    return with_value(BASE, path, value)


def test_schema_is_valid_and_in_sync() -> None:
    """The schema is a valid draft 2020-12 schema; its enums are the registries."""
    schema = _schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["geometry"]["enum"] == list(GEOMETRIES)
    criterion = schema["$defs"]["job"]["properties"]["criterion"]["anyOf"][0]
    assert criterion["enum"] == list(CRITERIA)


def _valid_texts() -> list[tuple[str, str]]:
    busy = Instance(
        nodes=(Node("a", 1.0, attributes={"os": "linux", "ram": 8}),),
        busy=(Busy("a", 2, 5),),
        jobs=(Job("j", 1, 2.0, requirements={"ram": 4}, release=0, deadline=9, priority=1),),
        horizon=(0, 10),
        geometry="square",
    )
    texts = [("example.json", _example_text()), ("busy", dumps_instance(busy))]
    texts += [(f, dumps_instance(generate(f, seed=1))) for f in ("tiny", "toporkov2011")]
    texts.append(("base", json.dumps(BASE)))
    texts.append(("nulls", json.dumps(_with("jobs.0.deadline", None))))
    return texts


@pytest.mark.parametrize(("name", "text"), _valid_texts(), ids=lambda v: v[:20])
def test_valid_files_pass_both(name: str, text: str) -> None:
    """The bundled example, writer outputs and hand-written files pass schema and reader."""
    _validator().validate(json.loads(text))
    loads_instance(text, name)


def test_tiny_fixture_passes_both(tiny: Instance) -> None:
    """The shared fixture, written by the writer, passes both."""
    text = dumps_instance(tiny)
    _validator().validate(json.loads(text))
    assert loads_instance(text) == tiny


INVALID: list[tuple[dict[str, Any], bool, str]] = [
    # (document, the schema can express the rule, what is wrong)
    (_with("format", ...), True, "missing format"),
    (_with("format", "planner.instance/2"), True, "wrong format"),
    (_with("colour", "red"), True, "unknown top-level key"),
    (_with("nodes.0.speed", 3), True, "unknown node key"),
    (_with("slots.0.length", 3), True, "unknown slot key"),
    (_with("jobs.0.walltime", 3), True, "unknown job key"),
    (_with("slots", ...), True, "neither slots nor busy"),
    (dict(_with("busy", []), horizon=[0, 10]), True, "both slots and busy"),
    ({**_with("slots", ...), "busy": []}, True, "busy without a horizon"),
    (_with("geometry", "round"), True, "unknown geometry"),
    (_with("horizon", [0]), True, "horizon with one number"),
    (_with("nodes.0.performance", 0), True, "performance must be > 0"),
    (_with("nodes.0.performance", None), True, "required key null"),
    (_with("nodes.0.price", -1), True, "negative price"),
    (_with("nodes.0.id", ""), True, "empty id"),
    (_with("nodes.0.attributes", {"gpu": True}), True, "boolean attribute"),
    (_with("slots.0.start", 1.5), True, "fractional start"),
    (_with("jobs.0.nodes", 0), True, "nodes must be >= 1"),
    (_with("jobs.0.volume", -4), True, "negative volume"),
    (_with("jobs.0.budget", 2.5), True, "fractional budget"),
    (_with("jobs.0.criterion", "fastest"), True, "unknown criterion"),
    (_with("jobs", {}), True, "jobs must be an array"),
    (_with("jobs.0.nodes", 2.0), False, "2.0 is a JSON Schema integer, not a reader one"),
    (_with("slots.0.end", 0), False, "start < end"),
    (_with("slots.1.node", "a"), False, "overlapping slots on a node"),
    (_with("slots.0.node", "zz"), False, "unknown node id"),
    (_with("nodes.1.id", "a"), False, "duplicate node id"),
    ({**BASE, "jobs": [BASE["jobs"][0]] * 2}, False, "duplicate job id"),
    (dict(BASE, horizon=[0, 5]), False, "slot outside the horizon"),
    (dict(BASE, horizon=[5, 5]), False, "horizon start < end"),
    (
        {**BASE, "jobs": [{"id": "j", "nodes": 1, "volume": 4, "release": 9, "deadline": 3}]},
        False,
        "release < deadline",
    ),
]


@pytest.mark.parametrize(("doc", "schema", "why"), INVALID, ids=[r[2] for r in INVALID])
def test_invalid_files(doc: dict[str, Any], schema: bool, why: str) -> None:
    """The reader rejects every row; the schema too when it can express the rule."""
    text = json.dumps(doc)
    with pytest.raises(InstanceFileError):
        loads_instance(text, "bad.json")
    if schema:
        assert not _validator().is_valid(doc), why


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"format": "planner.instance/1", "nodes": [{"id": "a", "performance": NaN}]}', "NaN"),
        ('{"format": "planner.instance/1", "format": "planner.instance/1"}', "duplicate key"),
    ],
)
def test_reader_only_text_rules(text: str, why: str) -> None:
    """Rules of the JSON text itself (NaN, duplicate keys) are beyond any schema: reader only."""
    with pytest.raises(InstanceFileError):
        loads_instance(text, "bad.json")
