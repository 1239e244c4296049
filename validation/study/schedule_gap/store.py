"""The SQLite store of schedule-gap studies: one row per snapshot and policy.

Format ``planner.schedule-gap-study/1``, with the guarantees of every study
store (:mod:`validation.study.engine.storage`): a snapshot's rows and its ``done``
record (which holds the run times, so the rows hold none) are written in one
transaction, so a study killed at any point (``kill -9`` included) keeps only
whole snapshots, and rerunning the same command solves only the others; a
snapshot recorded as done must hold one row per policy of the study (rows
deleted behind its back are damage, refused with one line); a run holds
``DB.lock``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from validation.study.engine.errors import StudyError
from validation.study.engine.locks import guard
from validation.study.engine.storage import StudyStore
from validation.study.schedule_gap.spec import ScheduleGapSpec

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


class ScheduleGapStore(StudyStore):
    """A schedule-gap database (:class:`~validation.study.engine.storage.StudyStore`)."""

    FORMAT = FORMAT
    SCHEMA = _SCHEMA
    COLUMNS = tuple(n for n, _ in COLUMNS)
    ORDER = "snapshot, rowid"
    UNIT = ("snapshot",)
    UNIT_NAME = "snapshot"

    @classmethod
    def spec_from_dict(cls, data: dict[str, Any]) -> ScheduleGapSpec:
        """Return the study's :class:`ScheduleGapSpec`."""
        return ScheduleGapSpec.from_dict(data)

    def _insert(self, study: int, result: dict[str, Any]) -> None:
        names = ["study", *self.COLUMNS]
        insert = f"INSERT INTO rows ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        self.db.executemany(insert, [[study, *(row[n] for n in self.COLUMNS)]
                                     for row in result["rows"]])  # fmt: skip
        self.db.execute("INSERT INTO done VALUES (?, ?, ?, ?)", (study, result["snapshot"],
                        result["replay_seconds"], result["solve_seconds"]))  # fmt: skip

    def _recorded(self, study: int) -> dict[Hashable, int]:
        spec = self._specs.get(study) or self.info(study)["spec"]
        cur = self.db.execute("SELECT snapshot FROM done WHERE study = ?", (study,))
        return {int(s): len(spec.policies) for (s,) in cur}

    def _verify_grid(self, study: int, rows: list[dict[str, Any]], **checks: Any) -> None:
        policies = set(self._specs[study].policies)
        seen: dict[int, set[str]] = {}
        for r in rows:
            seen.setdefault(r["snapshot"], set()).add(r["policy"])
        for k, mine in seen.items():
            if mine != policies:
                raise StudyError(f"{self.damaged(study)}: snapshot {k} does not have one row "
                                 "per policy of the study")  # fmt: skip

    def seconds(self, study: int) -> tuple[float, float]:
        """Return the replay and CP-SAT seconds of the study's snapshots, in total."""
        with guard(self.path):
            cur = self.db.execute("SELECT TOTAL(replay_seconds), TOTAL(solve_seconds) FROM done "
                                  "WHERE study = ?", (study,))  # fmt: skip
            replay, solve = cur.fetchone()
        return float(replay), float(solve)
