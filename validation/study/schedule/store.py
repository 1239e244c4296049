"""The SQLite store of schedule-gap studies: one row per snapshot and policy.

Format ``planner.schedule-gap-study/1``, with the guarantees of the other
study stores (``docs/studies.md``): a snapshot's rows and its ``done`` record
(which holds the run times, so the rows hold none) are written in one
transaction, so a study killed at any point (``kill -9`` included) keeps only
whole snapshots, and rerunning the same command solves only the others. An
open store holds the slot study's run lock (``DB.lock``), so two runs never
write one database at once.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from validation.study.cluster.store import open_format, study_id
from validation.study.schedule.spec import ScheduleGapSpec
from validation.study.spec import StudyError
from validation.study.store import _RunLock

FORMAT = "planner.schedule-gap-study/1"

COLUMNS: tuple[tuple[str, str], ...] = (
    ("snapshot", "INTEGER NOT NULL"), ("jobs", "INTEGER NOT NULL"),
    ("machines", "INTEGER NOT NULL"), ("status", "TEXT NOT NULL"), ("opt_delayed", "INTEGER"),
    ("opt_makespan", "INTEGER"), ("delayed_bound", "INTEGER"), ("makespan_bound", "INTEGER"),
    ("optimum_violations", "INTEGER NOT NULL"), ("policy", "TEXT NOT NULL"),
    ("delayed", "INTEGER NOT NULL"), ("makespan", "INTEGER NOT NULL"),
    ("violations", "INTEGER NOT NULL"), ("first_violation", "TEXT"),
)  # fmt: skip
"""The ``rows`` table (after ``study``), in export order: no run times."""

_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE study (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, spec TEXT NOT NULL,
    version TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE done (study INTEGER NOT NULL, snapshot INTEGER NOT NULL,
    replay_seconds REAL NOT NULL, solve_seconds REAL NOT NULL, PRIMARY KEY (study, snapshot));
CREATE TABLE rows (study INTEGER NOT NULL, {", ".join(f"{n} {t}" for n, t in COLUMNS)},
    UNIQUE (study, snapshot, policy));
"""


class ScheduleGapStore:
    """A schedule-gap database (created on first use); StudyError if it is another file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if Path(self.path).is_dir():
            raise StudyError(f"{self.path}: cannot use the database (a directory)")
        self._lock = _RunLock.acquire(self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            open_format(self.db, self.path, FORMAT, _SCHEMA)
        except BaseException:
            if self._lock is not None:
                self._lock.release()
            raise

    def close(self) -> None:
        """Close the connection and release the run lock."""
        self.db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> ScheduleGapStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def study(self, spec: ScheduleGapSpec, version: str) -> int:
        """Return the id of the study for ``spec`` and ``version``, creating it if new."""
        return study_id(self.db, spec, version)

    def info(self, study: int) -> dict[str, Any]:
        """Return a study's id, spec, version and creation time."""
        row = self.db.execute("SELECT spec, version, created FROM study WHERE id = ?",
                              (study,)).fetchone()  # fmt: skip
        if row is None:
            raise StudyError(f"{self.path}: no study {study}")
        return {"id": study, "spec": ScheduleGapSpec.from_dict(json.loads(row[0])),
                "version": row[1], "created": row[2]}  # fmt: skip

    def done(self, study: int) -> set[int]:
        """Return the snapshots (seeds) written for ``study``."""
        cur = self.db.execute("SELECT snapshot FROM done WHERE study = ?", (study,))
        return {int(s) for (s,) in cur}

    def write(self, study: int, result: dict[str, Any]) -> None:
        """Write one snapshot's rows and its ``done`` record in one transaction."""
        names = ["study", *(n for n, _ in COLUMNS)]
        insert = f"INSERT INTO rows ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        with self.db:
            self.db.execute("BEGIN")
            for row in result["rows"]:
                self.db.execute(insert, [study, *(row[n] for n, _ in COLUMNS)])
            self.db.execute("INSERT INTO done VALUES (?, ?, ?, ?)", (study, result["snapshot"],
                            result["replay_seconds"], result["solve_seconds"]))  # fmt: skip

    def rows(self, study: int) -> list[dict[str, Any]]:
        """Return the study's rows by snapshot, policies in the spec's order."""
        names = [n for n, _ in COLUMNS]
        cur = self.db.execute(f"SELECT {', '.join(names)} FROM rows WHERE study = ? "
                              "ORDER BY snapshot, rowid", (study,))  # fmt: skip
        return [dict(zip(names, values, strict=True)) for values in cur]

    def seconds(self, study: int) -> tuple[float, float]:
        """Return the replay and CP-SAT seconds of the study's snapshots, in total."""
        cur = self.db.execute("SELECT TOTAL(replay_seconds), TOTAL(solve_seconds) FROM done "
                              "WHERE study = ?", (study,))  # fmt: skip
        replay, solve = cur.fetchone()
        return float(replay), float(solve)
