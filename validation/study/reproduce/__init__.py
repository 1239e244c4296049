"""Paper reproductions as named experiments: ``planner study reproduce NAME`` prints paper vs ours.

The papers' numbers live in ``validation/data/NAME.json``, each with its
source file, section and the sentence it is read from; ``docs/reproductions.md``
has the tables, the open settings and the causes of every difference.
:data:`REPRODUCTIONS` lists every experiment explicitly, with the options its
``run`` takes beyond the seed and the run count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validation.study.reproduce import (
    aep_criteria,
    amp_vs_alp,
    bsf,
    css_criteria,
    dep_coord,
    egedf,
    estimates,
    maxq,
    pricing,
    slicer,
    timing,
)
from validation.study.reproduce.common import Comparison, citation, reference

OPTIONS: dict[str, tuple[str, ...]] = {
    "executor": ("executor",),
    "exact": ("exact_runs", "exact_size", "exact_solver"),
    "timing": ("repeats", "nodes", "intervals"),
    "streams": ("jobs", "workers"),
}
"""Option groups an experiment may take: group → its ``run`` keywords."""


@dataclass(frozen=True)
class Reproduction:
    """A named paper experiment.

    Parameters
    ----------
    name, source, title
        Its ``planner study reproduce`` name, the paper (author, year, section) and what
        it compares.
    default_runs
        The runs (cycles, repetitions) of a full reproduction.
    run
        ``run(seed=, runs=, **options)``: the result, with ``render()``, ``orderings``
        ((claim, holds) pairs) and ``differences()``.
    options
        The :data:`OPTIONS` groups ``run`` takes.
    unit
        What the runs are ("runs", "cycles", "repetitions").
    write
        ``write(result, folder)``: the experiment's figures and tables (``--out``);
        None when it has none.
    """

    name: str
    source: str
    title: str
    default_runs: int
    run: Callable[..., Any]
    options: tuple[str, ...] = ()
    unit: str = "runs"
    write: Callable[[Any, Path], list[Path]] | None = None

    def keywords(self) -> tuple[str, ...]:
        """Return every keyword of ``run`` beyond the seed and the run count."""
        return tuple(k for group in self.options for k in OPTIONS[group])


def paper(name: str, run: Callable[..., Comparison], default_runs: int,
          options: tuple[str, ...] = (), unit: str = "runs") -> Reproduction:  # fmt: skip
    """Return the reproduction ``name`` whose source and title are its reference data's."""
    ref = reference(name)
    return Reproduction(name, citation(ref), ref["title"], default_runs, run, options, unit)


REPRODUCTIONS: dict[str, Reproduction] = {r.name: r for r in (
    paper(amp_vs_alp.NAME, amp_vs_alp.run, amp_vs_alp.DEFAULT_RUNS),
    paper(aep_criteria.NAME, aep_criteria.run, aep_criteria.DEFAULT_RUNS),
    paper(maxq.NAME, maxq.run, maxq.DEFAULT_RUNS),
    paper(dep_coord.NAME, dep_coord.run, dep_coord.DEFAULT_RUNS),
    paper(timing.NAME, timing.run, timing.DEFAULT_RUNS, ("timing",)),
    paper(css_criteria.NAME, css_criteria.run, css_criteria.DEFAULT_RUNS, ("executor",),
          "cycles"),
    paper(slicer.NAME, slicer.run, slicer.DEFAULT_RUNS, ("executor", "exact"), "cycles"),
    paper(pricing.NAME, pricing.run, pricing.DEFAULT_RUNS, ("executor",), "cycles"),
    paper(bsf.NAME, bsf.run, bsf.DEFAULT_RUNS, ("executor", "exact"), "cycles"),
    paper(estimates.NAME, estimates.run, estimates.DEFAULT_RUNS, ("executor", "exact"),
          "cycles"),
    Reproduction(egedf.NAME, egedf.SOURCE, egedf.SHORT_TITLE, egedf.REPETITIONS,
                 egedf.reproduce, ("streams",), "repetitions", egedf.write),
)}  # fmt: skip
"""Every experiment, in the order ``planner study reproduce`` lists them."""

PAPER_NUMBERS: tuple[str, ...] = tuple(n for n in REPRODUCTIONS if n != egedf.NAME)
"""The experiments compared number by number with a paper (``validation/data/NAME.json``);
EG-EDF's paper gives trends, checked claim by claim."""


def reproduce(
    name: str, *, seed: int | None = None, runs: int | None = None, **options: Any
) -> str:
    """Run reproduction ``name`` and return the paper-vs-ours text.

    ``options`` are the experiment's own keywords (timing sizes; ``executor``
    for the VO-flow experiments).
    """
    return run(name, seed=seed, runs=runs, **options).render()


def run(name: str, *, seed: int | None = None, runs: int | None = None,
        progress: bool | None = None, **options: Any) -> Any:  # fmt: skip
    """Run reproduction ``name`` and return its result (see :func:`reproduce`).

    On a terminal one progress line counts the runs (cycles, streams) of all the
    experiment's readings (:mod:`planner.progress`; ``progress`` False hides it).
    """
    from planner.progress import counting

    rep = REPRODUCTIONS[name]
    unit = "streams" if rep.unit == "repetitions" else rep.unit
    with counting(f"reproduce {name}", unit, enabled=progress):
        return rep.run(seed=0 if seed is None else seed, runs=runs or rep.default_runs,
                       **options)  # fmt: skip


__all__ = ["PAPER_NUMBERS", "REPRODUCTIONS", "Comparison", "Reproduction", "reproduce", "run"]
