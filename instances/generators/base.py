"""The :class:`Family` record shared by every instance generator."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from instances.limits import PARAM_COUNT_MAX, PARAM_INT_MAX, PARAM_REAL_MAX, num

Builder = Callable[..., Any]
"""``build(rng, name, **params)`` returns what the family produces; every random choice draws
from ``rng``."""

COUNTS = frozenset({"nodes", "jobs", "slots", "machines", "cpus", "procs"})
"""A parameter whose name has one of these words (``jobs``, ``job_nodes_max``) counts things:
at most ``PARAM_COUNT_MAX`` (10^6); other integers at most ±10^12, reals ±10^15."""

PRODUCTS = ("instance", "workload")
"""What a family writes: a ``planner.instance/1`` Instance or a ``planner.workload/1`` Workload."""


@dataclass(frozen=True)
class Family:
    """A named instance generator reproducing one experiment of the seeds.

    Parameters
    ----------
    name
        Registry name (``planner generate NAME``).
    source
        One line: the seed file and section the family reproduces.
    defaults
        Overridable parameters and their default values; a default of
        ``None`` means "optional, any JSON value".
    build
        ``build(rng, name, **params) -> Instance`` (or ``-> Workload``) with
        ``rng`` a numpy Generator seeded by the caller and ``name`` the
        instance name.
    produces
        ``"instance"`` (the slot model) or ``"workload"`` (a cluster job
        flow, :class:`~instances.workload.Workload`).
    """

    name: str
    source: str
    defaults: dict[str, Any] = field(default_factory=dict)
    build: Builder | None = None
    produces: str = "instance"

    def check_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Return the defaults overridden by ``params``; ValueError names a bad parameter."""
        merged = dict(self.defaults)
        for key, value in params.items():
            if key not in self.defaults:
                from instances.errors import did_you_mean

                known = ", ".join(self.defaults) or "none"
                hint = did_you_mean(key, self.defaults)
                raise ValueError(
                    f"family '{self.name}' has no parameter '{key}'{hint} (parameters: {known})"
                )
            merged[key] = _coerce(self.name, key, self.defaults[key], value)
        return merged

    def generate(self, seed: int, **params: Any) -> Any:
        """Build the instance (or workload) for ``seed`` and ``params`` (deterministic)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        merged = self.check_params(params)
        if self.build is None:
            raise ValueError(f"family '{self.name}' has no builder")
        name = instance_name(self.name, int(seed), merged, self.defaults)
        return self.build(np.random.default_rng(int(seed)), name, **merged)


def _coerce(family: str, key: str, default: Any, value: Any) -> Any:
    """Check ``value`` against the type of ``default`` (ints may stand for floats)."""
    where = f"family '{family}': parameter '{key}'"
    if default is None:
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{where} must be true or false, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{where} must be an integer, got {_short(value)}")
        top = PARAM_COUNT_MAX if COUNTS & set(key.split("_")) else PARAM_INT_MAX
        if not -top <= value <= top:
            raise ValueError(f"{where} must be an integer within ±{num(top)}, got {_short(value)}")
        return int(value)
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
            raise ValueError(f"{where} must be a number, got {value!r}")
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if not (math.isfinite(number) and abs(number) <= PARAM_REAL_MAX):
            rule = f"must be a finite number within ±{num(PARAM_REAL_MAX)}"
            raise ValueError(f"{where} {rule}, got {_short(value)}")
        return number
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ValueError(f"{where} must be a string, got {value!r}")
        return value
    return value


def _short(value: Any) -> str:
    """Return ``repr(value)``, cut to 40 characters (a 10^30-digit number stays one short line)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**40 else "a huge integer"
    return text if len(text) <= 40 else text[:40] + "..."


def param_error(family: str, key: str, rule: str) -> ValueError:
    """Return the one-line ValueError for a parameter value outside its range."""
    return ValueError(f"family '{family}': parameter '{key}' {rule}")


def instance_name(family: str, seed: int, params: dict[str, Any], defaults: dict[str, Any]) -> str:
    """Return ``"family seed=N k=v ..."`` listing the parameters that differ from the defaults."""
    extra = " ".join(f"{k}={params[k]}" for k in sorted(params) if params[k] != defaults.get(k))
    return f"{family} seed={seed}" + (f" {extra}" if extra else "")


def check(family: str, key: str, ok: bool, rule: str) -> None:
    """Raise the one-line :func:`param_error` for ``key`` unless ``ok``."""
    if not ok:
        raise param_error(family, key, rule)


def check_range(family: str, low: str, high: str, params: dict[str, Any], minimum: float) -> None:
    """Check ``minimum <= params[low] <= params[high]`` (a parameter pair such as nodes_min/max)."""
    check(family, low, params[low] >= minimum, f"must be >= {minimum}")
    check(family, high, params[high] >= params[low], f"must be >= {low}")


def parse_param(text: str, default: Any) -> Any:
    """Return a family parameter given as ``text`` on a command line.

    A parameter whose default is a string takes the text itself (``--trace 2024`` is a
    file name, not a number); any other text is read as a JSON literal when it is one,
    else kept as the string.

    Raises
    ------
    ValueError
        The text is a JSON list or object: a parameter is a number or a string.
    """
    import json

    if isinstance(default, str) and not text.startswith('"'):
        return text
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, (list, dict)):
        raise ValueError("must be a number or a string")
    return value
