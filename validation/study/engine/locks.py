"""Locks of a study run: the run lock on ``DB.lock``, Ctrl-C held back during a commit,
and SQLite errors turned into one-line :class:`StudyError` s (docs/study-reliability.md)."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from validation.study.engine.errors import StudyError


@contextmanager
def guard(path: str) -> Iterator[None]:
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


class RunLock:
    """An exclusive, non-blocking lock on ``DB.lock``, held while a run uses the database.

    The operating system releases it when the process ends (``kill -9`` included), so a
    stale lock file never blocks a later run; the file is removed on release. The lock is
    retried when the file was replaced between opening and locking it.
    """

    def __init__(self, fh: Any, path: str) -> None:
        self.fh, self.path = fh, path

    @classmethod
    def acquire(cls, db: str) -> RunLock | None:
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
        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
