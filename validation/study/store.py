"""The SQLite store of a gap study: one row per instance × geometry × job × algorithm.

Each instance's rows, its ``done`` marker and (for error rows) its instance
file are written in one transaction (Ctrl-C is held back until it commits),
so a study killed at any point (``kill -9`` included) leaves only whole
instances behind; rerunning the same study skips them and ends with exactly
the rows of an uninterrupted run.

A store verifies what it reads (docs/study-reliability.md): on opening, the
format marker, the exact schema, every study's parameters and SQLite's
``PRAGMA integrity_check``; on reading a study, its rows against the
instances recorded as done (count per instance and the full
geometry × job × algorithm grid). A damaged or foreign file is a one-line
:class:`StudyError`, never a short study. A store opened for a run holds an
exclusive lock (``DB.lock``, released when the process ends, ``kill -9``
included) so that two runs never write one database at once.

One database may hold several studies. A study is identified by its spec and
the package version (:meth:`StudySpec.key`): the same command reuses (and
resumes) its study, different parameters or a new version start a new one.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import signal
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
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
    """A study database.

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

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.writable = False
        self._lock: Any = None
        try:
            if readonly:
                if not Path(self.path).is_file():
                    raise StudyError(f"{self.path}: no such file")
                uri = Path(self.path).absolute().as_uri() + "?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                if Path(self.path).is_dir():
                    raise StudyError(f"{self.path}: cannot use the database (a directory)")
                self._lock = _RunLock.acquire(self.path)
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
            marker = f"INSERT INTO meta VALUES ('format', '{FORMAT}');"
            self.db.executescript("BEGIN;" + _SCHEMA + marker + "COMMIT;")
            self.writable = True
            return
        fmt = None
        if "meta" in tables:
            fmt = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if fmt is None or fmt[0] != FORMAT:
            found = fmt[0] if fmt else "no planner format marker"
            raise StudyError(f"{self.path}: not a {FORMAT} database ({found})")
        if _schema(self.db) != _expected_schema():
            raise StudyError(f"{self.path}: the database is damaged (its tables or columns "
                             f"differ from the {FORMAT} schema)")  # fmt: skip
        (verdict,) = self.db.execute("PRAGMA integrity_check(1)").fetchone()
        if verdict != "ok":
            raise StudyError(f"{self.path}: the database is damaged ({verdict})")
        self.studies()  # every study's parameters parse
        if not self.readonly:
            self.writable = self._probe_write()

    def _probe_write(self) -> bool:
        """Return True when a transaction can write the file (it is rolled back)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE meta SET value = value WHERE key = 'format'")
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
        self._require_writable("add a study")
        now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        with _guard(self.path):
            cur = self.db.execute(
                "INSERT INTO study (key, params, version, created) VALUES (?, ?, ?, ?)",
                (key, json.dumps(spec.to_dict(), sort_keys=True), version, now),
            )
        return int(cur.lastrowid)

    def find(self, spec: StudySpec, version: str) -> int | None:
        """Return the id of the study for ``spec`` and ``version`` (None: not in the database)."""
        row = self.db.execute("SELECT id FROM study WHERE key = ?", (spec.key(version),))
        found = row.fetchone()
        return None if found is None else int(found[0])

    def _require_writable(self, what: str) -> None:
        if not self.writable:
            raise StudyError(f"{self.path}: cannot {what}: the database is read-only")

    def studies(self) -> list[dict[str, Any]]:
        """Return every study: id, spec, version, created, instances done."""
        out = []
        with _guard(self.path):
            records = self.db.execute(
                "SELECT id, params, version, created FROM study ORDER BY id"
            ).fetchall()
            counts = dict(self.db.execute("SELECT study, COUNT(*) FROM done GROUP BY study"))
        for sid, params, version, created in records:
            try:
                spec = StudySpec.from_dict(json.loads(params))
            except (ValueError, TypeError) as err:
                first = str(err).splitlines()[0] if str(err) else type(err).__name__
                raise StudyError(f"{self.path}: the database is damaged (study {sid} has "
                                 f"unreadable parameters: {first})") from None  # fmt: skip
            out.append({"id": sid, "spec": spec, "version": version, "created": created,
                        "done": counts.get(sid, 0)})  # fmt: skip
        return out

    def done(self, study: int) -> set[int]:
        """Return the indices of the instances already written for ``study``."""
        with _guard(self.path):
            cur = self.db.execute("SELECT instance FROM done WHERE study = ?", (study,))
            return {int(r[0]) for r in cur}

    def write(self, study: int, result: InstanceResult) -> None:
        """Write one instance's rows, done marker and error instance in one transaction.

        Ctrl-C is held back until the transaction has committed or rolled back.
        """
        self._require_writable("write rows")
        names = [n for n, _ in COLUMNS]
        sql = f"INSERT INTO rows ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        values = [[study if n == "study" else _cell(n, r[n]) for n in names] for r in result.rows]
        with sigint_deferred():
            try:
                self.db.execute("BEGIN IMMEDIATE")
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

    def rows(
        self, study: int, algorithms: tuple[str, ...] = (),
        geometries: tuple[str, ...] | None = None,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """Return the study's rows in key order (booleans as bool), verified.

        The rows and the ``done`` table are read in one transaction (a consistent
        snapshot, even while a run writes), then checked: every finished instance
        has exactly the rows it recorded, forming the full geometry × job ×
        algorithm grid (over ``algorithms`` when given; over ``geometries`` when
        given, ``()`` meaning the instance's own geometry alone), and no other
        instance has rows.

        Raises
        ------
        StudyError
            The database is damaged (rows are missing or extra).
        """
        with _guard(self.path):
            self.db.execute("BEGIN")
            try:
                recorded = dict(
                    self.db.execute("SELECT instance, rows FROM done WHERE study = ?", (study,))
                )
                rows = list(self.iter_rows(study))
            finally:
                self.db.execute("COMMIT")
        _verify(self.path, study, rows, recorded, algorithms, geometries)
        return rows

    def iter_rows(self, study: int) -> Iterator[dict[str, Any]]:
        """Yield the study's rows in key order (unverified: use :meth:`rows`)."""
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
        with _guard(self.path):
            cur = self.db.execute(
                "SELECT instance, text FROM error_instance WHERE study = ? ORDER BY instance",
                (study,),
            )
            return [(int(i), t) for i, t in cur]


def _connect(path: str) -> sqlite3.Connection:
    """Open (or create) ``path`` for a run; SQLite falls back to read-only for a file it
    cannot write, which :meth:`Store._probe_write` then detects."""
    return sqlite3.connect(path, isolation_level=None)


def _verify(path: str, study: int, rows: list[dict[str, Any]], recorded: dict[int, int],
            algorithms: tuple[str, ...], geometries: tuple[str, ...] | None) -> None:  # fmt: skip
    """Raise StudyError unless ``rows`` are exactly the recorded instances' full grids."""
    counts = Counter(r["instance"] for r in rows)
    damaged = f"{path}: the database is damaged: study {study}"
    extra = sorted(set(counts) - set(recorded))
    if extra:
        raise StudyError(f"{damaged} has rows of {len(extra)} unfinished instance(s) "
                         f"(first: {extra[0]})")  # fmt: skip
    short = sorted(i for i, n in recorded.items() if counts.get(i, 0) != n)
    if short:
        i = short[0]
        raise StudyError(f"{damaged} holds {len(rows)} rows where its finished instances "
                         f"recorded {sum(recorded.values())} (instance {i}: "
                         f"{counts.get(i, 0)} of {recorded[i]})")  # fmt: skip
    grids: dict[int, tuple[set[Any], set[Any], set[Any]]] = {}
    for r in rows:
        g = grids.setdefault(r["instance"], (set(), set(), set()))
        g[0].add(r["geometry"]), g[1].add(r["job"]), g[2].add(r["algorithm"])
    for i, (geos, jobs, algs) in grids.items():
        full = len(geos) * len(jobs) * len(algs) == counts[i]
        if algorithms and algs != set(algorithms):
            full = False
        if geometries is not None and (geos != set(geometries) if geometries else len(geos) != 1):
            full = False
        if not full:
            raise StudyError(f"{damaged}: instance {i} does not have one row per geometry "
                             "× job × algorithm")  # fmt: skip


@contextmanager
def _guard(path: str) -> Iterator[None]:
    """Turn an SQLite error while reading into a one-line StudyError (damaged or unusable)."""
    try:
        yield
    except sqlite3.OperationalError as err:
        raise StudyError(f"{path}: cannot use the database ({err})") from None
    except sqlite3.DatabaseError as err:
        raise StudyError(f"{path}: the database is damaged ({err})") from None


@contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while the block runs; deliver it afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored or not set from Python: nothing to defer
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            previous(signal.SIGINT, None)


def _schema(db: sqlite3.Connection) -> set[tuple[str, str, str]]:
    return {
        (t, n, s or "")
        for t, n, s in db.execute("SELECT type, name, sql FROM sqlite_master")
        if not n.startswith("sqlite_stat")
    }


_EXPECTED: list[set[tuple[str, str, str]]] = []


def _expected_schema() -> set[tuple[str, str, str]]:
    if not _EXPECTED:
        mem = sqlite3.connect(":memory:")
        mem.executescript(_SCHEMA)
        _EXPECTED.append(_schema(mem))
        mem.close()
    return _EXPECTED[0]


class _RunLock:
    """An exclusive, non-blocking lock on ``DB.lock``, held while a run uses the database.

    The operating system releases it when the process ends (``kill -9`` included), so a
    stale lock file never blocks a later run; the file is removed on release. The lock is
    retried when the file was replaced between opening and locking it.
    """

    def __init__(self, fh: Any, path: str) -> None:
        self.fh, self.path = fh, path

    @classmethod
    def acquire(cls, db: str) -> _RunLock | None:
        path = db + ".lock"
        while True:
            try:
                fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
            except OSError:
                return None  # a read-only place: nothing can write the database either
            try:
                _lock_file(fh)
            except OSError:
                fh.seek(0)
                holder = fh.read().strip()
                fh.close()
                who = f" (pid {holder})" if holder.isdigit() else ""
                raise StudyError(f"{db}: another planner study is running on this database"
                                 f"{who}; wait for it to finish or use another --db") from None
            try:
                same = os.path.samestat(os.fstat(fh.fileno()), os.stat(path))
            except OSError:
                same = False
            if same:
                break
            fh.close()  # the holder removed it meanwhile: lock the new file
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        return cls(fh, path)

    def release(self) -> None:
        """Remove the lock file and unlock (closing the file releases the lock)."""
        with suppress(OSError):
            os.unlink(self.path)
        self.fh.close()


def _lock_file(fh: Any) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def _cell(name: str, value: Any) -> Any:
    if name in _BOOL and value is not None:
        return int(bool(value))
    return value
