"""The SQLite store of a gap study: one row per instance × geometry × job × algorithm.

The guarantees of every study store (:mod:`validation.study.engine.storage`): each
instance's rows, its ``done`` marker and (for error rows) its instance file
are written in one transaction, so a study killed at any point (``kill -9``
included) leaves only whole instances behind; rerunning the same study skips
them and ends with exactly the rows of an uninterrupted run. Reading a study
verifies its rows against the instances recorded as done (count per instance
and the full geometry × job × algorithm grid); a damaged or foreign file is a
one-line :class:`StudyError`, never a short study; a run holds ``DB.lock``.

One database may hold several studies. A study is identified by its spec and
the package version (:meth:`StudySpec.key`): the same command reuses (and
resumes) its study, different parameters or a new version start a new one.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from validation.study.engine.errors import StudyError
from validation.study.engine.locks import RunLock as _RunLock
from validation.study.engine.locks import guard as _guard
from validation.study.engine.locks import sigint_deferred
from validation.study.engine.storage import StudyStore
from validation.study.gap.spec import StudySpec
from validation.study.gap.task import InstanceResult

__all__ = ["COLUMNS", "FORMAT", "KEY", "Store", "_RunLock", "_guard", "sigint_deferred"]

FORMAT = "planner.study/1"

COLUMNS: tuple[tuple[str, str], ...] = (
    ("study", "INTEGER NOT NULL"),
    ("instance", "INTEGER NOT NULL"),
    ("geometry", "TEXT NOT NULL"),
    ("job", "TEXT NOT NULL"),
    ("algorithm", "TEXT NOT NULL"),
    ("family", "TEXT NOT NULL"),
    ("instance_seed", "INTEGER NOT NULL"),
    ("instance_name", "TEXT NOT NULL"),
    ("criterion", "TEXT NOT NULL"),
    ("nodes", "INTEGER NOT NULL"),
    ("slots", "INTEGER NOT NULL"),
    ("found", "INTEGER NOT NULL"),
    ("value", "REAL"),
    ("start", "INTEGER"),
    ("cost", "INTEGER"),
    ("exact_status", "TEXT NOT NULL"),
    ("exact_found", "INTEGER NOT NULL"),
    ("exact_value", "REAL"),
    ("exact_bound", "REAL"),
    ("match", "INTEGER"),
    ("gap", "REAL"),
    ("verdict", "TEXT NOT NULL"),
    ("exact_verdict", "TEXT NOT NULL"),
    ("error", "TEXT"),
    ("heuristic_seconds", "REAL NOT NULL"),
    ("exact_seconds", "REAL NOT NULL"),
)
"""The ``rows`` table, in export order."""

KEY = ("study", "instance", "geometry", "job", "algorithm")
_BOOL = ("found", "exact_found", "match")

_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE study (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, params TEXT NOT NULL,
    version TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE done (
    study INTEGER NOT NULL REFERENCES study(id), instance INTEGER NOT NULL,
    rows INTEGER NOT NULL, errors INTEGER NOT NULL, PRIMARY KEY (study, instance));
CREATE TABLE error_instance (
    study INTEGER NOT NULL REFERENCES study(id), instance INTEGER NOT NULL,
    text TEXT NOT NULL, PRIMARY KEY (study, instance));
CREATE TABLE rows ({", ".join(f"{n} {t}" for n, t in COLUMNS)},
    UNIQUE ({", ".join(KEY)}));
"""


class Store(StudyStore):
    """A gap-study database (:class:`~validation.study.engine.storage.StudyStore`: ``readonly``
    for reading; otherwise created if missing, locked and probed for writing)."""

    FORMAT = FORMAT
    SCHEMA = _SCHEMA
    COLUMNS = tuple(n for n, _ in COLUMNS)
    ORDER = ", ".join(KEY)
    SPEC_COLUMN = "params"
    UNIT = ("instance",)
    UNIT_NAME = "instance"

    @classmethod
    def spec_from_dict(cls, data: dict[str, Any]) -> StudySpec:
        """Return the study's :class:`StudySpec`."""
        return StudySpec.from_dict(data)

    def study(self, spec: StudySpec, version: str) -> int:  # type: ignore[override]
        """Return the id of the study for ``spec`` and ``version``, creating it if new."""
        return super().study(spec, version)

    def _insert(self, study: int, result: InstanceResult) -> None:
        names = list(self.COLUMNS)
        sql = f"INSERT INTO rows ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        values = [[study if n == "study" else _cell(n, r[n]) for n in names] for r in result.rows]
        self.db.executemany(sql, values)
        self.db.execute("INSERT INTO done VALUES (?, ?, ?, ?)",
                        (study, result.index, len(result.rows), len(result.errors)))  # fmt: skip
        if result.instance_text is not None:
            self.db.execute("INSERT INTO error_instance VALUES (?, ?, ?)",
                            (study, result.index, result.instance_text))  # fmt: skip

    def rows(  # type: ignore[override]
        self, study: int, algorithms: tuple[str, ...] = (),
        geometries: tuple[str, ...] | None = None,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """Return the study's rows in key order (booleans as bool), verified.

        Every finished instance has exactly the rows it recorded, forming the full
        geometry × job × algorithm grid (over ``algorithms`` when given; over
        ``geometries`` when given, ``()`` meaning the instance's own geometry alone),
        and no other instance has rows.

        Raises
        ------
        StudyError
            The database is damaged (rows are missing or extra).
        """
        return self._read(study, algorithms=algorithms, geometries=geometries)

    def study_rows(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        """Return the verified rows of ``info``'s study over its algorithms and geometries."""
        return self.rows(info["id"], info["spec"].algorithms, info["spec"].geometries)

    def _recorded(self, study: int) -> dict[Hashable, int]:
        cur = self.db.execute("SELECT instance, rows FROM done WHERE study = ?", (study,))
        return {int(i): int(n) for i, n in cur}

    def _verify_grid(self, study: int, rows: list[dict[str, Any]], **checks: Any) -> None:
        algorithms, geometries = checks.get("algorithms", ()), checks.get("geometries")
        counts: dict[int, int] = {}
        grids: dict[int, tuple[set[Any], set[Any], set[Any]]] = {}
        for r in rows:
            g = grids.setdefault(r["instance"], (set(), set(), set()))
            g[0].add(r["geometry"])
            g[1].add(r["job"])
            g[2].add(r["algorithm"])
            counts[r["instance"]] = counts.get(r["instance"], 0) + 1
        for i, (geos, jobs, algs) in grids.items():
            full = len(geos) * len(jobs) * len(algs) == counts[i]
            if algorithms and algs != set(algorithms):
                full = False
            if geometries is not None and (geos != set(geometries) if geometries
                                           else len(geos) != 1):  # fmt: skip
                full = False
            if not full:
                raise StudyError(f"{self.damaged(study)}: instance {i} does not have one row "
                                 "per geometry × job × algorithm")  # fmt: skip

    def _decode(self, row: dict[str, Any]) -> dict[str, Any]:
        for n in _BOOL:
            if row[n] is not None:
                row[n] = bool(row[n])
        return row

    def error_instances(self, study: int) -> list[tuple[int, str]]:
        """Return (index, instance file text) of every instance with an error row."""
        with _guard(self.path):
            cur = self.db.execute(
                "SELECT instance, text FROM error_instance WHERE study = ? ORDER BY instance",
                (study,),
            )
            return [(int(i), t) for i, t in cur]


def _cell(name: str, value: Any) -> Any:
    if name in _BOOL and value is not None:
        return int(bool(value))
    return value
