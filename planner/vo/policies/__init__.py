"""VO flow policies as plug-ins: each module defines one policy class; :data:`POLICIES` names them.

A policy turns (cycle instance, batch, free slots, VO policy) into a
:class:`planner.vo.cycle.CycleOutcome`. Adding a policy is one module plus
one line here.
"""

from __future__ import annotations

from typing import Any

from planner.vo.policies.backfill import Backfill
from planner.vo.policies.base import Policy
from planner.vo.policies.bsf import BSF
from planner.vo.policies.css import CSS
from planner.vo.policies.easy import EasyBackfill
from planner.vo.policies.slicer import BatchSlicer

POLICIES: dict[str, type[Any]] = {"css": CSS, "slicer": BatchSlicer}
POLICIES.update(backfill=Backfill, easy=EasyBackfill, bsf=BSF)
"""Policy name → class; ``make_policy(name, **options)`` builds one."""


def make_policy(name: str, **options: Any) -> Policy:
    """Return policy ``name`` built with ``options`` (KeyError naming the choices)."""
    if name not in POLICIES:
        raise KeyError(f"unknown policy '{name}' (choose from: {', '.join(POLICIES)})")
    return POLICIES[name](**options)


__all__ = [
    "BSF",
    "CSS",
    "POLICIES",
    "Backfill",
    "BatchSlicer",
    "EasyBackfill",
    "Policy",
    "make_policy",
]
