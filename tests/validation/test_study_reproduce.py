"""Tests of the paper reproductions: reference data with sources, and tiny runs of each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from planner.cli import main
from validation.study.reproduce import PAPER_NUMBERS, REPRODUCTIONS
from validation.study.reproduce.common import reference

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"


def test_the_named_studies_are_registered() -> None:
    """The four result reproductions, the timing one and the VO-flow ones, each with a run count."""
    assert list(REPRODUCTIONS)[:5] == ["amp-vs-alp", "aep-criteria", "maxq", "dep-coord", "timing"]
    assert {"css-criteria", "slicer", "pricing"} <= set(REPRODUCTIONS)
    assert all(r.default_runs >= 1 for r in REPRODUCTIONS.values())


@pytest.mark.parametrize("name", PAPER_NUMBERS)
def test_reference_data_names_its_source(name: str) -> None:
    """Every data file names a seed file, a section, a family and the paper's orderings."""
    ref = reference(name)
    assert ref["name"] == name and ref["section"] and ref["orderings"] and ref["paper"]
    assert ref["seed_file"].endswith(".txt")
    if SEEDS.is_dir():
        assert (SEEDS / ref["seed_file"]).is_file()


@pytest.mark.parametrize(
    ("name", "runs", "expect"),
    [
        ("amp-vs-alp", 3, ["TM", "CM", "alternatives_per_job", "59.85", "34.28"]),
        ("aep-criteria", 1, ["min_runtime", "csa", "33.00", "1027", "prices to the cent",
                             "real-valued performance", "the fast windows"]),
        pytest.param("maxq", 1, ["max_q_lite", "multiple_best", "61.80"],
                     marks=pytest.mark.slow),
        pytest.param("dep-coord", 1, ["dep_lite", "coord_lite", "369.00", "52.00",
                                      "busy at the start", "load on [-300, 1200+300]"],
                     marks=pytest.mark.slow),
    ],
)
def test_tiny_run_prints_paper_and_ours(name: str, runs: int, expect: list[str]) -> None:
    """A run of one to three instances prints the paper's numbers, ours and the orderings."""
    cmp = REPRODUCTIONS[name].run(seed=0, runs=runs)
    text = cmp.render()
    for word in expect:
        assert word in text
    assert cmp.kept >= 1
    assert any(ours is not None for _, _, _, _, ours, _ in cmp.rows)
    assert len(cmp.orderings) == len(reference(name)["orderings"])
    stored = set(_numbers(reference(name)["paper"]))
    assert {paper for _, _, _, paper, _, _ in cmp.rows if paper is not None} <= stored
    assert cmp.settings and cmp.sensitivity  # open settings and their sensitivity table
    assert "sensitivity:" in text and "open settings" in text
    if name != "amp-vs-alp":  # amp-vs-alp prints its standard errors in its own sampling table
        assert "sampling: mean and standard error" in text


def _numbers(data: object) -> list[float]:
    """Every stored number in a reference's ``paper`` block (the paper column's only source)."""
    if isinstance(data, dict):
        if "value" in data:
            return [data["value"]]
        return [x for v in data.values() for x in _numbers(v)]
    return []


@pytest.mark.slow
def test_exact_column_bounds_the_heuristic() -> None:
    """In ``maxq`` the CP-SAT optimum is at least MaxQ's Q (exact over the AEP space)."""
    cmp = REPRODUCTIONS["maxq"].run(seed=0, runs=2)
    (row,) = [r for r in cmp.rows if r[2] == "max_q" and r[1] == "q"]
    assert row[5] is not None and row[5] >= row[4] - 1e-9


def test_cli_lists_and_rejects_names(capsys: pytest.CaptureFixture) -> None:
    """``reproduce`` alone lists the studies; an unknown name exits 2 with one line."""
    assert main(["study", "reproduce"]) == 0
    assert "dep-coord" in capsys.readouterr().out
    assert main(["study", "reproduce", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown experiment 'nope'" in err


def test_timing_runs_tiny(capsys: pytest.CaptureFixture) -> None:
    """``reproduce timing`` with one run, one repeat and two sizes per table prints exponents."""
    assert main(["study", "reproduce", "timing", "--runs", "1", "--repeats", "1",
                 "--nodes", "20,40", "--intervals", "300,600"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "exponent vs nodes" in out and "exponent vs slots" in out
    assert "ms vs nodes" in out and "2980.90" not in out  # other sizes: no paper column shown
    assert "near cubic" in out and "placement (2018)" in out


def test_timing_options_are_timing_only(capsys: pytest.CaptureFixture) -> None:
    """--repeats on another experiment, or a bad size list, exits 2 with one line."""
    assert main(["study", "reproduce", "maxq", "--repeats", "2"]) == 2
    assert "applies to 'timing' only" in capsys.readouterr().err
    assert main(["study", "reproduce", "timing", "--nodes", "10,x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--nodes must be comma-separated integers" in err


def test_timing_slope_and_warm_up() -> None:
    """The fitted exponent of y = x^2 is 2; ``timed`` calls once untimed, then ``repeats`` times."""
    from validation.study.reproduce.timing import slope, timed

    assert slope([1, 2, 4, 8], [1, 4, 16, 64]) == pytest.approx(2.0)
    calls: list[int] = []
    ms, got = timed(lambda: calls.append(1) or len(calls), 3)
    assert len(calls) == 4 and got == 4 and ms >= 0


def test_dep_coord_multiple_best_is_csa_on_the_job_slots() -> None:
    """MultipleBest's distances in dep-coord are those of ``search(..., "csa")`` with the job's
    criterion set to dep (near) and coord (far); its windows record the instance's own slots."""
    import dataclasses
    import statistics

    from instances import generate
    from planner import search
    from validation import check_window
    from validation.study.engine.seeds import instance_seed
    from validation.study.reproduce import dep_coord, dep_coord_readings

    got = dep_coord.measure(0, 2, dep_coord.USED_LAYOUT)
    ref = reference("dep-coord")
    near, far = [], []
    for r in range(2):
        inst = generate(ref["family"], instance_seed(0, r), **ref["params"])
        inst = dep_coord_readings.layout_instance(inst, dep_coord.USED_LAYOUT, instance_seed(0, r))
        job = inst.jobs[0]
        wn = search(inst, dataclasses.replace(job, criterion="dep"), "csa")
        wf = search(inst, dataclasses.replace(job, criterion="coord"), "csa")
        assert check_window(inst, job, wn) == [] and check_window(inst, job, wf) == []
        near.append(wn.near_distance)
        far.append(wf.far_distance)
    assert got["near"]["multiple_best"] == pytest.approx(statistics.fmean(near))
    assert got["far"]["multiple_best"] == pytest.approx(statistics.fmean(far))


def test_dep_coord_wide_layout_keeps_load_and_window_inside_the_interval() -> None:
    """``wide-L``: the horizon grows by L on both sides, each node keeps its load share (up to
    the rounding of one node's total), the job's release and deadline are the interval, and
    every algorithm's window is valid, lies in [0, 1200] and is measured to the slot's own
    (possibly outside) edges."""
    from instances import generate
    from planner import search
    from validation import check_window
    from validation.study.engine.seeds import instance_seed
    from validation.study.reproduce import dep_coord, dep_coord_readings

    ref = reference("dep-coord")
    inst = generate(ref["family"], instance_seed(0, 0), **ref["params"])
    wide = dep_coord_readings.layout_instance(inst, "wide-300", instance_seed(0, 0))
    assert wide.horizon == (-300, 1500)
    job = wide.jobs[0]
    assert (job.release, job.deadline) == (0, 1200)

    def share(i: Any, n: str) -> float:
        busy = sum(b.end - b.start for b in i.busy if b.node == n)
        return busy / (i.horizon[1] - i.horizon[0])

    for node in inst.nodes:
        assert share(wide, node.id) == pytest.approx(share(inst, node.id), abs=1 / 1800)
    outside = 0
    for name in dep_coord.ALGORITHMS:
        w = search(wide, job, name)
        assert w is not None and check_window(wide, job, w) == []
        assert all(p.start >= 0 and p.end <= 1200 for p in w.placements)
        outside += sum(p.slot_start < 0 or p.slot_end > 1200 for p in w.placements)
    assert outside > 0
