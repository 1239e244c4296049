"""The registry of cluster scheduling policies, shared by ``planner simulate`` and the tests.

Each policy is one module with one :class:`~planner.cluster.policies.base.Policy`
subclass (Klusáček & Rudová 2008; Mu'alem & Feitelson 2001).
"""

from __future__ import annotations

from planner.cluster.policies.base import Policy
from planner.cluster.policies.conservative import Conservative
from planner.cluster.policies.easy import Easy
from planner.cluster.policies.egedf import EgEdf
from planner.cluster.policies.fcfs import Fcfs
from planner.cluster.policies.flex import Flex
from planner.cluster.policies.tabu import Tabu

POLICIES: dict[str, type[Policy]] = {
    p.name: p for p in (Fcfs, Easy, Conservative, Flex, EgEdf, Tabu)
}
"""Policy name → class, in the order the CLI lists them."""

__all__ = ["POLICIES", "Conservative", "Easy", "EgEdf", "Fcfs", "Flex", "Policy", "Tabu"]
