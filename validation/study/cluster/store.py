"""The SQLite store of cluster-policy studies: one row per replay.

The gap-study store (:mod:`validation.study.store`) has a fixed schema of
slot-search rows, so cluster studies keep their own small database (format
``planner.cluster-study/1``) with the same guarantees: every row is written
in its own transaction, a study killed at any point (``kill -9`` included)
keeps only whole rows, and rerunning the same command skips them.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from pathlib import Path
from typing import Any

from validation.study.cluster.spec import ClusterStudySpec
from validation.study.spec import StudyError

FORMAT = "planner.cluster-study/1"

COLUMNS: tuple[tuple[str, str], ...] = (
    ("study", "INTEGER NOT NULL"), ("workload", "TEXT NOT NULL"), ("seed", "INTEGER NOT NULL"),
    ("estimates", "TEXT NOT NULL"), ("policy", "TEXT NOT NULL"), ("jobs", "INTEGER NOT NULL"),
    ("dropped", "INTEGER NOT NULL"), ("killed", "INTEGER NOT NULL"),
    ("makespan", "INTEGER NOT NULL"), ("utilisation", "REAL"), ("weighted_utilisation", "REAL"),
    ("mean_wait", "REAL"), ("median_wait", "REAL"), ("p90_wait", "REAL"), ("p99_wait", "REAL"),
    ("mean_slowdown", "REAL"), ("mean_bounded_slowdown", "REAL"),
    ("median_bounded_slowdown", "REAL"), ("p90_bounded_slowdown", "REAL"),
    ("delayed", "INTEGER NOT NULL"), ("scheduler_seconds", "REAL NOT NULL"),
    ("replay_seconds", "REAL NOT NULL"), ("violations", "INTEGER NOT NULL"),
    ("first_violation", "TEXT"),
)  # fmt: skip
"""The ``runs`` table, in export order."""

KEY = ("study", "workload", "seed", "estimates", "policy")

_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE study (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, spec TEXT NOT NULL,
    version TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE runs ({", ".join(f"{n} {t}" for n, t in COLUMNS)}, UNIQUE ({", ".join(KEY)}));
"""


def study_id(db: sqlite3.Connection, spec: Any, version: str) -> int:
    """Return the id of the ``study`` row for ``spec`` (a spec with ``key`` and ``to_dict``) and
    ``version`` in ``db``, inserting it if new (the cluster and schedule-gap stores)."""
    key = spec.key(version)
    row = db.execute("SELECT id FROM study WHERE key = ?", (key,)).fetchone()
    if row:
        return int(row[0])
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    cur = db.execute("INSERT INTO study (key, spec, version, created) VALUES (?, ?, ?, ?)",
                     (key, json.dumps(spec.to_dict(), sort_keys=True), version, now))  # fmt: skip
    return int(cur.lastrowid)  # type: ignore[arg-type]


def open_format(db: sqlite3.Connection, path: str, fmt: str, schema: str) -> None:
    """Create ``schema`` and the ``fmt`` marker in an empty ``db``; otherwise check the marker.

    Raises StudyError (and closes ``db``) if ``path`` is another file or another format.
    """
    found = None
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            db.executescript(f"BEGIN;{schema}INSERT INTO meta VALUES ('format', '{fmt}');COMMIT;")
            return
        if "meta" in tables:
            found = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    except sqlite3.DatabaseError as err:
        db.close()
        raise StudyError(f"{path}: not a {fmt} database ({err})") from None
    if found is None or found[0] != fmt:
        db.close()
        raise StudyError(f"{path}: not a {fmt} database "
                         f"({found[0] if found else 'no planner format marker'})")  # fmt: skip


class ClusterStore:
    """A cluster-study database (created on first use); StudyError if it is another file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.DatabaseError as err:
            raise StudyError(f"{self.path}: not a {FORMAT} database ({err})") from None
        open_format(self.db, self.path, FORMAT, _SCHEMA)

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def __enter__(self) -> ClusterStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def study(self, spec: ClusterStudySpec, version: str) -> int:
        """Return the id of the study for ``spec`` and ``version``, creating it if new."""
        return study_id(self.db, spec, version)

    def studies(self) -> list[dict[str, Any]]:
        """Return every study: id, spec, version, created."""
        cur = self.db.execute("SELECT id, spec, version, created FROM study ORDER BY id")
        return [{"id": i, "spec": ClusterStudySpec.from_dict(json.loads(s)), "version": v,
                 "created": c} for i, s, v, c in cur]  # fmt: skip

    def done(self, study: int) -> set[tuple[str, int, str, str]]:
        """Return (workload, seed, estimates, policy) of every row written for ``study``."""
        cur = self.db.execute("SELECT workload, seed, estimates, policy FROM runs WHERE study = ?",
                              (study,))  # fmt: skip
        return {(w, s, e, p) for w, s, e, p in cur}

    def write(self, study: int, row: dict[str, Any]) -> None:
        """Write one replay's row (its own transaction)."""
        names = [n for n, _ in COLUMNS]
        values = [study if n == "study" else row[n] for n in names]
        self.db.execute(f"INSERT INTO runs ({', '.join(names)}) "
                        f"VALUES ({', '.join('?' * len(names))})", values)  # fmt: skip

    def rows(self, study: int) -> list[dict[str, Any]]:
        """Return the study's rows in key order."""
        names = [n for n, _ in COLUMNS]
        cur = self.db.execute(f"SELECT {', '.join(names)} FROM runs WHERE study = ? "
                              f"ORDER BY {', '.join(KEY)}", (study,))  # fmt: skip
        return [dict(zip(names, values, strict=True)) for values in cur]
