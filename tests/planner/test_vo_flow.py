"""The VO job-flow layer (seed 003 §2.3, §3, §6; seed 000 Fig. 2; SPEC §11).

Every cycle is checked by the independent checker ``validation.vo_check``;
the flow's bookkeeping (postponement, dropping, determinism) is checked on
the per-job records.
"""

from __future__ import annotations

import dataclasses

import pytest

from instances import Busy, Instance, Job, Node
from models.combination import VoPolicy
from planner.heuristics.slotlist import SlotList
from planner.vo import (
    CSS,
    BatchSlicer,
    criterion_algorithm,
    family_environment,
    make_policy,
    node_usage,
    run_flow,
    schedule_cycle,
)
from planner.vo.policies.slicer import slices
from validation.vo_check import check_cycle

SMALL = {"jobs": 8, "nodes": 12}
"""A small css2015 cycle: 8 jobs on 12 nodes (fast, still postpones some jobs)."""


def _flow(policy, cycles=4, seed=3, max_postponements=1, **params):
    env = family_environment("css2015", seed, **{**SMALL, **params})
    return run_flow(policy, VoPolicy(7), env, cycles, seed=seed,
                    max_postponements=max_postponements, keep=True)  # fmt: skip


@pytest.mark.parametrize("policy", [CSS(), CSS("criterion"), BatchSlicer(3), BatchSlicer(8)])
def test_every_cycle_passes_the_checker(policy) -> None:
    """Each phase's alternatives pass check_alternatives on its slot list; reservations sound."""
    flow = _flow(policy)
    assert len(flow.kept) == 4
    for inst, outcome in flow.kept:
        assert check_cycle(inst, outcome.phases) == []
        assert len(outcome.phases) == (policy.k if isinstance(policy, BatchSlicer) else 1)


def test_no_job_is_placed_twice_and_postponed_jobs_reappear() -> None:
    """A placed job never reappears; a postponed one is in the next cycle's batch, then dropped."""
    flow = _flow(BatchSlicer(2), cycles=5, max_postponements=1)
    placed = [j.job for j in flow.jobs if j.status == "placed"]
    assert len(placed) == len(set(placed))
    by_cycle: dict[int, set[str]] = {}
    for j in flow.jobs:
        by_cycle.setdefault(j.cycle, set()).add(j.job)
    postponed = [j for j in flow.jobs if j.status == "postponed"]
    assert postponed, "the fixture should postpone some job"
    for j in postponed:
        if j.cycle + 1 < 5:
            nxt = [r for r in flow.jobs if r.cycle == j.cycle + 1 and r.job == j.job]
            assert len(nxt) == 1 and nxt[0].postponements == j.postponements + 1
            assert nxt[0].arrival == j.arrival
    assert all(j.postponements <= 1 for j in flow.jobs)
    assert all(j.postponements == 1 for j in flow.jobs if j.status == "dropped")
    for c in flow.cycles:
        assert c.batch == c.new + c.carried == len(by_cycle[c.cycle])
        assert c.placed + c.postponed == c.batch


def test_carried_jobs_lead_the_batch() -> None:
    """The batch is the postponed jobs (oldest first), then the cycle's new jobs."""
    flow = _flow(CSS(), cycles=3, max_postponements=2)
    for inst, _ in flow.kept[1:]:
        arrivals = [int(j.id.split("-")[0][1:]) for j in inst.jobs]
        assert arrivals == sorted(arrivals)


def test_same_seed_gives_identical_records() -> None:
    """Determinism: two runs with one seed give equal records; another seed differs."""
    a, b = _flow(BatchSlicer(2)), _flow(BatchSlicer(2))
    assert a.cycles == b.cycles and a.jobs == b.jobs
    assert _flow(BatchSlicer(2), seed=4).jobs != a.jobs


def test_slicer_with_one_subbatch_is_css_with_criteria() -> None:
    """Seed 003 §3: a single sub-batch gives the same schedule as CSS (per-job criteria)."""
    one, css = _flow(BatchSlicer(1)), _flow(CSS("criterion"))
    assert [o.reservations for _, o in one.kept] == [o.reservations for _, o in css.kept]
    assert one.jobs == css.jobs


@pytest.mark.parametrize(
    ("n", "k", "sizes"),
    [
        (20, 5, [4, 4, 4, 4, 4]),  # the paper's best slicing: five sub-batches of four
        (7, 3, [3, 2, 2]),  # uneven: larger sub-batches first
        (3, 10, [1, 1, 1]),  # more sub-batches than jobs: one job each
        (5, 1, [5]),  # k = 1: the whole batch (CSS)
    ],
)
def test_slices_are_contiguous_in_batch_order(n: int, k: int, sizes: list[int]) -> None:
    """Sub-batches are contiguous runs of the batch, sizes as equal as possible."""
    jobs = [Job(f"j{i}", 1, 1.0) for i in range(n)]
    parts = slices(jobs, k)
    assert [len(p) for p in parts] == sizes
    assert [j for p in parts for j in p] == jobs


def test_criterion_algorithms() -> None:
    """Each Table 1 criterion is served by its AEP algorithm; min_start by AMP."""
    assert [criterion_algorithm(c) for c in ("min_start", "min_runtime", "min_finish",
            "min_cost")] == ["amp", "min_runtime", "min_finish", "min_cost"]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("slicer", {"k": 0}),  # k below 1
        ("slicer", {"k": True}),  # a bool is not a sub-batch count
        ("slicer", {"search": "bogus"}),  # unknown search
        ("css", {"search": "bogus"}),  # unknown search
        ("bogus", {}),  # unknown policy
    ],
)
def test_bad_policy_options(name: str, options: dict) -> None:
    """Bad policy options raise naming the rule."""
    with pytest.raises((ValueError, KeyError)):
        make_policy(name, **options)


def test_negative_postponement_limit_is_rejected() -> None:
    """max_postponements must be >= 0."""
    with pytest.raises(ValueError, match="max_postponements"):
        run_flow(CSS(), VoPolicy(), family_environment("css2015"), 1, max_postponements=-1)


def _two_nodes() -> Instance:
    nodes = (Node("a", 1.0, price=2.0), Node("b", 2.0, price=3.0))
    jobs = (Job("x", 2, 10.0, budget=1000), Job("y", 1, 20.0, budget=1000))
    return Instance(nodes=nodes, jobs=jobs, horizon=(0, 100), busy=(Busy("a", 0, 50),))


def test_hand_checked_cycle_and_node_usage() -> None:
    """Two jobs on two nodes: x needs both (a is free from 50), y takes b first at 0.

    CSS with AMP: round 1 gives y [0, 10) on b (cheapest alive slot at 0) and
    x at 50 on a [50, 60) and b [50, 55); problem 7 keeps one window each
    (the smallest proc_time within b*). Node a: L = 10, U = 0.1, P = 20;
    node b: the reserved tasks on b, each priced 3 per quantum.
    """
    inst = _two_nodes()
    outcome = schedule_cycle(CSS(), VoPolicy(7), inst)
    assert check_cycle(inst, outcome.phases) == []
    chosen = {w.job: w for w in outcome.reservations}
    assert set(chosen) == {"x", "y"}
    assert chosen["y"].start == 0 and chosen["y"].nodes == ("b",)
    assert chosen["x"].start == 50
    usage = {u.node: u for u in node_usage(inst, outcome.reservations)}
    assert (usage["a"].load, usage["a"].utilisation, usage["a"].profit) == (10, 0.1, 20)
    b_load = sum(p.duration for w in outcome.reservations for p in w.placements if p.node == "b")
    assert usage["b"].load == b_load and usage["b"].profit == 3 * b_load


def test_checker_catches_tampered_cycles() -> None:
    """The cycle checker reports a reservation it did not find, a repeat, and a wrong slot list."""
    inst = _two_nodes()
    outcome = schedule_cycle(BatchSlicer(2), VoPolicy(7), inst)
    first, second = outcome.phases
    alien = dataclasses.replace(first, reservations=second.reservations)
    assert any(v.startswith("reservation") for v in check_cycle(inst, [alien, second]))
    stale = dataclasses.replace(second, slots=first.slots)
    assert any(v.startswith("slots") for v in check_cycle(inst, [first, stale]))
    assert any(v.startswith("job") for v in check_cycle(inst, [first, first]))


def test_policy_leaves_the_free_list_of_the_slots_not_reserved() -> None:
    """After schedule, the free list is the cycle's slots minus every reserved task."""
    inst = _two_nodes()
    free = SlotList(inst.slots, inst.node_index)
    outcome = BatchSlicer(2).schedule(inst, inst.jobs, free, VoPolicy(7))
    left = sum(s.length for s in free.slots())
    assert left == sum(s.length for s in inst.slots) - sum(
        w.proc_time for w in outcome.reservations
    )
