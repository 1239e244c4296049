"""The SQLite store shared by every study kind (gap, cluster, schedule-gap).

A kind declares its on-disk layout (format marker, schema, rows table, the key
of one unit of work) and how one result is inserted; this base gives every
kind the same guarantees (docs/study-reliability.md):

* each unit's rows and its done record are written in one transaction (Ctrl-C
  is held back until it commits), so a study killed at any point (``kill -9``
  included) keeps only whole units and a rerun skips exactly those;
* on opening: the format marker, the exact schema, every study's parameters
  and SQLite's ``PRAGMA integrity_check``; a damaged or foreign file is a
  one-line :class:`StudyError`, never a short study;
* on reading a study: its rows against its done records (:meth:`StudyStore.rows`),
  so rows deleted behind the study's back are damage, not a finished study;
* a store opened for a run holds an exclusive lock (``DB.lock``, released when
  the process ends, ``kill -9`` included): two runs never write one database;
  a database that cannot be written is detected (:attr:`StudyStore.writable`)
  before any work.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from collections import Counter
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from instances.text import plural
from validation.study.engine.errors import StudyError
from validation.study.engine.locks import RunLock, guard, sigint_deferred

__all__ = ["StudyStore", "read_format", "sigint_deferred"]

_Store = TypeVar("_Store", bound="StudyStore")


def _connect(path: str) -> sqlite3.Connection:
    """Open (or create) ``path`` for a run; SQLite falls back to read-only for a file it
    cannot write, which :meth:`StudyStore._probe_write` then detects."""
    return sqlite3.connect(path, isolation_level=None)


def _open_readonly(path: str) -> sqlite3.Connection:
    if not Path(path).is_file():
        raise StudyError(f"{path}: no such file")
    uri = Path(path).absolute().as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True, isolation_level=None)


def read_format(path: str | Path) -> str | None:
    """Return the format marker of a study database (None: none), opened read-only.

    Raises StudyError (one line) when ``path`` is missing or not an SQLite file.
    """
    path = str(path)
    try:
        db = _open_readonly(path)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if "meta" not in tables:
                return None
            found = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        finally:
            db.close()
    except sqlite3.OperationalError as err:
        raise StudyError(f"{path}: cannot use the database ({err})") from None
    except sqlite3.DatabaseError as err:
        raise StudyError(f"{path}: not a planner study database ({err})") from None
    return None if found is None else str(found[0])


class StudyStore:
    """A study database of one kind.

    Parameters
    ----------
    path
        The SQLite file.
    readonly
        Open an existing database for reading only (``report``, ``export``, ``list``):
        nothing is ever written to it. Otherwise the database is opened for a run:
        created if missing or empty, locked against a concurrent run, and
        :attr:`writable` tells whether rows can be added.

    Raises
    ------
    StudyError
        One line: the file is missing (read-only), not an SQLite database, one that
        planner did not create, damaged, or locked by another run.
    """

    FORMAT: ClassVar[str]
    SCHEMA: ClassVar[str]
    TABLE: ClassVar[str] = "rows"
    """The rows table."""
    COLUMNS: ClassVar[tuple[str, ...]]
    """The columns read back (and exported), in order."""
    ORDER: ClassVar[str]
    """The ``ORDER BY`` of a study's rows."""
    SPEC_COLUMN: ClassVar[str] = "spec"
    DONE_TABLE: ClassVar[str] = "done"
    UNIT: ClassVar[tuple[str, ...]]
    """The columns naming one unit of work (in the rows and in the done table)."""
    UNIT_NAME: ClassVar[str]

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.writable = False
        self._lock: RunLock | None = None
        self._specs: dict[int, Any] = {}
        try:
            if readonly:
                self.db = _open_readonly(self.path)
            else:
                if Path(self.path).is_dir():
                    raise StudyError(f"{self.path}: cannot use the database (a directory)")
                self._lock = RunLock.acquire(self.path)
                self.db = _connect(self.path)
            self._check()
        except StudyError:
            self._release()
            raise
        except sqlite3.OperationalError as err:
            self._release()
            raise StudyError(f"{self.path}: cannot use the database ({err})") from None
        except sqlite3.DatabaseError as err:
            self._release()
            raise StudyError(f"{self.path}: not a planner study database ({err})") from None

    # --- what a kind provides ------------------------------------------------------------

    @classmethod
    def spec_from_dict(cls, data: dict[str, Any]) -> Any:
        """Return the kind's spec from its JSON data."""
        raise NotImplementedError

    def _insert(self, study: int, result: Any) -> None:
        """Insert one unit's rows and done record (inside the write transaction)."""
        raise NotImplementedError

    def _recorded(self, study: int) -> dict[Hashable, int] | None:
        """Return the rows each finished unit recorded (None: the rows are the record)."""
        cur = self.db.execute(f"SELECT {', '.join(self.UNIT)}, rows FROM {self.DONE_TABLE} "
                              "WHERE study = ?", (study,))  # fmt: skip
        return {self._unit(r[:-1]): int(r[-1]) for r in cur}

    def _verify_grid(self, study: int, rows: list[dict[str, Any]], **checks: Any) -> None:
        """Raise StudyError unless each unit's rows form the kind's full grid."""

    def _decode(self, row: dict[str, Any]) -> dict[str, Any]:
        return row

    # --- opening ---------------------------------------------------------------------------

    def _release(self) -> None:
        if getattr(self, "db", None) is not None:
            self.db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _check(self) -> None:
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            if self.readonly:
                raise StudyError(f"{self.path}: not a planner study database (empty)")
            # schema and format marker in one transaction (kill -9 safe)
            marker = f"INSERT INTO meta VALUES ('format', '{self.FORMAT}');"
            self.db.executescript("BEGIN;" + self.SCHEMA + marker + "COMMIT;")
            self.writable = True
            return
        fmt = None
        if "meta" in tables:
            fmt = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if fmt is None or fmt[0] != self.FORMAT:
            found = fmt[0] if fmt else "no planner format marker"
            raise StudyError(f"{self.path}: not a {self.FORMAT} database ({found})")
        if _schema(self.db) != _expected_schema(self.SCHEMA):
            raise StudyError(f"{self.path}: the database is damaged (its tables or columns "
                             f"differ from the {self.FORMAT} schema)")  # fmt: skip
        (verdict,) = self.db.execute("PRAGMA integrity_check(1)").fetchone()
        if verdict != "ok":  # e.g. "*** in database main ***\nPage 7: ...": one line
            detail = [x.strip() for x in verdict.splitlines() if x.strip().strip("*").strip()
                      and not x.startswith("***")]  # fmt: skip
            raise StudyError(f"{self.path}: the database is damaged "
                             f"({'; '.join(detail) or verdict.strip()})")  # fmt: skip
        self.studies()  # every study's parameters parse
        if not self.readonly:
            self.writable = self._probe_write()

    def _probe_write(self) -> bool:
        """Return True when a transaction can write the file (it is rolled back)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            # a new row (an unchanged UPDATE passes in a read-only folder: no journal needed)
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('write-probe', '')")
        except sqlite3.OperationalError as err:
            if "readonly" in str(err) or "read-only" in str(err):
                return False
            raise  # e.g. locked by another program: "cannot use the database (...)"
        finally:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        return True

    def close(self) -> None:
        """Close the connection (and release the run lock)."""
        self._release()
        self.db = None  # type: ignore[assignment]

    def __enter__(self: _Store) -> _Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- studies ---------------------------------------------------------------------------

    def study(self, spec: Any, version: str) -> int:
        """Return the id of the study for ``spec`` and ``version``, creating it if new."""
        found = self.find(spec, version)
        if found is not None:
            return found
        self.require_writable("add a study")
        now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        with guard(self.path):
            cur = self.db.execute(
                f"INSERT INTO study (key, {self.SPEC_COLUMN}, version, created) "
                "VALUES (?, ?, ?, ?)",
                (spec.key(version), json.dumps(spec.to_dict(), sort_keys=True), version, now),
            )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def find(self, spec: Any, version: str) -> int | None:
        """Return the id of the study for ``spec`` and ``version`` (None: not in the database)."""
        with guard(self.path):
            row = self.db.execute("SELECT id FROM study WHERE key = ?", (spec.key(version),))
            found = row.fetchone()
        return None if found is None else int(found[0])

    def require_writable(self, what: str) -> None:
        """Raise StudyError when the database cannot be written."""
        if not self.writable:
            raise StudyError(f"{self.path}: cannot {what}: the database is read-only")

    def studies(self) -> list[dict[str, Any]]:
        """Return every study: id, spec, version, created, units done."""
        out = []
        with guard(self.path):
            records = self.db.execute(f"SELECT id, {self.SPEC_COLUMN}, version, created FROM "
                                      "study ORDER BY id").fetchall()  # fmt: skip
            counts = dict(self.db.execute(
                f"SELECT study, COUNT(*) FROM {self.DONE_TABLE} GROUP BY study"))  # fmt: skip
        for sid, params, version, created in records:
            try:  # parsed once per open store (a cluster spec may generate a workload)
                spec = self._specs.get(sid) or self.spec_from_dict(json.loads(params))
            except (ValueError, TypeError, KeyError) as err:
                first = str(err).splitlines()[0] if str(err) else type(err).__name__
                raise StudyError(f"{self.path}: the database is damaged (study {sid} has "
                                 f"unreadable parameters: {first})") from None  # fmt: skip
            self._specs[sid] = spec
            out.append({"id": sid, "spec": spec, "version": version, "created": created,
                        "done": counts.get(sid, 0)})  # fmt: skip
        return out

    def info(self, study: int) -> dict[str, Any]:
        """Return one study's record (id, spec, version, created, done)."""
        for record in self.studies():
            if record["id"] == study:
                return record
        raise StudyError(f"{self.path}: no study {study}")

    def done(self, study: int) -> set[Any]:
        """Return the units already written for ``study`` (verify them with :meth:`rows`)."""
        with guard(self.path):
            cur = self.db.execute(f"SELECT {', '.join(self.UNIT)} FROM {self.DONE_TABLE} "
                                  "WHERE study = ?", (study,))  # fmt: skip
            return {self._unit(r) for r in cur}

    @staticmethod
    def _unit(values: tuple[Any, ...]) -> Hashable:
        return values[0] if len(values) == 1 else tuple(values)

    # --- writing and reading -----------------------------------------------------------------

    def write(self, study: int, result: Any) -> None:
        """Write one unit's rows and done record in one transaction.

        Ctrl-C is held back until the transaction has committed or rolled back.
        """
        self.require_writable("write rows")
        with sigint_deferred():
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self._insert(study, result)
                self.db.execute("COMMIT")
            except sqlite3.IntegrityError:
                self._rollback()
                raise
            except sqlite3.DatabaseError as err:
                self._rollback()
                raise StudyError(f"{self.path}: cannot write the database ({err})") from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def rows(self, study: int) -> list[dict[str, Any]]:
        """Return the study's rows in order, verified against its done records.

        Raises
        ------
        StudyError
            The database is damaged (rows are missing, extra or off the grid).
        """
        return self._read(study)

    def study_rows(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        """Return the verified rows of the study ``info`` (a record of :meth:`studies`),
        checked against its spec as well as its done records."""
        return self.rows(info["id"])

    def _read(self, study: int, **checks: Any) -> list[dict[str, Any]]:
        """Read rows and done records in one transaction (a consistent snapshot, even while
        a run writes), then verify them."""
        with guard(self.path):
            self.db.execute("BEGIN")
            try:
                recorded = self._recorded(study)
                rows = list(self.iter_rows(study))
            finally:
                self.db.execute("COMMIT")
        if recorded is not None:
            self._verify_counts(study, rows, recorded)
        self._verify_grid(study, rows, **checks)
        return rows

    def iter_rows(self, study: int) -> Iterator[dict[str, Any]]:
        """Yield the study's rows in order (unverified: use :meth:`rows`)."""
        names = list(self.COLUMNS)
        cur = self.db.execute(f"SELECT {', '.join(names)} FROM {self.TABLE} WHERE study = ? "
                              f"ORDER BY {self.ORDER}", (study,))  # fmt: skip
        for values in cur:
            yield self._decode(dict(zip(names, values, strict=True)))

    def damaged(self, study: int) -> str:
        """Return the start of a damage message about ``study``."""
        return f"{self.path}: the database is damaged: study {study}"

    def _verify_counts(self, study: int, rows: list[dict[str, Any]],
                       recorded: dict[Hashable, int]) -> None:  # fmt: skip
        counts = Counter(self._unit(tuple(r[c] for c in self.UNIT)) for r in rows)
        unit = self.UNIT_NAME
        extra = sorted(set(counts) - set(recorded), key=repr)
        if extra:
            raise StudyError(f"{self.damaged(study)} has rows of "
                             f"{plural(len(extra), 'unfinished ' + unit)} "
                             f"(first: {extra[0]})")  # fmt: skip
        short = sorted((i for i, n in recorded.items() if counts.get(i, 0) != n), key=repr)
        if short:
            i = short[0]
            raise StudyError(f"{self.damaged(study)} holds {len(rows)} rows where its finished "
                             f"{unit}s recorded {sum(recorded.values())} ({unit} {i}: "
                             f"{counts.get(i, 0)} of {recorded[i]})")  # fmt: skip


def _schema(db: sqlite3.Connection) -> set[tuple[str, str, str]]:
    return {
        (t, n, s or "")
        for t, n, s in db.execute("SELECT type, name, sql FROM sqlite_master")
        if not n.startswith("sqlite_stat")
    }


_EXPECTED: dict[str, set[tuple[str, str, str]]] = {}


def _expected_schema(schema: str) -> set[tuple[str, str, str]]:
    if schema not in _EXPECTED:
        mem = sqlite3.connect(":memory:")
        mem.executescript(schema)
        _EXPECTED[schema] = _schema(mem)
        mem.close()
    return _EXPECTED[schema]
