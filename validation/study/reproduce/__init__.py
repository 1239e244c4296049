"""Paper reproductions as named studies: ``planner study reproduce NAME`` prints paper vs ours.

The papers' numbers live in ``validation/data/NAME.json``, each with its
source file, section and the sentence it is read from; ``docs/reproductions.md``
has the tables, the open settings and the causes of every difference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from validation.study.reproduce import (
    aep_criteria,
    amp_vs_alp,
    bsf,
    css_criteria,
    dep_coord,
    estimates,
    maxq,
    pricing,
    timing,
)
from validation.study.reproduce import slicer as vo_slicer
from validation.study.reproduce.common import Comparison, citation, reference


@dataclass(frozen=True)
class Reproduction:
    """A named paper experiment."""

    name: str
    source: str
    title: str
    default_runs: int
    run: Callable[..., Comparison]


def _entry(module: object) -> Reproduction:
    ref = reference(module.NAME)  # type: ignore[attr-defined]
    return Reproduction(
        module.NAME,  # type: ignore[attr-defined]
        citation(ref),
        ref["title"],
        module.DEFAULT_RUNS,  # type: ignore[attr-defined]
        module.run,  # type: ignore[attr-defined]
    )


REPRODUCTIONS: dict[str, Reproduction] = {
    r.name: r for r in map(_entry, (amp_vs_alp, aep_criteria, maxq, dep_coord, timing))
}
REPRODUCTIONS.update((r.name, r) for r in map(_entry, (css_criteria, vo_slicer, pricing)))
REPRODUCTIONS.update((r.name, r) for r in map(_entry, (bsf, estimates)))


def reproduce(
    name: str, *, seed: int | None = None, runs: int | None = None, **options: Any
) -> str:
    """Run reproduction ``name`` and return the paper-vs-ours text.

    ``options`` are the experiment's own keywords (timing sizes; ``executor``
    for the VO-flow experiments).
    """
    return run(name, seed=seed, runs=runs, **options).render()


def run(name: str, *, seed: int | None = None, runs: int | None = None,
        **options: Any) -> Comparison:  # fmt: skip
    """Run reproduction ``name`` and return its :class:`Comparison` (see :func:`reproduce`).

    On a terminal one progress line counts the runs (or cycles) of all the experiment's
    readings (:mod:`planner.progress`).
    """
    import inspect

    from planner.progress import counting

    rep = REPRODUCTIONS[name]
    unit = "cycles" if "executor" in inspect.signature(rep.run).parameters else "runs"
    with counting(f"reproduce {name}", unit):
        return rep.run(seed=0 if seed is None else seed, runs=runs or rep.default_runs,
                       **options)  # fmt: skip


__all__ = ["REPRODUCTIONS", "Comparison", "Reproduction", "reproduce", "run"]
