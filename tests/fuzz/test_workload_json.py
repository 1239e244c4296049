"""Fuzzing planner.workload/1 files through validate, simulate and check-schedule.

A valid workload is mutated (types, huge, tiny and non-finite numbers, nulls,
deleted and extra keys, hostile text). Each mutant is refused with exit 2 and
one stderr line, or accepted; an accepted one is replayed under a drawn policy,
its outputs are valid UTF-8, and the independent checker passes the
simulator's own schedule (exit 0).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.helpers import run, scratch, write

VALID: dict[str, Any] = {
    "format": "planner.workload/1",
    "name": "fuzz",
    "machines": [{"id": "a", "cpus": 4, "speed": 1.0}, {"id": "b", "cpus": 2, "speed": 2.0}],
    "jobs": [
        {"id": "1", "submit": 0, "cpus": 2, "work": 10, "estimate": 12, "deadline": 30},
        {"id": "2", "submit": 3, "cpus": 4, "work": 7},
        {"id": "3", "submit": 3, "cpus": 1, "work": 0, "estimate": 5},
        {"id": "4", "submit": 8, "cpus": 2, "work": 20, "estimate": 9},
        {"id": "5", "submit": 9, "cpus": 1, "work": 4, "deadline": 10},
    ],
}

NASTY: list[Any] = [
    None, True, 0, -1, 1, 2, 0.5, -0.0, 1e-3, 1e-300, 5e-324, 1e-320, 1e6, 1e308, 2**31 - 1,
    2**31, 2**53, 2**62, 2**63, 10**12, 10**12 + 1, 10**30, "", "1", "\ud800", "a\nb", "\x85",
    "\x00", "é" * 3, "x" * 10_001, [], {}, [1], {"k": 1},
]  # fmt: skip
POLICIES = ["fcfs", "easy", "conservative", "flex", "egedf", "tabu"]


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(VALID)


@st.composite
def mutants(draw: st.DrawFn) -> str:
    """VALID with 1-3 mutations, as JSON text."""
    doc = json.loads(json.dumps(VALID))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS))
        parent: Any = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        op = draw(st.sampled_from(["replace", "replace", "delete", "extra"]))
        if op == "replace":
            parent[path[-1]] = draw(st.sampled_from(NASTY) | st.integers() | st.floats())
        elif op == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["zzz", "\ud800", "a\nb"]))] = 1
    return json.dumps(doc)


@given(text=mutants(), policy=st.sampled_from(POLICIES))
def test_mutated_workloads_are_refused_or_replayed_and_checked(text: str, policy: str) -> None:
    """Exit 2 with one line, or a replay whose jobs.csv is UTF-8 and passes the checker."""
    with scratch() as tmp:
        flow = write(tmp / "w.json", text)
        code, _ = run(["validate", str(flow)])
        sim = ["simulate", str(flow), "--policy", policy, "-o", str(tmp / "jobs.csv"),
               "--reservations", str(tmp / "res.csv"), "--json"]  # fmt: skip
        code_sim, out = run(sim)
        assert code_sim == code, (text, policy)
        if code != 0:
            return
        json.loads(out)
        (tmp / "jobs.csv").read_bytes().decode("utf-8")
        check = ["check-schedule", str(flow), str(tmp / "jobs.csv")]
        if policy in ("fcfs", "easy", "conservative"):
            check += ["--policy", policy, "--reservations", str(tmp / "res.csv")]
        assert run(check)[0] == 0, (text, policy)
