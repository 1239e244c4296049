"""Shared fixtures: a small hand-checkable instance.

``tiny`` (rough geometry, horizon [0, 50]) — every test that uses it works
its answers out by hand from this table::

    node  p  price  q  attributes            slots
    a     1  1      1                        [0, 20)  [24, 50)
    b     2  2      3                        [4, 14)  [20, 50)
    c     2  1      2  os=linux              [6, 30)
    d     4  3      5  os=linux, ram=16      [10, 16)

    job  n  V  budget  criterion   other
    j1   2  8  20      min_start
    j2   1  8  -       min_cost    requires os=linux

For V = 8 the rough durations are a 8, b 4, c 4, d 2 and the costs a 8,
b 8, c 4, d 6. The slot starts (the AEP space of SPEC §4) are 0, 4, 6, 10,
20, 24.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import settings

from instances import Instance, Job, Node, Slot

# Hypothesis' default 200 ms deadline per example is a wall-clock test: off for the suite.
settings.register_profile("planner", deadline=None)
settings.load_profile("planner")


def tiny_instance(geometry: str = "rough") -> Instance:
    """Return the hand-checkable instance of the module docstring."""
    nodes = (
        Node("a", 1.0, price=1.0, q=1.0),
        Node("b", 2.0, price=2.0, q=3.0),
        Node("c", 2.0, price=1.0, q=2.0, attributes={"os": "linux"}),
        Node("d", 4.0, price=3.0, q=5.0, attributes={"os": "linux", "ram": 16}),
    )
    slots = (
        Slot("a", 0, 20),
        Slot("b", 4, 14),
        Slot("c", 6, 30),
        Slot("d", 10, 16),
        Slot("a", 24, 50),
        Slot("b", 20, 50),
    )
    jobs = (
        Job("j1", nodes=2, volume=8.0, budget=20),
        Job("j2", nodes=1, volume=8.0, criterion="min_cost", requirements={"os": "linux"}),
    )
    return Instance(
        nodes=nodes, slots=slots, jobs=jobs, name="tiny", horizon=(0, 50), geometry=geometry
    )


def with_job(instance: Instance, job: Job) -> Instance:
    """Return ``instance`` with its jobs replaced by the single ``job``."""
    return dataclasses.replace(instance, jobs=(job,))


@pytest.fixture
def tiny() -> Instance:
    """The rough-geometry instance of the module docstring."""
    return tiny_instance()


@pytest.fixture
def tiny_square() -> Instance:
    """The same instance in square geometry (SPEC §3)."""
    return tiny_instance("square")


@pytest.fixture(autouse=True)
def _progress_from_the_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``PLANNER_PROGRESS`` of the developer's shell must not reach the tests (or their
    subprocesses); a test that wants progress sets it itself."""
    monkeypatch.delenv("PLANNER_PROGRESS", raising=False)
