"""Fuzzing instance files: accepted and then solvable, or rejected in one line (issue 15).

Valid files are mutated (wrong types, huge and tiny numbers, NaN-like
strings, nulls, deleted and extra keys, lone surrogates, deep nesting). Each
mutant must either pass ``planner validate`` and then run through ``solve``
and ``exact`` (small time limit) with exit 0, or be rejected with exit 2 and
exactly one stderr line, never a traceback or an internal error (exit 1).
The CLI's ``main`` runs in-process to keep this fast.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.cli import main
from tests.mutate import mutate

VALID: dict[str, Any] = {
    "format": "planner.instance/1",
    "name": "fuzz",
    "horizon": [0, 60],
    "geometry": "rough",
    "nodes": [
        {"id": "a", "performance": 1.0, "price": 1.0, "q": 1.5, "attributes": {"os": "linux"}},
        {"id": "b", "performance": 2.0, "price": 2.5, "q": -0.25},
        {"id": "c", "performance": 4.0, "price": 3.0, "q": 2.0, "attributes": {"ram": 16}},
    ],
    "slots": [
        {"node": "a", "start": 0, "end": 30},
        {"node": "b", "start": 5, "end": 40, "price": 2.0},
        {"node": "c", "start": 10, "end": 60},
    ],
    "jobs": [
        {"id": "j1", "nodes": 2, "volume": 8.0, "budget": 40, "criterion": "max_q"},
        {"id": "j2", "nodes": 1, "volume": 4.0, "max_price": 3.0, "criterion": "coord",
         "requirements": {"ram": 8}, "release": 0, "deadline": 60, "priority": 1},
    ],
}  # fmt: skip

NASTY: list[Any] = [
    None, True, False, 0, -1, 1, 0.5, -0.0, 1e-308, 5e-324, 1e308, -1e308, 2**62, 2**63,
    -(2**63), 2**64, 10**30, 1e15 + 0.1234, "", "NaN", "Infinity", "-Infinity", "1e999", "0",
    "\ud800", "a\nb", "\x00", "x" * 50, [], {}, [1, 2], {"k": 1}, [[[[[]]]]],
]  # fmt: skip


@st.composite
def mutants(draw: st.DrawFn) -> str:
    """A mutated copy of VALID as JSON text (1-3 mutations, or a deep nest)."""
    doc = mutate(draw, VALID, NASTY, ["replace", "delete", "extra", "nest"],
                 ["zzz", "\ud800", "a\nb", ""])
    text = json.dumps(doc)
    if draw(st.integers(0, 30)) == 0:
        depth = draw(st.sampled_from([50, 5000]))
        text = text.replace('"fuzz"', "[" * depth + "]" * depth)
    return text


def _cli(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def _clean_exit(code: int, err: str, argv: list[str]) -> None:
    assert code in (0, 2), (argv, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        assert err.count("\n") == 1, (argv, err)


@settings(
    max_examples=int(os.environ.get("PLANNER_FUZZ_EXAMPLES", "150")),
    deadline=None,
    derandomize=not os.environ.get("PLANNER_FUZZ_RANDOM"),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=mutants(), solver=st.sampled_from(["dp", "cpsat"]))
def test_mutated_instance_files_never_crash(text: str, solver: str) -> None:
    """Validate, solve and exact: exit 0, or exit 2 with one stderr line and no traceback."""
    fd, path = tempfile.mkstemp(suffix=".json", prefix="planner-fuzz-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        code, err = _cli(["validate", path])
        _clean_exit(code, err, ["validate"])
        if code != 0:
            return
        for argv in (
            ["solve", path, "--algorithm", "amp"],
            ["solve", path, "--algorithm", "min_cost"],
            ["exact", path, "--solver", solver, "--time-limit", "0.5", "--json"],
        ):
            code, err = _cli(argv)
            _clean_exit(code, err, argv)
    finally:
        os.unlink(path)
