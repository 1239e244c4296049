"""The SQLite store of cluster-policy studies: one row per replay.

Format ``planner.cluster-study/1`` (its own schema: the rows are replays), with
the guarantees of every study store (:mod:`validation.study.engine.storage`): each
replay's row is written in its own transaction, so a study killed at any point
(``kill -9`` included) keeps only whole rows and rerunning the same command
replays only the missing ones; a run holds ``DB.lock``; damaged, foreign and
read-only files are one-line errors before any work.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from instances.text import plural
from validation.study.cluster.spec import ClusterStudySpec
from validation.study.engine.errors import StudyError
from validation.study.engine.storage import StudyStore

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



class ClusterStore(StudyStore):
    """A cluster-study database (:class:`~validation.study.engine.storage.StudyStore`).

    A replay has no separate done record: its row is the record, so a row deleted
    behind the study's back is simply replayed again by the next run.
    """

    FORMAT = FORMAT
    SCHEMA = _SCHEMA
    TABLE = "runs"
    COLUMNS = tuple(n for n, _ in COLUMNS)
    ORDER = ", ".join(KEY)
    DONE_TABLE = "runs"
    UNIT = ("workload", "seed", "estimates", "policy")
    UNIT_NAME = "replay"

    @classmethod
    def spec_from_dict(cls, data: dict[str, Any]) -> ClusterStudySpec:
        """Return the study's :class:`ClusterStudySpec` (digests kept as recorded)."""
        return ClusterStudySpec.from_dict(data)

    def _insert(self, study: int, result: dict[str, Any]) -> None:
        names = list(self.COLUMNS)
        values = [study if n == "study" else result[n] for n in names]
        self.db.execute(f"INSERT INTO runs ({', '.join(names)}) "
                        f"VALUES ({', '.join('?' * len(names))})", values)  # fmt: skip

    def _recorded(self, study: int) -> dict[Hashable, int] | None:
        return None

    def _verify_grid(self, study: int, rows: list[dict[str, Any]], **checks: Any) -> None:
        spec = self._specs.get(study) or self.info(study)["spec"]
        tasks = {(t.workload, t.seed, t.estimates, t.policy) for t in spec.tasks()}
        extra = [r for r in rows if (r["workload"], r["seed"], r["estimates"], r["policy"])
                 not in tasks]  # fmt: skip
        if extra:
            r = extra[0]
            raise StudyError(f"{self.damaged(study)} has {plural(len(extra), 'row')} of replays "
                             f"outside the study (first: {r['workload']} seed {r['seed']} "
                             f"{r['policy']})")  # fmt: skip
