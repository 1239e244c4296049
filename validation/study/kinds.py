"""The registry of study kinds: what ``planner study list/report/export`` need of each.

Every kind stores its rows through :class:`~validation.study.storage.StudyStore`
and runs through :func:`~validation.study.runner.run_units`; here each kind
names its store (hence its format marker and row schema), spec, worker task,
``study list`` columns and report. A database is opened by its format marker,
so the same three commands serve every kind (docs/studies.md):

========================  ============  ==============================================
kind                      unit          what a study compares
========================  ============  ==============================================
``gap``                   instance      slot-search heuristics vs the exact optimum
``cluster``               replay        cluster policies on workloads (Klusáček &
                                        Rudová 2008's metrics)
``schedule-gap``          snapshot      cluster policies vs the CP-SAT optimum
========================  ============  ==============================================
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validation.study.spec import StudyError
from validation.study.storage import StudyStore, read_format


@dataclass(frozen=True)
class StudyKind:
    """One study kind.

    Parameters
    ----------
    name
        The ``planner study`` subcommand that runs it.
    store
        Its store class (format marker, schema, row columns: ``store.COLUMNS``).
    spec
        Its spec class (``key``, ``to_dict``, ``from_dict``, ``command``).
    task
        The worker function of one unit.
    run
        Runs (or resumes) a study: ``run(spec, store, executor=, version=, progress=,
        stop_after=)`` through :func:`~validation.study.runner.run_units`; returns the
        kind's outcome (``study``, ``written``, ...).
    unit
        The name of one unit of work.
    list_columns
        The columns of ``planner study list``.
    listing
        One study's ``planner study list`` row: column → value.
    report
        Writes the report of one study to a folder from an open store, the study's
        record, the figure formats and whether the table is wide; returns ``report``
        (path), ``summary``, ``table`` (terminal text), ``findings`` (terminal text) and
        ``files`` (every file written).
    prefix
        The report folder's name before its hash (``study-out/PREFIX-HASH``).
    """

    name: str
    store: type[StudyStore]
    spec: type
    task: Callable[..., Any]
    run: Callable[..., Any]
    unit: str
    list_columns: tuple[str, ...]
    listing: Callable[[dict[str, Any]], dict[str, Any]]
    report: Callable[[StudyStore, dict[str, Any], Path, tuple[str, ...], bool], dict[str, Any]]
    prefix: Callable[[Any], str]

    def default_dir(self, base: str | Path, spec: Any, version: str) -> Path:
        """Return the report folder of a study under ``base``: ``PREFIX-HASH``."""
        from validation.study.report import identity

        return Path(base) / f"{self.prefix(spec)}-{identity(spec, version)['key'][:10]}"

    def rows(self, store: StudyStore, info: dict[str, Any]) -> list[dict[str, Any]]:
        """Return a study's rows, verified against its done records and its spec."""
        return store.study_rows(info)


def _gap() -> StudyKind:
    from validation.study.report import NARROW_LEGEND, text_table, write_report
    from validation.study.runner import run_study
    from validation.study.spec import StudySpec
    from validation.study.store import Store
    from validation.study.task import evaluate_instance

    def listing(s: dict[str, Any]) -> dict[str, Any]:
        spec = s["spec"]
        return {"id": s["id"], "family": spec.family, "params": json.dumps(spec.params),
                "instances": spec.instances, "done": s["done"], "seed": spec.seed,
                "solver": spec.solver, "version": s["version"], "created": s["created"]}

    def report(store: StudyStore, info: dict[str, Any], out: Path, formats: tuple[str, ...],
               wide: bool) -> dict[str, Any]:  # fmt: skip
        rep = write_report(store, info["id"], out, formats)  # type: ignore[arg-type]
        table = text_table(rep["summary"], wide=wide)
        if not wide:
            table += "\n" + textwrap.fill(NARROW_LEGEND, 100)
        return {**rep, "table": table}

    return StudyKind("gap", Store, StudySpec, evaluate_instance, run_study, "instance",
                     ("id", "family", "params", "instances", "done", "seed", "solver",
                      "version", "created"), listing, report,
                     lambda spec: spec.family)  # fmt: skip


def _cluster() -> StudyKind:
    from validation.study.cluster.report import text_table, write_report
    from validation.study.cluster.runner import run_cluster_study
    from validation.study.cluster.spec import ClusterStudySpec
    from validation.study.cluster.store import ClusterStore
    from validation.study.cluster.task import run_task

    def listing(s: dict[str, Any]) -> dict[str, Any]:
        spec = s["spec"]
        return {"id": s["id"], "workloads": " ".join(Path(w).name for w in spec.workloads),
                "policies": " ".join(spec.policies), "seeds": " ".join(map(str, spec.seeds)),
                "estimates": " ".join(spec.estimates), "replays": len(spec.tasks()),
                "done": s["done"], "version": s["version"], "created": s["created"]}

    def report(store: StudyStore, info: dict[str, Any], out: Path, formats: tuple[str, ...],
               wide: bool) -> dict[str, Any]:  # fmt: skip
        rows = store.rows(info["id"])
        rep = write_report(rows, out, info["spec"].command(), info)
        out = Path(out)
        files = [out / f for f in ("report.md", "summary.csv", "study.json", *rep["figures"])]
        return {**rep, "table": text_table(rep["summary"], wide=wide),
                "files": [str(f) for f in files]}  # fmt: skip

    return StudyKind("cluster", ClusterStore, ClusterStudySpec, run_task, run_cluster_study,
                     "replay",
                     ("id", "workloads", "policies", "seeds", "estimates", "replays", "done",
                      "version", "created"), listing, report, lambda spec: "cluster")  # fmt: skip


def _schedule_gap() -> StudyKind:
    from validation.study.schedule.report import text_table, write_report
    from validation.study.schedule.runner import run_schedule_gap_study
    from validation.study.schedule.spec import ScheduleGapSpec
    from validation.study.schedule.store import ScheduleGapStore
    from validation.study.schedule.task import run_snapshot

    def listing(s: dict[str, Any]) -> dict[str, Any]:
        spec = s["spec"]
        return {"id": s["id"], "snapshots": spec.snapshots, "jobs": spec.jobs,
                "machines": spec.machines, "seed": spec.seed,
                "policies": " ".join(spec.policies), "time limit": f"{spec.time_limit:g}",
                "done": s["done"], "version": s["version"], "created": s["created"]}

    def report(store: StudyStore, info: dict[str, Any], out: Path, formats: tuple[str, ...],
               wide: bool) -> dict[str, Any]:  # fmt: skip
        rows = store.rows(info["id"])
        seconds = store.seconds(info["id"])  # type: ignore[attr-defined]
        rep = write_report(rows, info, out, seconds, formats)
        out = Path(out)
        drawn = [f"{Path(f).stem}.{ext}" for f in rep["figures"] for ext in formats]
        files = [out / f for f in ("report.md", "summary.csv", "rows.csv", "study.json", *drawn)]
        return {**rep, "table": text_table(rep["summary"], wide=wide),
                "files": [str(f) for f in files]}  # fmt: skip

    return StudyKind("schedule-gap", ScheduleGapStore, ScheduleGapSpec, run_snapshot,
                     run_schedule_gap_study, "snapshot",
                     ("id", "snapshots", "jobs", "machines", "seed", "policies", "time limit",
                      "done", "version", "created"), listing, report,
                     lambda spec: "schedule-gap")  # fmt: skip


_BUILDERS: dict[str, Callable[[], StudyKind]] = {
    "gap": _gap, "cluster": _cluster, "schedule-gap": _schedule_gap,
}  # fmt: skip
KIND_NAMES: tuple[str, ...] = tuple(_BUILDERS)
"""Every study kind, by its ``planner study`` subcommand."""

_KINDS: dict[str, StudyKind] = {}


def kind(name: str) -> StudyKind:
    """Return the study kind ``name`` (one of :data:`KIND_NAMES`)."""
    if name not in _KINDS:
        _KINDS[name] = _BUILDERS[name]()
    return _KINDS[name]


def kinds() -> list[StudyKind]:
    """Return every study kind."""
    return [kind(n) for n in KIND_NAMES]


def kind_of(path: str | Path) -> StudyKind:
    """Return the kind of the study database ``path`` by its format marker.

    Raises
    ------
    StudyError
        One line: missing, not an SQLite file, or not a planner study database.
    """
    fmt = read_format(path)
    for k in kinds():
        if fmt == k.store.FORMAT:
            return k
    formats = ", ".join(k.store.FORMAT for k in kinds())
    found = fmt or ("empty" if Path(path).stat().st_size == 0 else "no planner format marker")
    raise StudyError(f"{path}: not a planner study database ({found}; the study formats are "
                     f"{formats})")  # fmt: skip


def open_readonly(path: str | Path) -> tuple[StudyKind, StudyStore]:
    """Open a study database of any kind for reading only (nothing is ever written)."""
    k = kind_of(path)
    return k, k.store(path, readonly=True)


@contextmanager
def output_errors(out: str | Path) -> Iterator[None]:
    """Turn an OSError while creating or writing a report folder into a one-line StudyError
    (a bad output path is bad input: exit 2, docs/study-reliability.md)."""
    try:
        yield
    except OSError as err:
        where = err.filename if err.filename is not None else out
        raise StudyError(f"{where}: cannot write the report there "
                         f"({err.strerror or type(err).__name__})") from None
