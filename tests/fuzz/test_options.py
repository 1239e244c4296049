"""Fuzzing ``simulate --option`` values and ``flow``/``generate`` ``--param`` values.

Every value is refused with exit 2 and one stderr line, or accepted and run;
no value makes a run endless (every option that sizes a loop is bounded, and
the values drawn here that pass are small) or reaches numpy unchecked.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.helpers import FUZZ, run, scratch, write
from tests.fuzz.test_workload_json import VALID

NUMBER = st.sampled_from([
    "0", "1", "2", "-1", "0.5", "1e308", "1e400", "-1e308", "inf", "nan", "1_000", "\uff11",
    "\u00b2", "10000000000000000000000000000000", "1e-300", "", "x", "1,2", "1,1,1", "inf,1,1",
    "1,nan,1", "2,1,1,1", "9223372036854775807", "9223372036854775808",
]) | st.integers(-2, 30).map(str)  # fmt: skip
OPTIONS = {
    "flex": ["weights"],
    "egedf": ["all_jobs"],
    "tabu": ["iterations", "tabu_size", "every", "seed", "all_jobs", "period", "per_job", "tail"],
    "easy": ["weights"],
}


@FUZZ
@given(policy=st.sampled_from(sorted(OPTIONS)), data=st.data())
def test_policy_options_are_refused_or_run(policy: str, data: st.DataObject) -> None:
    """simulate --option KEY=VALUE (1-3 of them): exit 0, or exit 2 with one line."""
    argv = []
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(OPTIONS[policy]))
        argv += ["--option", f"{key}={data.draw(NUMBER)}"]
    with scratch() as tmp:
        flow = write(tmp / "w.json", json.dumps(VALID))
        run(["simulate", str(flow), "--policy", policy, *argv])


PARAM = st.sampled_from([
    "0", "1", "-1", "0.5", "1e308", "1e400", "-1e308", "NaN", "Infinity", "1_000", "\uff11",
    "10000000000000000000000000000000", "1e-300", "true", "null", '"x"', "[1]", "{}", "",
    "1000001", "1000000000000",
]) | st.integers(-2, 12).map(str)  # fmt: skip
NAMES = [
    "nodes", "jobs", "interval", "unit_price", "performance_min", "performance_max", "load_min",
    "load_max", "task_length_min", "task_length_max", "job_nodes_min", "job_nodes_max",
    "volume_min", "volume_max", "budget_spread", "price_deviation",
]  # fmt: skip


@FUZZ
@given(name=st.sampled_from(NAMES), value=PARAM, command=st.sampled_from(["flow", "generate"]))
def test_family_params_are_refused_or_run(name: str, value: str, command: str) -> None:
    """flow/generate css2015 --param NAME=VALUE: exit 0, or exit 2 with one line (no numpy
    warning, no endless run)."""
    with scratch() as tmp:
        argv = [command, "css2015", "--param", f"{name}={value}", "--param", "jobs=3"]
        if name == "jobs":
            argv = [command, "css2015", "--param", f"{name}={value}"]
        if command == "flow":
            argv += ["--cycles", "1"] + (["--param", "nodes=8"] if name != "nodes" else [])
        else:
            argv += ["-o", str(tmp / "i.json")]
        run(argv)
