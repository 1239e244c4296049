"""The registry of cluster scheduling policies, shared by ``planner simulate`` and the tests.

Each policy is one module with one :class:`~planner.cluster.policies.base.Policy`
subclass (Klusáček & Rudová 2008; Mu'alem & Feitelson 2001).
"""

from __future__ import annotations

from planner.cluster.policies.base import Policy
from planner.cluster.policies.conservative import Conservative
from planner.cluster.policies.easy import Easy
from planner.cluster.policies.fcfs import Fcfs

POLICIES: dict[str, type[Policy]] = {p.name: p for p in (Fcfs, Easy, Conservative)}
"""Policy name → class, in the order the CLI lists them."""

__all__ = ["POLICIES", "Conservative", "Easy", "Fcfs", "Policy"]
