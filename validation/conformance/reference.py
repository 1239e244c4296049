"""planner's own answers as result lines: what another implementation is compared with.

The lines are those ``planner solve --json`` and ``planner alternatives --json``
print (docs/formats.md), so that planner's answers and a program's go through
the same reader and the same independent checker.
"""

from __future__ import annotations

import json
from typing import Any

from instances import Instance
from planner import find_alternatives, resolve, search
from validation.results import ResultFile, parse_results

MODES: tuple[str, ...] = ("solve", "alternatives")
"""What a program computes: one window per job (``solve``) or the batch's alternatives."""

CAPPED: frozenset[str] = frozenset({"alp"})
"""Algorithms constrained by the per-slot price cap C instead of the budget S (ALP,
Toporkov et al. 2011 §3; docs/algorithms.md)."""


def constraint_of(algorithm: str) -> str:
    """Return ``price_cap`` for ALP, ``budget`` for every other algorithm (the checker's
    ``constraint``)."""
    return "price_cap" if resolve(algorithm).name in CAPPED else "budget"


def expected_lines(
    instance: Instance, algorithm: str, mode: str = "solve", *, seed: int = 0
) -> list[dict[str, Any]]:
    """Return planner's result lines for ``instance``: one per job (``solve``), or one per
    alternative then one per job without any (``alternatives``), as the CLI prints them."""
    name = resolve(algorithm).name
    if mode == "solve":
        out = []
        for job in instance.jobs:
            w = search(instance, job, name, seed=seed)
            out.append({"job": job.id, "algorithm": name,
                        "status": "found" if w is not None else "not_found",
                        "window": w.to_dict() if w is not None else None})  # fmt: skip
        return out
    if mode != "alternatives":
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    alts = find_alternatives(instance, name, seed=seed)
    rank: dict[str, int] = {}
    out = []
    for w in alts.windows:
        rank[w.job] = rank.get(w.job, 0) + 1
        out.append({"job": w.job, "algorithm": name, "alternative": rank[w.job],
                    "status": "found", "window": w.to_dict()})  # fmt: skip
    for job_id, windows in alts.by_job().items():
        if not windows:
            out.append({"job": job_id, "algorithm": name, "alternative": None,
                        "status": "not_found", "window": None})  # fmt: skip
    return out


def dumps_lines(lines: list[dict[str, Any]]) -> str:
    """Return JSON Lines text (one object per line, as the CLI prints)."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def expected(
    instance: Instance, algorithm: str, mode: str = "solve", *, seed: int = 0
) -> tuple[str, ResultFile]:
    """Return planner's lines as text and as a parsed :class:`ResultFile`."""
    text = dumps_lines(expected_lines(instance, algorithm, mode, seed=seed))
    kind = "alternatives" if mode == "alternatives" else "solve"
    if not text:  # an instance without jobs
        return text, ResultFile("planner", kind, ())
    return text, parse_results(text, "planner", kind)
