"""The SQLite store of a gap study: one row per instance × geometry × job × algorithm.

Each instance's rows, its ``done`` marker and (for error rows) its instance
file are written in one transaction, so a study killed at any point
(``kill -9`` included) leaves only whole instances behind; rerunning the
same study skips them and ends with exactly the rows of an uninterrupted run.

One database may hold several studies. A study is identified by its spec and
the package version (:meth:`StudySpec.key`): the same command reuses (and
resumes) its study, different parameters or a new version start a new one.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from validation.study.spec import StudyError, StudySpec
from validation.study.task import InstanceResult

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


class Store:
    """A study database (created on first use).

    Raises
    ------
    StudyError
        The file is not an SQLite database, or is one that planner did not create.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self._check()
        except sqlite3.OperationalError as err:
            raise StudyError(f"{self.path}: cannot use the database ({err})") from None
        except sqlite3.DatabaseError as err:
            raise StudyError(f"{self.path}: not a planner study database ({err})") from None

    def _check(self) -> None:
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        if not tables:  # schema and format marker in one transaction (kill -9 safe)
            marker = f"INSERT INTO meta VALUES ('format', '{FORMAT}');"
            self.db.executescript("BEGIN;" + _SCHEMA + marker + "COMMIT;")
            return
        fmt = None
        if "meta" in tables:
            fmt = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if fmt is None or fmt[0] != FORMAT:
            found = fmt[0] if fmt else "no planner format marker"
            raise StudyError(f"{self.path}: not a {FORMAT} database ({found})")
        (verdict,) = self.db.execute("PRAGMA quick_check").fetchone()
        if verdict != "ok":
            raise StudyError(f"{self.path}: the database is corrupted ({verdict})")

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def study(self, spec: StudySpec, version: str) -> int:
        """Return the id of the study for ``spec`` and ``version``, creating it if new."""
        key = spec.key(version)
        row = self.db.execute("SELECT id FROM study WHERE key = ?", (key,)).fetchone()
        if row:
            return int(row[0])
        now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        cur = self.db.execute(
            "INSERT INTO study (key, params, version, created) VALUES (?, ?, ?, ?)",
            (key, json.dumps(spec.to_dict(), sort_keys=True), version, now),
        )
        return int(cur.lastrowid)

    def studies(self) -> list[dict[str, Any]]:
        """Return every study: id, spec, version, created, instances done."""
        out = []
        for sid, params, version, created in self.db.execute(
            "SELECT id, params, version, created FROM study ORDER BY id"
        ):
            (done,) = self.db.execute(
                "SELECT COUNT(*) FROM done WHERE study = ?", (sid,)
            ).fetchone()
            spec = StudySpec.from_dict(json.loads(params))
            out.append({"id": sid, "spec": spec, "version": version, "created": created,
                        "done": done})  # fmt: skip
        return out

    def done(self, study: int) -> set[int]:
        """Return the indices of the instances already written for ``study``."""
        cur = self.db.execute("SELECT instance FROM done WHERE study = ?", (study,))
        return {int(r[0]) for r in cur}

    def write(self, study: int, result: InstanceResult) -> None:
        """Write one instance's rows, done marker and error instance in one transaction."""
        names = [n for n, _ in COLUMNS]
        sql = f"INSERT INTO rows ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        values = [[study if n == "study" else _cell(n, r[n]) for n in names] for r in result.rows]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.executemany(sql, values)
            self.db.execute(
                "INSERT INTO done VALUES (?, ?, ?, ?)",
                (study, result.index, len(result.rows), len(result.errors)),
            )
            if result.instance_text is not None:
                self.db.execute(
                    "INSERT INTO error_instance VALUES (?, ?, ?)",
                    (study, result.index, result.instance_text),
                )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def rows(self, study: int) -> list[dict[str, Any]]:
        """Return the study's rows in key order (booleans as bool)."""
        return list(self.iter_rows(study))

    def iter_rows(self, study: int) -> Iterator[dict[str, Any]]:
        """Yield the study's rows in key order."""
        names = [n for n, _ in COLUMNS]
        cur = self.db.execute(
            f"SELECT {', '.join(names)} FROM rows WHERE study = ? ORDER BY {', '.join(KEY)}",
            (study,),
        )
        for values in cur:
            row = dict(zip(names, values, strict=True))
            for n in _BOOL:
                if row[n] is not None:
                    row[n] = bool(row[n])
            yield row

    def error_instances(self, study: int) -> list[tuple[int, str]]:
        """Return (index, instance file text) of every instance with an error row."""
        cur = self.db.execute(
            "SELECT instance, text FROM error_instance WHERE study = ? ORDER BY instance", (study,)
        )
        return [(int(i), t) for i, t in cur]


def _cell(name: str, value: Any) -> Any:
    if name in _BOOL and value is not None:
        return int(bool(value))
    return value
