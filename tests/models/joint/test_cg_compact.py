"""Tests of models.joint.cg.compact: the ``compact`` close of the cg solver (the compact CP-SAT
model restricted by reduced-cost fixing) proves the brute-force optimum."""

from __future__ import annotations

import pytest

from models.joint.cg import solve as cg_solve
from tests.joint_batch import closed_gap_cases, no_search


def test_the_compact_close_proves_the_brute_force_optimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """4-job batches whose gap the compact model closes (no search, no integer master after
    the root): every result is the brute-force optimum, proven, its windows pass the joint
    checker, and on some batch it is the compact model that proves it."""
    monkeypatch.setattr(cg_solve, "CLOSE", "compact")
    no_search(monkeypatch)
    assert closed_gap_cases(range(20)) & {"compact", "fixing"}
