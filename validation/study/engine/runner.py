"""Run a study of any kind: skip the units whose rows are stored, run the rest, store each.

:func:`run_units` is the loop every kind shares (gap: instances; cluster:
replays; schedule-gap: snapshots): the stored rows are verified before any
work (a damaged study is refused with one line), the units whose rows are
stored are skipped, the others run on an executor and are written as they
complete, and the study is complete only when every unit's rows are stored
(its rows, not a count of done records). A kind describes its work as
:class:`Units`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from instances.text import plural
from planner.progress import Progress
from validation.study.engine.errors import StudyError
from validation.study.engine.executors import Executor, SerialExecutor
from validation.study.engine.storage import StudyStore


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
                raise StudyStopped(f"stopped after {plural(written, unit)}")
    except BaseException:
        getattr(executor, "abort", executor.close)()
        raise
    finally:
        bar.close()
        executor.close()
    return written


@dataclass(frozen=True)
class Units:
    """The work of one study: its units, how to run one, and how to read its rows back.

    Parameters
    ----------
    expected
        The keys of every unit of the study (a ``range`` for instance indices).
    tasks
        Returns the tasks, in order (a fresh iterable; may be lazy).
    key
        The unit key of a task (as :meth:`StudyStore.done` returns it).
    run
        The worker function: one task → one result for :meth:`StudyStore.write`.
    rows
        Reads the study's rows, verified (raises StudyError on damage).
    name
        The unit's name in messages ("instance", "replay", "snapshot").
    label
        The progress line's label (default: the unit's name, plural).
    """

    expected: Collection[Hashable]
    tasks: Callable[[], Iterable[Any]]
    key: Callable[[Any], Hashable]
    run: Callable[[Any], Any]
    rows: Callable[[int], list[dict[str, Any]]]
    name: str
    label: str = ""


def run_units(store: StudyStore, spec: Any, version: str, units: Units, *,
              executor: Executor | None = None, progress: bool | None = None,
              stop_after: int | None = None) -> tuple[int, int, list[dict[str, Any]]]:  # fmt: skip
    """Run every unit of ``spec`` whose rows are not in ``store``; write each as it completes.

    Returns
    -------
    tuple
        The study id, the units computed now and the study's verified rows.

    Raises
    ------
    StudyError
        One line: the stored rows are damaged (before any work), the database is
        read-only and the study unfinished (before any work), or a unit's rows are
        missing after the run.
    StudyStopped
        After ``stop_after`` units (tests simulate an interruption with it).
    """
    found = store.find(spec, version)
    done: set[Any] = set()
    if found is not None:
        units.rows(found)  # a damaged study is refused before any work
        done = store.done(found)
    finished = sum(1 for k in done if k in units.expected)
    total = len(units.expected)
    if finished < total and not store.writable:
        raise StudyError(f"{store.path}: the database is read-only and the study is "
                         f"unfinished ({finished} of {total} {units.name}s)")  # fmt: skip
    study = store.study(spec, version)
    todo = (t for t in units.tasks() if units.key(t) not in done)  # lazy: may be huge
    bar = Progress(total, finished, label=units.label or f"{units.name}s", enabled=progress)
    written = drain(executor or SerialExecutor(), units.run, todo,
                    functools.partial(store.write, study), bar, stop_after=stop_after,
                    unit=units.name)  # fmt: skip
    rows = units.rows(study)  # verified: every done unit holds its rows
    stored = store.done(study)
    missing = next((k for k in units.expected if k not in stored), None)
    if missing is not None:
        raise StudyError(f"{store.path}: study {study} is incomplete after the run "
                         f"({units.name} {missing} has no rows)")  # fmt: skip
    return study, written, rows
