"""The registries of families: name → :class:`Family` (CLI and tests share them).

:data:`FAMILIES` produce slot-model instances, :data:`WORKLOAD_FAMILIES`
cluster job flows (``Family.produces == "workload"``); names are unique
across both (``planner generate`` looks in both).
"""

from __future__ import annotations

from typing import Any

from instances.generators import (
    css2015,
    edge,
    klusacek2008,
    swf,
    swf_workload,
    tiny,
    toporkov2011,
    toporkov2012,
    toporkov2018,
)
from instances.generators.base import Family
from instances.instance import Instance
from instances.workload import Workload

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        toporkov2011.FAMILY,
        toporkov2012.FAMILY,
        css2015.FAMILY,
        toporkov2018.FAMILY,
        swf.FAMILY,
        tiny.FAMILY,
        edge.FAMILY,
    )
}


def generate(family: str, seed: int, **params: Any) -> Instance:
    """Return the instance of ``family`` for ``seed`` and ``params`` (deterministic).

    Raises
    ------
    ValueError
        One line naming an unknown family, an unknown parameter or a bad value.
    """
    if family not in FAMILIES:
        from instances.errors import did_you_mean

        hint = did_you_mean(family, FAMILIES)
        raise ValueError(f"unknown family '{family}'{hint} (choose from: {', '.join(FAMILIES)})")
    return FAMILIES[family].generate(seed, **params)


WORKLOAD_FAMILIES: dict[str, Family] = {
    f.name: f for f in (klusacek2008.FAMILY, swf_workload.FAMILY)
}


def generate_workload(family: str, seed: int, **params: Any) -> Workload:
    """Return the workload of ``family`` for ``seed`` and ``params`` (deterministic).

    Raises
    ------
    ValueError
        One line naming an unknown family, an unknown parameter or a bad value.
    """
    if family not in WORKLOAD_FAMILIES:
        known = ", ".join(WORKLOAD_FAMILIES)
        raise ValueError(f"unknown workload family '{family}' (choose from: {known})")
    return WORKLOAD_FAMILIES[family].generate(seed, **params)
