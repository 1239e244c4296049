"""Backfilling on the slot model and BSF as VO flow policies (seed 003 §2.2, §4, §7.1).

Conservative backfilling never delays a reserved job and EASY-like never
delays the head: both checked by the independent brute-force checker
``validation.backfill_check``; every cycle also passes ``validation.vo_check``.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from instances import Busy, Instance, Job, Node
from models.combination import VoPolicy
from planner.cli import main
from planner.heuristics.slotlist import SlotList
from planner.vo import BSF, Backfill, BatchSlicer, EasyBackfill, family_environment, run_flow
from planner.vo.cycle import CycleOutcome, Phase
from planner.vo.policies.backfill import earliest_window
from validation.backfill_check import check_backfill
from validation.vo_check import check_cycle

TINY = {"nodes": 6, "jobs": 6, "job_nodes_max": 2, "load_min": 0.3, "load_max": 0.6}
"""Cycles small enough for the brute force: 6 nodes, 6 jobs of 1-2 nodes, a loaded domain."""
SMALL = {"jobs": 8, "nodes": 12}


def _flow(policy, params=SMALL, cycles=4, seed=3):
    env = family_environment("css2015", seed, **params)
    return run_flow(policy, VoPolicy(7), env, cycles, seed=seed, max_postponements=1, keep=True)


@pytest.mark.parametrize(
    "policy", [Backfill(), EasyBackfill(), BSF(0.5), BSF(0.4, k=2, variant="easy")]
)
def test_every_cycle_passes_the_checker(policy) -> None:
    """Every phase searched the free slots left so far and reserved windows found there."""
    flow = _flow(policy)
    assert sum(c.placed for c in flow.cycles) > 0
    for inst, outcome in flow.kept:
        assert check_cycle(inst, outcome.phases) == []


@pytest.mark.parametrize(
    ("policy", "variant"), [(Backfill(), "conservative"), (EasyBackfill(), "easy")]
)
def test_backfilling_never_delays_reserved_jobs(policy, variant) -> None:
    """Conservative: every job at its earliest start after the earlier jobs; EASY: every head."""
    flow = _flow(policy, TINY, cycles=8)
    jumped = 0
    for inst, outcome in flow.kept:
        assert check_backfill(inst, outcome.phases, variant) == []
        starts = {w.job: w.start for w in outcome.reservations}
        order = [j.id for j in inst.jobs if j.id in starts]
        jumped += sum(starts[b] < starts[a] for a, b in itertools.pairwise(order))
    assert jumped > 0  # some job started before an earlier one: backfilling happened


def test_easy_differs_from_conservative() -> None:
    """EASY gives no reservation to waiting jobs, so its schedules differ from conservative ones."""
    cons, easy = _flow(Backfill(), cycles=6), _flow(EasyBackfill(), cycles=6)
    assert [c.start for c in cons.cycles] != [c.start for c in easy.cycles]


def test_backfill_checker_catches_a_delayed_job() -> None:
    """Moving one conservative reservation later than its earliest window is a violation."""
    flow = _flow(Backfill(), TINY, cycles=8)
    inst, outcome = next((i, o) for i, o in flow.kept if o.reservations)
    k = next(k for k, ph in enumerate(outcome.phases) if ph.reservations)
    ph = outcome.phases[k]
    free = SlotList(ph.slots, inst.node_index)
    late = earliest_window(inst, inst.job(ph.jobs[0]), free, ph.reservations[0].start + 1)
    phases = list(outcome.phases)
    phases[k] = Phase(ph.jobs, ph.slots, (late,) if late else (), (late,) if late else ())
    assert any(
        v.startswith("delay:") for v in check_backfill(inst, phases[: k + 1], "conservative")
    )
    swapped = [outcome.phases[1], outcome.phases[0]]  # the second job scheduled first
    assert any(v.startswith("order:") for v in check_backfill(inst, swapped, "conservative"))


@pytest.mark.parametrize(("share", "same"), [(1.0, BatchSlicer(2)), (0.0, Backfill())])
def test_bsf_extremes(share, same) -> None:
    """BSF with share 1 is the batch-slicer (same k); with share 0 it is backfilling."""
    bsf = _flow(BSF(share, k=2))
    ref = _flow(same)
    assert bsf.jobs == ref.jobs
    assert [c.t_cpu for c in bsf.cycles] == [c.t_cpu for c in ref.cycles]


def test_bsf_splits_by_batch_order() -> None:
    """n_CSS = round(share * n), half up; the first n_CSS jobs go to the slicer."""
    assert [BSF(s).split(20) for s in (0, 0.25, 0.5, 0.525, 1)] == [0, 5, 10, 11, 20]
    flow = _flow(BSF(0.5))
    inst, outcome = flow.kept[0]
    assert isinstance(outcome, CycleOutcome) and outcome.policy == "bsf"
    assert outcome.phases[0].jobs == tuple(j.id for j in inst.jobs[:4])


@pytest.mark.parametrize("policy", [Backfill(), EasyBackfill(), BSF(0.3, variant="easy")])
def test_same_seed_same_records(policy) -> None:
    """Determinism: the same seed gives identical per-cycle and per-job records."""
    a, b = _flow(policy, cycles=3), _flow(policy, cycles=3)
    assert a.cycles == b.cycles and a.jobs == b.jobs


@pytest.mark.parametrize(
    "options",
    [
        {"share": 1.5},  # share above 1
        {"share": -0.1},  # share below 0
        {"share": True},  # a bool is not a share
        {"variant": "bogus"},  # unknown backfilling variant
        {"k": 0},  # slicer needs k >= 1
    ],
)
def test_bsf_rejects_bad_options(options) -> None:
    """Bad BSF options raise ValueError naming the rule."""
    with pytest.raises(ValueError):
        BSF(**options)


def test_cli_runs_backfilling_policies(capsys: pytest.CaptureFixture[str]) -> None:
    """``planner flow`` runs backfill, easy and bsf; --share belongs to bsf only."""
    small = ["--param", "jobs=6", "--param", "nodes=10", "--cycles", "2"]
    for argv in (
        ["--policy", "backfill"],
        ["--policy", "easy"],
        ["--policy", "bsf", "--share", "0.5"],
    ):
        assert main(["flow", "css2015", *argv, *small]) == 0
        assert f"policy={argv[1]}" in capsys.readouterr().out
    assert main(["flow", "css2015", "--policy", "easy", "--share", "0.5", *small]) == 2
    assert "--share" in capsys.readouterr().err
    assert dataclasses.is_dataclass(BSF())


def _three_nodes():
    """a free all along; b busy [0, 20); c busy [0, 100); h needs all three, p two, r one."""
    nodes = tuple(Node(n, 1.0, price=1.0) for n in "abc")
    jobs = (Job("h", 3, 10.0, budget=10**4), Job("p", 2, 60.0, budget=10**4),
            Job("r", 1, 30.0, budget=10**4))  # fmt: skip
    busy = (Busy("b", 0, 20), Busy("c", 0, 100))
    return Instance(nodes=nodes, jobs=jobs, horizon=(0, 200), busy=busy)


def test_hand_checked_conservative_and_easy() -> None:
    """Conservative: h 100, p 20 (a, b), r 110 (p's reservation blocks a). EASY: r starts at 0
    on a (only h is reserved), which pushes p to 30; the head h still starts at 100."""
    inst = _three_nodes()
    cons = Backfill().schedule(inst, inst.jobs, SlotList(inst.slots, inst.node_index), None)
    easy = EasyBackfill().schedule(inst, inst.jobs, SlotList(inst.slots, inst.node_index), None)
    assert {w.job: w.start for w in cons.reservations} == {"h": 100, "p": 20, "r": 110}
    assert {w.job: w.start for w in easy.reservations} == {"h": 100, "p": 30, "r": 0}
    assert check_backfill(inst, cons.phases, "conservative") == []
    assert check_backfill(inst, easy.phases, "easy") == []
    assert any(v.startswith("order:") for v in check_backfill(inst, easy.phases, "conservative"))
    assert check_cycle(inst, easy.phases) == [] and check_cycle(inst, cons.phases) == []
