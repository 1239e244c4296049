"""The JSON Schema of result lines (``planner.result/1``) agrees with the reader
(validation/results/lines.py).

Rows the schema cannot express (integers written as ``4.0``, ``end > start``,
statuses by file kind, the summary line's place) are marked ``schema=False``:
for them only the reader is checked.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from instances import InstanceFileError
from validation.conformance.reference import expected_lines
from validation.results import parse_results
from validation.results.lines import STATUSES

jsonschema = pytest.importorskip("jsonschema")

WINDOW = {"start": 4, "placements": [{"node": "a", "start": 4, "end": 12}]}


def _validator() -> Any:
    schema = json.loads(resources.files("instances").joinpath("result.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def test_schema_is_valid_and_lists_the_readers_statuses() -> None:
    """A valid draft 2020-12 schema whose status enum is every status the reader accepts."""
    schema = json.loads(resources.files("instances").joinpath("result.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["title"] == "planner.result/1"
    statuses = schema["$defs"]["line"]["properties"]["status"]["enum"]
    assert set(statuses) == {s for kind in STATUSES.values() for s in kind}


def test_planners_lines_are_valid(tiny: Any) -> None:
    """solve and alternatives lines of several algorithms validate, line by line."""
    v = _validator()
    for name in ("amp", "alp", "min_cost", "max_q", "dep"):
        for mode in ("solve", "alternatives"):
            for line in expected_lines(tiny, name, mode):
                v.validate(line)
    v.validate({"problem": 8, "solver": "dp", "status": "optimal", "objective": 16, "bound": 16,
                "gap": 0.0, "constraint": 12, "limit": 15, "time": "proc_time",
                "runtime": 0.01})  # fmt: skip


@pytest.mark.parametrize(
    ("line", "valid", "schema"),
    [
        ({"job": "j1", "window": WINDOW}, True, True),  # the minimal form
        ({"job": "j1", "status": "not_found"}, True, True),  # no window
        ({"job": "j1", "status": "not_found", "window": None}, True, True),  # null window
        ({"job": "j1"}, False, True),  # neither window nor status
        ({"job": "j1", "status": "found"}, False, True),  # found without a window
        ({"job": "j1", "status": "not_found", "window": WINDOW}, False, True),  # a stray window
        ({"job": "", "window": WINDOW}, False, True),  # an empty job id
        ({"job": "j1", "window": WINDOW, "extra": 1}, False, True),  # an unknown key
        ({"job": "j1", "window": {**WINDOW, "speed": 1}}, False, True),  # unknown metric
        ({"job": "j1", "window": {"start": 4, "placements": []}}, False, True),  # no placements
        ({"job": "j1", "window": {"start": 4, "placements": [{"node": "a", "start": 4}]}},
         False, True),  # a placement without its end
        ({"job": "j1", "window": {"start": 4, "placements": [{"node": "a", "start": 4,
          "end": 12, "slot": [0]}]}}, False, True),  # a one-number slot
        ({"job": "j1", "window": {"start": 4.0, "placements": WINDOW["placements"]}},
         False, False),  # 4.0: JSON Schema's integer accepts it, the reader does not
        ({"job": "j1", "window": {"start": 4, "placements": [{"node": "a", "start": 4,
          "end": 4}]}}, False, False),  # end = start
    ],
)
def test_schema_and_reader_agree(line: dict[str, Any], valid: bool, schema: bool) -> None:
    """Each row is accepted or refused by the reader and (where expressible) the schema."""
    text = json.dumps(line) + "\n"
    try:
        parse_results(text)
        read_ok = True
    except InstanceFileError:
        read_ok = False
    assert read_ok == valid
    if schema:
        assert _validator().is_valid(line) == valid
