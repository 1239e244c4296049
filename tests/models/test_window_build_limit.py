"""The time limit bounds model building too (issue 15 item 9).

Before, ``--time-limit`` only reached the solver: a 100,000-node instance spent
44 s building at a 0.001 s limit. Building now checks the deadline between
chunks of work and hands the solver only the time that is left.
"""

from __future__ import annotations

import functools

import pytest

from instances import Instance, Job, Node, Slot
from models import SOLVERS, solve_window


@functools.cache
def _grid(count: int) -> Instance:
    """``count`` nodes with 10 slots each (2500: 25,000 candidate starts × 25,000 slots)."""
    nodes = tuple(Node(f"n{i}", 1.0 + i % 3, price=1.0, q=float(i % 5)) for i in range(count))
    slots = tuple(
        Slot(nd.id, 100 * k + (i % 97), 100 * k + 99)
        for i, nd in enumerate(nodes)
        for k in range(10)
    )
    return Instance(nodes, slots, (Job("j", nodes=5, volume=40.0, budget=10**6),))


class TickClock:
    """A stand-in for ``time`` in ``models.window.space``: each reading is one tick later."""

    def __init__(self) -> None:
        self.ticks = 0

    def perf_counter(self) -> float:
        self.ticks += 1
        return float(self.ticks)


@pytest.mark.parametrize("solver", list(SOLVERS))
def test_time_limit_stops_model_building(solver: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline that has passed stops every solver while it builds: ``unknown``, no
    window, and the reason (before: 3 s to 57 s of building at a 0.001 s limit).

    The building's clock reads "far later" here, so the test does not depend on how
    fast the machine builds.
    """
    from models.window import space

    clock = TickClock()
    clock.ticks = 10**12
    monkeypatch.setattr(space, "time", clock)
    res = solve_window(_grid(2500), "j", "max_q", solver, time_limit=0.2)
    assert (res.status, res.window) == ("unknown", None)
    assert "time limit" in res.info["reason"] and clock.ticks == 10**12 + 1  # the first check


def test_building_checks_the_deadline_every_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The candidates are built in chunks of at most CHUNK cells with a deadline check
    before each, and building stops at the first check after the deadline."""
    from models.window import space

    monkeypatch.setattr(space, "CHUNK", 2**14)
    inst = _grid(200)
    job = inst.jobs[0]
    free = space.WindowSpace(inst, job, space.criterion_of(job, "max_q"))
    checks: list[int] = []
    monkeypatch.setattr(space.WindowSpace, "check_deadline", lambda self: checks.append(1))
    free.candidates(False)
    cells = len(free.starts(0, False)) * free.m
    assert len(checks) >= cells // 2**14 > 10
    monkeypatch.undo()
    monkeypatch.setattr(space, "CHUNK", 2**14)
    clock = TickClock()
    monkeypatch.setattr(space, "time", clock)
    timed = space.WindowSpace(inst, job, space.criterion_of(job, "max_q"), deadline=5.0)
    with pytest.raises(space.BuildTimeLimit):
        timed.candidates(False)
    assert clock.ticks == 6  # one check in __post_init__, four chunks, then the stop
