"""The registry of cluster scheduling policies, shared by ``planner simulate`` and the tests.

Each policy is one module with one :class:`~planner.cluster.policies.base.Policy`
subclass (Klusáček & Rudová 2008; Mu'alem & Feitelson 2001). A policy's module
is imported when its class is first asked for, so a replay loads only its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from planner.cluster.policies.base import Policy

if TYPE_CHECKING:
    from planner.cluster.policies.conservative import Conservative
    from planner.cluster.policies.easy import Easy
    from planner.cluster.policies.egedf import EgEdf
    from planner.cluster.policies.fcfs import Fcfs
    from planner.cluster.policies.flex import Flex
    from planner.cluster.policies.tabu import Tabu

_CLASSES = {"fcfs": "Fcfs", "easy": "Easy", "conservative": "Conservative", "flex": "Flex",
            "egedf": "EgEdf", "tabu": "Tabu"}  # fmt: skip
"""Policy name (its module) → class name, in the order the CLI lists them."""


class Registry(Mapping[str, type[Policy]]):
    """Policy name → class; the class's module is imported on first use."""

    def __getitem__(self, name: str) -> type[Policy]:
        if name not in _CLASSES:
            raise KeyError(name)
        module = importlib.import_module(f"planner.cluster.policies.{name}")
        return getattr(module, _CLASSES[name])  # type: ignore[no-any-return]

    def __contains__(self, name: object) -> bool:
        return name in _CLASSES

    def __iter__(self) -> Iterator[str]:
        return iter(_CLASSES)

    def __len__(self) -> int:
        return len(_CLASSES)


POLICIES: Mapping[str, type[Policy]] = Registry()
"""Policy name → class, in the order the CLI lists them."""


def __getattr__(name: str) -> type[Policy]:
    for key, cls in _CLASSES.items():
        if cls == name:
            return POLICIES[key]
    raise AttributeError(f"module 'planner.cluster.policies' has no attribute {name!r}")


__all__ = ["POLICIES", "Conservative", "Easy", "EgEdf", "Fcfs", "Flex", "Policy", "Tabu"]
