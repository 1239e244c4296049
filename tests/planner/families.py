"""Reduced-size generated instances shared by the planner tests (fast on 2 cores)."""

from __future__ import annotations

import dataclasses
from typing import Any

from instances import Instance, generate

SMALL: dict[str, dict[str, Any]] = {
    "tiny": {},
    "toporkov2011": dict(slots_min=20, slots_max=30, jobs_min=2, jobs_max=3, job_nodes_max=4),
    "toporkov2012": dict(nodes=10, interval=300, job_nodes=3),
    "css2015": dict(nodes=8, jobs=3, job_nodes_max=3),
    "toporkov2018": dict(nodes=12, interval=600, job_nodes=3),
    "swf": dict(length=7200),
    "edge": {},
}
"""Family → parameters shrinking it to a few dozen slots (the families' own defaults otherwise)."""


def small(family: str, seed: int, geometry: str | None = None) -> Instance:
    """Return the reduced instance of ``family`` for ``seed``, optionally in another geometry."""
    inst = generate(family, seed, **SMALL[family])
    return inst if geometry is None else dataclasses.replace(inst, geometry=geometry)
