"""The dominance reduction behind the CP-SAT model (models.window.reduce)."""

from __future__ import annotations

import dataclasses

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
    assert red.value >= norm - 1e-9  # the incumbent is no better than the optimum
    assert red.bound.min() <= norm + 1e-9  # some kept candidate can reach the optimum
