"""Tests of the generator registry, the ``tiny`` family and ``planner generate``."""

from __future__ import annotations

import itertools

import pytest

from instances import (
    CRITERIA,
    FAMILIES,
    Instance,
    Job,
    cost,
    dumps_instance,
    duration,
    generate,
    loads_instance,
)
from planner.cli import main

# Small parameter sets so that every family runs fast in the determinism tests.
FAST_PARAMS: dict[str, dict[str, object]] = {
    "tiny": {},
    "toporkov2011": {},
    "toporkov2012": {"nodes": 20, "interval": 300},
    "css2015": {},
    "toporkov2018": {"nodes": 30},
}


def _families() -> list[str]:
    return [name for name in FAMILIES if name != "swf"]


def _params(name: str) -> dict[str, object]:
    return dict(FAST_PARAMS.get(name, {}))


def test_registry_entries_are_complete() -> None:
    """Every family names itself, cites its source in one line and has a builder."""
    assert "tiny" in FAMILIES
    for name, family in FAMILIES.items():
        assert family.name == name
        assert family.source and "\n" not in family.source
        assert callable(family.build)
        assert isinstance(family.defaults, dict)


@pytest.mark.parametrize("name", _families())
def test_same_seed_same_bytes(name: str) -> None:
    """Two runs with the same seed and parameters give equal instances and identical text."""
    a = generate(name, 7, **_params(name))
    b = generate(name, 7, **_params(name))
    assert a == b
    assert dumps_instance(a) == dumps_instance(b)


@pytest.mark.parametrize("name", _families())
def test_different_seeds_differ(name: str) -> None:
    """Different seeds give different instances."""
    assert dumps_instance(generate(name, 1, **_params(name))) != dumps_instance(
        generate(name, 2, **_params(name))
    )


@pytest.mark.parametrize("name", _families())
def test_round_trip(name: str) -> None:
    """A generated instance survives write → read unchanged (it is a valid file)."""
    inst = generate(name, 3, **_params(name))
    text = dumps_instance(inst)
    back = loads_instance(text, f"{name}.json")
    assert dumps_instance(back) == text
    assert back.jobs and back.slots


@pytest.mark.parametrize(
    ("family", "params", "needle"),
    [
        ("nope", {}, "unknown family 'nope'"),  # unknown family
        ("tiny", {"colour": 1}, "no parameter 'colour'"),  # unknown parameter
        ("tiny", {"nodes": "four"}, "'nodes' must be an integer"),  # wrong type
        ("tiny", {"slots": 11}, "'slots' must be between 1 and 10"),  # above the tiny cap
        ("tiny", {"geometry": "round"}, "'geometry' must be"),  # not a geometry
        ("tiny", {"bounds": 1.5}, "'bounds' must be a probability"),  # not a probability
        ("toporkov2018", {"q_max": float("inf")}, "'q_max' must be a finite number"),  # inf
        ("toporkov2012", {"unit_price": float("nan")}, "'unit_price' must be a finite"),  # NaN
        ("toporkov2012", {"volume": 10**400}, "'volume' must be a finite number"),  # overflow
        ("toporkov2012", {"nodes": 10**30}, "'nodes' must be an integer within"),  # endless
        ("toporkov2012", {"unit_price": 1e308}, r"within ±10\^15"),  # numpy overflow ahead
        ("toporkov2012", {"interval": 10**12}, "local tasks"),  # 5 * 10^11 tasks to draw
        ("swf", {"max_procs": 10_001}, r"must be <= 10\^4"),  # a node per processor
        ("toporkov2012", {"price_values": "cents"}, "'price_values' must be one of"),  # no such
        ("toporkov2018", {"performance_values": "float"}, "'performance_values' must be one of"),
        ("toporkov2018", {"task_length_min": 0}, "'task_length_min' must be >= 1"),  # empty task
        ("toporkov2012", {"task_length_min": 90, "task_length_max": 80},
         "'task_length_max' must be >= task_length_min"),  # reversed range
        ("toporkov2018", {"task_length_max": 80.5}, "'task_length_max' must be an integer"),
        ("toporkov2011", {"price_values": "whole"}, "'price_values' must be one of real, integer"),
        ("toporkov2011", {"cap_values": "round"}, "'cap_values' must be one of real"),
        ("toporkov2011", {"performance_values": "int"}, "'performance_values' must be"),
        ("toporkov2011", {"time_span": "P"}, "'time_span' must be one of etalon"),  # no reading
        ("toporkov2011", {"cap_factor": 0}, "'cap_factor' must be > 0"),  # no cap at all
        ("toporkov2018", {"q_values": "int"}, "'q_values' must be one of real"),  # no such
        ("toporkov2018", {"q_values": "integer", "q_max": 9.5},
         "'q_max' must be a whole number with q_values=integer"),  # no whole top value
        ("toporkov2011", {"performance_values": "integer", "performance_min": 1.5},
         "'performance_min' must be a whole number"),  # integer draws need whole bounds
    ],
)
def test_bad_family_or_parameter(family: str, params: dict[str, object], needle: str) -> None:
    """Unknown families and parameters and bad values raise a one-line ValueError naming them."""
    with pytest.raises(ValueError, match=needle) as err:
        generate(family, 1, **params)
    assert "\n" not in str(err.value)


def test_negative_seed_rejected() -> None:
    """Seeds are non-negative integers."""
    with pytest.raises(ValueError, match="seed"):
        generate("tiny", -1)


# --- tiny ---------------------------------------------------------------------------


def _feasible(inst: Instance, job: Job) -> bool:
    """Brute force over every n-subset of suitable slots on distinct nodes (AEP space)."""
    slots = inst.suitable_slots(job)
    if job.max_price is not None:
        slots = [s for s in slots if inst.slot_price(s) <= job.max_price]
    budget = job.effective_budget
    for combo in itertools.combinations(slots, job.nodes):
        if len({s.node for s in combo}) < job.nodes:
            continue
        start = max(s.start for s in combo)
        perfs = [inst.node(s.node).performance for s in combo]
        if inst.geometry == "square":
            ds = [duration(job.volume, min(perfs))] * len(perfs)
        else:
            ds = [duration(job.volume, p) for p in perfs]
        if any(start + d > s.end for s, d in zip(combo, ds, strict=True)):
            continue
        total = sum(cost(inst.slot_price(s), d) for s, d in zip(combo, ds, strict=True))
        if budget is None or total <= budget:
            return True
    return False


def test_tiny_shape() -> None:
    """Tiny instances honour their documented ranges."""
    for seed in range(40):
        inst = generate("tiny", seed)
        assert len(inst.nodes) == 4 and len(inst.slots) == 8 and len(inst.jobs) == 2
        assert inst.horizon == (0, 40)
        assert all(n.performance in (1.0, 2.0, 3.0, 4.0) for n in inst.nodes)
        assert all(0 <= s.start < s.end <= 40 for s in inst.slots)
        assert all(1 <= j.nodes <= 3 and j.criterion in CRITERIA for j in inst.jobs)
        assert all(duration(j.volume, 1) <= 10 for j in inst.jobs)


def test_tiny_parameters() -> None:
    """``nodes``, ``slots``, ``jobs`` and ``geometry`` are honoured."""
    inst = generate("tiny", 5, nodes=2, slots=10, jobs=5, geometry="square")
    assert (len(inst.nodes), len(inst.slots), len(inst.jobs)) == (2, 10, 5)
    assert inst.geometry == "square"
    assert all(j.nodes <= 2 for j in inst.jobs)


@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_tiny_mixes_feasible_and_infeasible_jobs(geometry: str) -> None:
    """Most tiny jobs have a feasible window (brute force), some do not; budgets vary."""
    jobs = [
        (inst, job)
        for seed in range(120)
        for inst in [generate("tiny", seed, geometry=geometry)]
        for job in inst.jobs
    ]
    share = sum(_feasible(inst, job) for inst, job in jobs) / len(jobs)
    assert 0.5 < share < 0.95
    budgets = [job.effective_budget for _, job in jobs]
    assert any(b is None for b in budgets) and any(b is not None for b in budgets)
    assert {job.criterion for _, job in jobs} == set(CRITERIA)


# --- CLI ----------------------------------------------------------------------------


def test_cli_writes_identical_files(tmp_path, capsys) -> None:
    """``planner generate`` writes the same bytes for the same seed, to a file or stdout."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["generate", "tiny", "--seed", "4", "--nodes", "3", "-o", str(a)]) == 0
    assert main(["generate", "--seed", "4", "tiny", "--nodes=3", "--output", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert main(["generate", "tiny", "--seed", "4", "--nodes", "3"]) == 0
    assert capsys.readouterr().out == a.read_text(encoding="utf-8")
    assert main(["validate", str(a)]) == 0


@pytest.mark.parametrize("name", _families())
def test_cli_generate_then_validate(name: str, tmp_path) -> None:
    """Every family's file passes ``planner validate``."""
    out = tmp_path / f"{name}.json"
    extra = [f"--{k}={v}" for k, v in _params(name).items()]
    assert main(["generate", name, "--seed", "11", *extra, "-o", str(out)]) == 0
    assert main(["validate", str(out)]) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--help"],  # before FAMILY: argparse's own help
        ["generate", "tiny", "--help"],  # after FAMILY, among the family parameters
        ["generate", "tiny", "--seed", "1", "-h"],  # after other options
    ],
)
def test_cli_generate_help(argv: list[str], capsys) -> None:
    """``--help`` anywhere prints the command's help and exits 0 (not "needs a value")."""
    try:
        code = main(argv)
    except SystemExit as done:  # argparse exits itself for help before FAMILY
        code = done.code
    assert code == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("usage: planner generate") and captured.err == ""


def test_cli_list(capsys) -> None:
    """``--list`` prints every family with its source."""
    assert main(["generate", "--list"]) == 0
    out = capsys.readouterr().out
    for family in FAMILIES.values():
        assert family.name in out and family.source in out


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "nope", "--seed", "1"],  # unknown family
        ["generate", "tiny", "--seed", "1", "--colour", "1"],  # unknown parameter
        ["generate", "tiny", "--seed", "1", "--nodes", "2.5"],  # bad value type
        ["generate", "tiny", "--seed", "1", "--nodes", "[1]"],  # JSON array, not a literal
        ["generate", "tiny", "--seed", "x"],  # seed not an integer
        ["generate", "tiny"],  # no seed
        ["generate", "--seed", "1"],  # no family
        ["generate", "tiny", "--seed", "1", "--nodes"],  # parameter without a value
        ["generate", "toporkov2018", "--seed", "1", "--q-max", "1e309"],  # JSON 1e309 is inf
        ["generate", "toporkov2012", "--seed", "1", "--unit-price", "Infinity"],  # not finite
        ["generate", "toporkov2011", "--seed", "1", "--price-values", "whole"],  # not a reading
    ],
)
def test_cli_bad_usage_exits_2(argv: list[str], capsys) -> None:
    """Bad usage prints one line on stderr and exits 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
