"""Run a gap study: resolve the spec, skip finished instances, evaluate the rest, store rows."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from instances.errors import did_you_mean
from planner.progress import Progress
from validation.study import toolkit as _toolkit
from validation.study.executors import Executor, SerialExecutor
from validation.study.spec import StudyError, StudySpec, instance_seed
from validation.study.store import Store
from validation.study.task import Context, evaluate_instance
from validation.study.toolkit import Toolkit


class StudyStopped(RuntimeError):
    """The study stopped early on request (``stop_after``); rerun to resume."""


def drain(executor: Executor, fn: Callable[[Any], Any], todo: Iterable[Any],
          write: Callable[[Any], None], bar: Progress, *, stop_after: int | None = None,
          unit: str = "task") -> int:  # fmt: skip
    """Run ``fn`` over ``todo`` on ``executor``, ``write`` each result as it completes.

    Returns how many results were written. On Ctrl-C, a stop or an error the
    workers are ended at once (a clean close would wait for their running
    solves); the progress bar and the executor are closed in every case.
    """
    written = 0
    try:
        for result in executor.map_unordered(fn, todo):
            write(result)
            written += 1
            bar.step()
            if stop_after is not None and written >= stop_after:
                raise StudyStopped(f"stopped after {written} {unit}(s)")
    except BaseException:
        getattr(executor, "abort", executor.close)()
        raise
    finally:
        bar.close()
        executor.close()
    return written


@dataclass(frozen=True)
class Outcome:
    """A finished (or resumed-and-finished) study."""

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
        from planner import __version__ as version
    ctx = resolve(spec, toolkit)
    names = tuple(n for n, _ in ctx.algorithms)
    found = store.find(spec, version)
    done = store.done(found) if found is not None else set()
    if found is not None:
        store.rows(found, names, spec.geometries)  # a damaged database is refused before any work
    if len(done) < spec.instances and not store.writable:
        raise StudyError(f"{store.path}: the database is read-only and the study is "
                         f"unfinished ({len(done)} of {spec.instances} instances)")  # fmt: skip
    study = store.study(spec, version)
    todo = (i for i in range(spec.instances) if i not in done)  # never a list: may be huge
    executor = executor or SerialExecutor()
    bar = Progress(spec.instances, len(done), label="gap study: instances", enabled=progress)
    written = drain(executor, functools.partial(evaluate_instance, ctx), todo,
                    functools.partial(store.write, study), bar, stop_after=stop_after,
                    unit="instance")  # fmt: skip
    rows = store.rows(study, names, spec.geometries)
    if len(store.done(study)) != spec.instances:
        raise StudyError(f"{store.path}: study {study} is incomplete after the run")
    return Outcome(study, spec.instances, written, len(rows), sum(1 for r in rows if r["error"]))


def latest_study(store: Store) -> dict[str, Any]:
    """Return the most recent study of a database (StudyError if it holds none)."""
    studies = store.studies()
    if not studies:
        raise StudyError(f"{store.path}: the database holds no study")
    return studies[-1]
