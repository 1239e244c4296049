"""Execution replay with real run times below the reserved ones (seed 003 §7.2)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from instances import generate
from models.combination import VoPolicy
from planner.vo import CSS, Backfill, schedule_cycle
from planner.vo.replay import LOW, replay, task_factors

SMALL = {"jobs": 8, "nodes": 12}


def _cycle(policy, seed=5):
    inst = generate("css2015", seed, **SMALL)
    return inst, schedule_cycle(policy, VoPolicy(7), inst).reservations


def _busy_intervals(rows, factors):
    """(node, start, end) each task really occupied: start to the next quantum after its run."""
    out = []
    for r in rows:
        f = factors[r.job]
        for i, p in enumerate(r.window.placements):
            out.append((p.node, p.start, p.start + math.ceil(f[i] * p.duration)))
    return out


def test_factors_are_seeded_and_in_range() -> None:
    """Factors lie in [0.2, 1]; the same seed draws the same table, another seed another."""
    inst = generate("css2015", 1, **SMALL)
    a, b, c = task_factors(inst, 7), task_factors(inst, 7), task_factors(inst, 8)
    assert all(np.array_equal(a[j], b[j]) for j in a)
    assert any(not np.array_equal(a[j], c[j]) for j in a)
    assert all(((v >= LOW) & (v <= 1)).all() for v in a.values())


def test_fixed_schedule_keeps_starts_and_shrinks_time() -> None:
    """CSS replay: start unchanged, real time = Σ factor × task time, in [0.2, 1] × reserved."""
    inst, res = _cycle(CSS())
    f = task_factors(inst, 3)
    rows = replay(inst, res, f)
    assert len(rows) == len(res) > 0
    for r in rows:
        assert r.real_start == r.scheduled_start and r.window.start == r.scheduled_start
        want = sum(f[r.job][i] * p.duration for i, p in enumerate(r.window.placements))
        assert r.real_time == pytest.approx(want)
        assert LOW * r.scheduled_time <= r.real_time <= r.scheduled_time


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_replanning_backfilling_is_feasible_and_never_later(seed) -> None:
    """Re-planned backfilling: no job starts later; real task times never overlap on a node."""
    inst, res = _cycle(Backfill(), seed)
    f = task_factors(inst, seed)
    rows = replay(inst, res, f, reuse=True)
    assert {r.job for r in rows} == {w.job for w in res}
    assert all(r.real_start <= r.scheduled_start for r in rows)
    busy = sorted(_busy_intervals(rows, f))
    for (n1, _, e1), (n2, s2, _) in itertools.pairwise(busy):
        assert n1 != n2 or e1 <= s2
    for node, s, e in busy:  # inside the cycle's free time (local load untouched)
        assert any(sl.node == node and sl.start <= s and e <= sl.end for sl in inst.slots)


def test_replanning_moves_some_job_earlier() -> None:
    """Released time is used: over a few cycles some backfilled job starts earlier than reserved."""
    moved = 0
    for seed in range(5, 9):
        inst, res = _cycle(Backfill(), seed)
        rows = replay(inst, res, task_factors(inst, seed), reuse=True)
        moved += sum(r.real_start < r.scheduled_start for r in rows)
    assert moved > 0


def test_full_run_times_change_nothing() -> None:
    """With every factor 1 nothing is released: the re-planned run equals the schedule."""
    inst, res = _cycle(Backfill())
    ones = {j.id: np.ones(j.nodes) for j in inst.jobs}
    rows = replay(inst, res, ones, reuse=True)
    assert [(r.job, r.window) for r in rows] == [(w.job, w) for w in res]


def test_same_seed_same_replay() -> None:
    """Determinism: the same cycle and factor seed give identical rows."""
    inst, res = _cycle(Backfill())
    a = replay(inst, res, task_factors(inst, 2), reuse=True)
    b = replay(inst, res, task_factors(inst, 2), reuse=True)
    assert a == b
