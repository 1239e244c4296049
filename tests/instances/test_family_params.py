"""Family parameters given as text on a command line (instances.generators.base.parse_param)."""

from __future__ import annotations

from typing import Any

import pytest

from instances.generators.base import parse_param


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("12", 8, 12),  # a JSON number for a numeric parameter
        ("0.5", 1.0, 0.5),  # a real
        ("2024", "trace.swf", "2024"),  # a string default keeps the text: a file name
        ('"2024"', 8, "2024"),  # a quoted JSON string stays a string
        ("abc", 8, "abc"),  # not JSON: the text itself (the family's own check refuses it)
        ("true", 8, True),  # a JSON literal
    ],
)
def test_a_parameter_text_is_read_as_its_default_suggests(text: str, default: Any,
                                                          expected: Any) -> None:  # fmt: skip
    """Each text becomes the value in the row."""
    assert parse_param(text, default) == expected


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2]",  # a JSON list
        '{"a": 1}',  # a JSON object
    ],
)
def test_a_list_or_an_object_is_refused(text: str) -> None:
    """A parameter is a number or a string; the error names that rule."""
    with pytest.raises(ValueError, match="must be a number or a string"):
        parse_param(text, 8)


@pytest.mark.parametrize("command", [["generate", "tiny", "--seed", "1"],
                                     ["study", "gap", "--family", "tiny", "--instances", "1"]])
def test_the_cli_and_the_study_give_the_same_one_line(command: list[str], tmp_path: Any,
                                                       capsys: Any) -> None:  # fmt: skip
    """`planner generate` and `planner study` refuse a list parameter with one line, exit 2."""
    from planner.cli import main

    argv = [*command, "--nodes", "[1]"]
    if command[0] == "study":
        argv += ["--out", str(tmp_path / "o")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith("parameter 'nodes' must be a number or a string")
