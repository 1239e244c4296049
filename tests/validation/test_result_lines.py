"""Reading result lines (validation/results/lines.py): planner's forms, the minimal form, kinds,
and one error line naming the line, the JSON path and the rule for every malformed file."""

from __future__ import annotations

import json

import pytest

from instances import InstanceFileError
from validation.results import parse_results

PLACED = {"node": "a", "start": 4, "end": 12}
WINDOW = {"start": 4, "placements": [PLACED]}


def _text(*lines: dict) -> str:
    return "".join(json.dumps(x) + "\n" for x in lines)


def test_minimal_form_reads_as_stated() -> None:
    """A window without metrics, status or slot is a found window; not_found carries none."""
    got = parse_results(_text({"job": "j1", "window": WINDOW},
                              {"job": "j2", "status": "not_found"}))  # fmt: skip
    assert got.kind == "solve"
    first, second = got.lines
    assert (first.status, first.window.start, first.window.metrics) == ("found", 4, {})
    (p,) = first.window.placements
    assert (p.node, p.start, p.end, p.cost, p.slot) == ("a", 4, 12, None, None)
    assert (second.status, second.window, second.number) == ("not_found", None, 2)


def test_full_form_keeps_metrics_cost_and_slot() -> None:
    """planner's own window: every metric, each placement's cost and slot, the algorithm."""
    window = {**WINDOW, "finish": 12, "cost": 8, "q": 1.0,
              "placements": [{**PLACED, "cost": 8, "slot": [0, 20]}]}  # fmt: skip
    got = parse_results(_text({"job": "j1", "algorithm": "amp", "status": "found",
                               "window": window}))  # fmt: skip
    (ln,) = got.lines
    assert ln.window.metrics == {"finish": 12, "cost": 8, "q": 1.0}
    assert (ln.window.placements[0].cost, ln.window.placements[0].slot) == (8, (0, 20))
    assert got.algorithm == "amp"


@pytest.mark.parametrize(
    ("lines", "kind"),
    [
        ([{"job": "j1", "window": WINDOW}], "solve"),  # the minimal form
        ([{"job": "j1", "alternative": 1, "window": WINDOW}], "alternatives"),  # numbered
        ([{"job": "j1", "status": "placed", "alternative": 1, "window": WINDOW},
          {"problem": 8, "objective": 8}], "combine"),  # a combination and its summary
    ],
)
def test_kind_is_detected(lines: list[dict], kind: str) -> None:
    """The kind follows from the keys and statuses (docs/verify.md)."""
    assert parse_results(_text(*lines)).kind == kind


def test_kind_can_be_given() -> None:
    """Minimal alternatives (no numbers) read as alternatives when asked; blank lines skip."""
    text = _text({"job": "j1", "window": WINDOW}) + "\n" + _text({"job": "j1", "window": WINDOW})
    got = parse_results(text, kind="alternatives")
    assert got.kind == "alternatives" and [ln.number for ln in got.lines] == [1, 3]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "holds no result lines"),  # nothing at all
        ("{not json\n", "line 1: invalid JSON at column 2"),  # a broken line
        ("[1, 2]\n", "line 1: must be a JSON object"),  # not an object
        (_text({"window": WINDOW}), "line 1: job: is required"),  # no job
        (_text({"job": "j1"}), "line 1: status: is required when there is no window"),
        (_text({"job": "j1", "status": "found"}), "line 1: window: is required with status"),
        (_text({"job": "j1", "status": "not_found", "window": WINDOW}), "window: must be null"),
        (_text({"job": "j1", "status": "maybe", "window": WINDOW}), "status: must be one of"),
        (_text({"job": "j1", "windw": WINDOW}), "line 1: unknown key 'windw'"),  # a typo
        (_text({"job": "j1", "format": "planner.result/2", "window": WINDOW}),
         "format: must equal 'planner.result/1'"),  # another version
        (_text({"job": "j1", "window": {**WINDOW, "start": 4.0}}),
         "line 1: window.start: must be an integer"),  # 4.0 is not an integer
        (_text({"job": "j1", "window": {"start": 4, "placements": []}}),
         "window.placements: is required and must be a non-empty array"),
        (_text({"job": "j1", "window": {"start": 4, "placements": [{**PLACED, "end": 4}]}}),
         "window.placements[0].end: must be greater than start"),
        (_text({"job": "j1", "window": {"start": 4, "placements": [{**PLACED, "slot": [5]}]}}),
         "window.placements[0].slot: must be two integers"),
        (_text({"job": "j1", "window": {**WINDOW, "q": "high"}}), "window.q: must be a finite"),
        ('{"job": "j1", "job": "j2", "status": "not_found"}\n', "line 1: duplicate key 'job'"),
        ('{"job": "j1", "window": {"start": 4, "q": NaN, "placements": []}}\n',
         "window.q: must be a finite number"),  # NaN is named by its path
        (_text({"job": "j1", "alternative": 0, "window": WINDOW}), "alternative: must be an"),
        (_text({"job": "j1", "status": "placed", "window": WINDOW}),
         "needs its summary line"),  # a combination without its summary
        (_text({"problem": 8}, {"job": "j1", "status": "postponed"}),
         "line 2: a job line after the summary line"),
        (_text({"job": "j1", "status": "postponed"}, {"problem": 5}),
         "line 2: problem: must be 6, 7, 8 or 9"),
    ],
)
def test_malformed_files_name_line_path_and_rule(text: str, message: str) -> None:
    """Each malformed file is one InstanceFileError naming the file, line, path and rule."""
    with pytest.raises(InstanceFileError) as err:
        parse_results(text, "res.jsonl")
    assert str(err.value).startswith("res.jsonl") and message in str(err.value)
    assert "\n" not in str(err.value)


def test_solve_lines_refuse_alternative_numbers() -> None:
    """An alternative number in a file read as single-job windows is an error, not ignored."""
    with pytest.raises(InstanceFileError, match="alternative: belongs to alternatives"):
        parse_results(_text({"job": "j1", "alternative": 1, "window": WINDOW}), kind="solve")
