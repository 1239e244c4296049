"""Run (or resume) a gap study: resolve its names, then the shared loop over its instances.

:func:`resolve` checks a spec against the toolkit's registries before anything is
written; :func:`run_study` evaluates every instance not yet stored
(:func:`validation.study.engine.runner.run_units`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from instances.errors import did_you_mean
from validation.study.engine.errors import StudyError
from validation.study.engine.executors import Executor
from validation.study.engine.runner import Units, run_units
from validation.study.engine.seeds import instance_seed
from validation.study.gap import toolkit as _toolkit
from validation.study.gap.spec import StudySpec
from validation.study.gap.store import Store
from validation.study.gap.task import Context, evaluate_instance
from validation.study.gap.toolkit import Toolkit


@dataclass(frozen=True)
class Outcome:
    """A finished (or resumed-and-finished) gap study: its id, instances, those computed now,
    rows and error rows."""

    study: int
    instances: int
    written: int
    rows: int
    errors: int


def resolve(spec: StudySpec, toolkit: Toolkit | None = None) -> Context:
    """Check the spec against the toolkit's registries; return the worker context.

    Raises
    ------
    StudyError
        One line naming the unknown family, parameter, algorithm or solver.
    """
    toolkit = toolkit or _toolkit.DEFAULT_TOOLKIT
    try:
        toolkit.check_params(spec.family, spec.params)
        toolkit.generate(spec.family, instance_seed(spec.seed, 0), **spec.params)  # value ranges
    except ValueError as err:
        raise StudyError(str(err).splitlines()[0]) from None
    known = toolkit.algorithms()
    names = spec.algorithms or tuple(known)
    for name in names:
        if name not in known:
            raise StudyError(f"unknown algorithm '{name}'{did_you_mean(name, known)} "
                             f"(choose from: {', '.join(known)})")  # fmt: skip
    solvers = toolkit.solvers()
    if spec.solver not in solvers:
        raise StudyError(f"unknown solver '{spec.solver}'{did_you_mean(spec.solver, solvers)} "
                         f"(choose from: {', '.join(solvers)})")  # fmt: skip
    return Context(spec, toolkit, tuple((n, known[n]) for n in names))


def gap_units(spec: StudySpec, store: Store, toolkit: Toolkit | None = None) -> Units:
    """Return the study's work: every instance, evaluated by :func:`evaluate_instance`.

    Raises
    ------
    StudyError
        One line naming an unknown family, parameter, algorithm or solver (:func:`resolve`).
    """
    ctx = resolve(spec, toolkit)
    names = tuple(n for n, _ in ctx.algorithms)
    return Units(range(spec.instances), lambda: range(spec.instances), lambda i: i,
                 functools.partial(evaluate_instance, ctx),
                 lambda study: store.rows(study, names, spec.geometries), "instance",
                 "gap study: instances")  # fmt: skip


def run_study(
    spec: StudySpec,
    store: Store,
    *,
    executor: Executor | None = None,
    toolkit: Toolkit | None = None,
    version: str | None = None,
    progress: bool | None = None,
    stop_after: int | None = None,
) -> Outcome:
    """Evaluate every instance of ``spec`` not yet in ``store``; write each as it completes.

    Parameters
    ----------
    spec
        The study.
    store
        The database; finished instances of the same study are skipped (resume).
    executor
        Where tasks run (default: in this process).
    toolkit
        The components (default: ``toolkit.DEFAULT_TOOLKIT``, the package's registries).
    version
        Recorded with the study (default: ``planner.__version__``).
    progress
        Show a progress line (default: on a TTY without ``CI``).
    stop_after
        Raise :class:`StudyStopped` after writing this many instances (tests
        simulate an interruption with it).
    """
    if version is None:
        from planner import __version__

        version = __version__
    units = gap_units(spec, store, toolkit)
    study, written, rows = run_units(store, spec, version, units, executor=executor,
                                     progress=progress, stop_after=stop_after)  # fmt: skip
    return Outcome(study, spec.instances, written, len(rows), sum(1 for r in rows if r["error"]))


def latest_study(store: Store) -> dict[str, Any]:
    """Return the most recent study of a database (StudyError if it holds none)."""
    studies = store.studies()
    if not studies:
        raise StudyError(f"{store.path}: the database holds no study")
    return studies[-1]
