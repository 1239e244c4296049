"""The registry of cluster scheduling policies, shared by ``planner simulate`` and the tests.

Each policy is one module with one :class:`~planner.cluster.policies.base.Policy`
subclass (Klusáček & Rudová 2008; Mu'alem & Feitelson 2001). A policy's module
is imported when its class is first asked for, so a replay loads only its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
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


class Registry(MutableMapping[str, type[Policy]]):
    """Policy name → class; a built-in policy's module is imported when its class is first
    asked for. A class may be added (or replaced) like in a dict."""

    def __init__(self, classes: dict[str, str]) -> None:
        self._entries: dict[str, str | type[Policy]] = dict(classes)

    def __getitem__(self, name: str) -> type[Policy]:
        entry = self._entries[name]
        if isinstance(entry, str):
            module = importlib.import_module(f"planner.cluster.policies.{name}")
            entry = self._entries[name] = getattr(module, entry)
        return entry  # type: ignore[return-value]

    def __setitem__(self, name: str, cls: type[Policy]) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


POLICIES: MutableMapping[str, type[Policy]] = Registry(_CLASSES)
"""Policy name → class, in the order the CLI lists them."""


def __getattr__(name: str) -> type[Policy]:
    for key, cls in _CLASSES.items():
        if cls == name:
            return POLICIES[key]
    raise AttributeError(f"module 'planner.cluster.policies' has no attribute {name!r}")


__all__ = ["POLICIES", "Conservative", "Easy", "EgEdf", "Fcfs", "Flex", "Policy", "Tabu"]
