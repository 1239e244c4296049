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

from tests.fuzz.helpers import FUZZ, clean, cli, run, scratch, write
from tests.mutate import mutate

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


@st.composite
def mutants(draw: st.DrawFn) -> str:
    """VALID with 1-3 mutations, as JSON text."""
    return json.dumps(mutate(draw, VALID, NASTY, ["replace", "replace", "delete", "extra"],
                             ["zzz", "\ud800", "a\nb"]))  # fmt: skip


@FUZZ
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


EDGE_CPUS = st.sampled_from([1, 2, 7, 10**8, 2**31 - 1])
EDGE_SPEED = st.sampled_from([1e-3, 0.37, 1.0, 3.3, 1e6])
EDGE_TIME = st.sampled_from([0, 1, 5, 20, 10**9, 10**11, 10**12])


@st.composite
def edge_workloads(draw: st.DrawFn) -> dict[str, Any]:
    """Valid workloads at the limits: widest machines, slowest and fastest speeds, 10^12 s."""
    machines = [{"id": f"m{i}", "cpus": draw(EDGE_CPUS), "speed": draw(EDGE_SPEED)}
                for i in range(draw(st.integers(1, 3)))]  # fmt: skip
    widest = max(m["cpus"] for m in machines)
    jobs = []
    for k in range(draw(st.integers(0, 6))):
        job = {"id": f"j{k}", "submit": draw(EDGE_TIME), "work": draw(EDGE_TIME),
               "cpus": draw(st.sampled_from([1, 2, max(1, widest // 2), widest])) }  # fmt: skip
        job["cpus"] = min(job["cpus"], widest)
        for key in ("estimate", "deadline"):
            if draw(st.booleans()):
                job[key] = draw(EDGE_TIME)
        jobs.append(job)
    return {"format": "planner.workload/1", "machines": machines, "jobs": jobs}


@FUZZ
@given(doc=edge_workloads(), policy=st.sampled_from(POLICIES))
def test_workloads_at_the_limits_replay_exactly(doc: dict[str, Any], policy: str) -> None:
    """Every valid workload at the limits replays (or exceeds the 2^62 horizon: exit 2), and
    the checker reads the simulator's integers back exactly: exit 0."""
    with scratch() as tmp:
        flow = write(tmp / "w.json", json.dumps(doc))
        jobs, res = str(tmp / "jobs.csv"), str(tmp / "res.csv")
        argv = ["simulate", str(flow), "--policy", policy, "-o", jobs, "--reservations", res]
        code, _, err = cli(argv)
        clean(code, err, argv)
        if code != 0:
            assert "2^62" in err, err  # the only rule such a workload can break
            return
        check = ["check-schedule", str(flow), jobs]
        if policy in ("fcfs", "easy", "conservative"):
            check += ["--policy", policy, "--reservations", res]
        assert run(check)[0] == 0, (doc, policy)
