"""The dominance reduction behind the CP-SAT model (models.window.reduce)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from instances import CRITERIA, generate
from models import solve_window
from models.window.reduce import reduce_space
from models.window.space import WindowSpace
from validation import check_window


@pytest.mark.parametrize("geometry", ["rough", "square"])
@pytest.mark.parametrize("criterion", list(CRITERIA))
def test_reduction_keeps_the_optimum(geometry: str, criterion: str) -> None:
    """On a 20-node toporkov2018 instance the reduced and the plain CP-SAT model agree with DP."""
    inst = dataclasses.replace(generate("toporkov2018", 5, nodes=20), geometry=geometry)
    job = inst.jobs[0]
    dp = solve_window(inst, job, criterion, "dp")
    for reduce in (True, False):
        res = solve_window(inst, job, criterion, "cpsat", reduce=reduce)
        assert res.status == dp.status
        if dp.status == "optimal":
            assert res.objective == pytest.approx(dp.objective)
            assert check_window(inst, job, res.window) == []


@pytest.mark.parametrize("criterion", ["max_q", "dep", "coord", "min_proc_time"])
def test_incumbent_is_feasible_and_bounds_are_sound(criterion: str) -> None:
    """The incumbent is feasible and no better than the optimum; a kept bound reaches it."""
    inst = generate("toporkov2018", 2, nodes=20)
    job = inst.jobs[0]
    sp = WindowSpace(inst, job, CRITERIA[criterion])
    red = reduce_space(sp)
    assert red.start is not None and len(red.t) <= red.total
    assert check_window(inst, job, sp.window(red.start, red.chosen.tolist())) == []
    opt = solve_window(inst, job, criterion, "dp").objective
    norm = CRITERIA[criterion].normalised(opt)
    if criterion in ("dep", "coord"):
        norm *= job.nodes
    if criterion == "max_q":  # the space holds q as exact integers in units of 10^-q_exp
        norm *= 10**sp.q_exp
    assert red.value >= norm - 1e-9  # the incumbent is no better than the optimum
    assert red.bound.min() <= norm + 1e-9  # some kept candidate can reach the optimum


@pytest.mark.parametrize("free_start", [False, True])
@pytest.mark.parametrize("geometry", ["rough", "square"])
def test_candidate_bounds_never_exceed_the_candidate_optimum(
    geometry: str, free_start: bool
) -> None:
    """Per candidate (T, level): the DP's optimistic bound and the reduction's (Lagrangian) bound
    are at most the exact subset optimum of that candidate, which the DP's pruning relies on."""
    from models.window.dp import _step, optimistic_bounds

    checked = 0
    for seed in range(12):
        inst = dataclasses.replace(generate("tiny", seed, jobs=3, bounds=0.5), geometry=geometry)
        for job in inst.jobs:
            for criterion in CRITERIA:
                sp = WindowSpace(inst, job, CRITERIA[criterion])
                t, lv, alive = sp.candidates(free_start)
                if not len(t):
                    continue
                loose = optimistic_bounds(sp, t, lv, alive)
                red = reduce_space(sp, free_start=free_start)
                sharp = {
                    (int(a), int(b)): float(c)
                    for a, b, c in zip(red.t, red.level, red.bound, strict=True)
                }
                for k in range(len(t)):
                    got = _step(sp, int(t[k]), int(lv[k]), np.flatnonzero(alive[k]))
                    if got is None:
                        continue
                    checked += 1
                    assert loose[k] <= got[0] + 1e-9, (seed, job.id, criterion, k)
                    key = (int(t[k]), int(lv[k]))
                    assert sharp.get(key, -np.inf) <= got[0] + 1e-9, (seed, job.id, criterion, k)
    assert checked > 100
