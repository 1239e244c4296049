"""Where study tasks run: in-process, a local process pool, or a Dask cluster
(:mod:`validation.study.engine.dask`).

An executor maps a picklable function over instance indices and yields the
results as they complete (in any order); the parent writes them. Rows do not
depend on the executor: every seed derives from the study seed and the
instance index only.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from validation.study.engine.errors import StudyError, WorkerLost, WorkerStartError
from validation.study.engine.main_guard import check_main_guard

__all__ = ["Executor", "LocalExecutor", "SerialExecutor", "WorkerLost", "WorkerStartError",
           "make_executor"]


def _quiet_tracker() -> None:
    """Start multiprocessing's resource tracker with its stderr on the null device.

    The tracker outlives an interrupted study by a moment and warns, on the stderr it
    inherits, about each semaphore of the worker pool still registered then (after
    Ctrl-C the process ends without the interpreter's shutdown: ``planner.cli.entry``);
    those warnings would follow the study's single "interrupted" line. The semaphores are
    released first where possible (``planner.cli._release_semaphores``)."""
    from multiprocessing import resource_tracker

    if getattr(resource_tracker._resource_tracker, "_fd", None) is not None:
        return  # already running
    sys.stderr.flush()
    null = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(2)
    try:
        os.dup2(null, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)

class Executor(Protocol):
    """Runs ``fn(item)`` for each item and yields the results as they complete."""

    name: str

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield ``fn(item)`` for every item, in completion order."""
        ...

    def close(self) -> None:
        """Release workers and connections."""
        ...

    def abort(self) -> None:
        """Release them at once, dropping running tasks (after Ctrl-C or an error)."""
        ...


def cores() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_workers(threads: int = 1) -> int:
    """Return the worker count so that workers × solver threads ≤ cores (at least 1)."""
    return max(1, cores() // max(1, threads))


class SerialExecutor:
    """Run every task in this process (one worker; no pickling)."""

    name = "serial"

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield ``fn(item)`` in item order."""
        for item in items:
            yield fn(item)

    def close(self) -> None:
        """Nothing to release."""

    def abort(self) -> None:
        """Nothing to release."""


def _exit_with_parent() -> None:
    """Pool-worker initializer: ignore Ctrl-C, and end when the study process dies.

    Ctrl-C reaches every process of the terminal's process group; the parent alone handles
    it (it stops the workers), so a worker never prints a traceback. A worker whose parent
    is gone (``kill -9``) would otherwise block on its task queue for ever, holding its
    memory; a daemon thread waits on the parent's sentinel and exits the worker.
    """
    import multiprocessing as mp
    import signal
    import threading
    from multiprocessing.connection import wait

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # ignored from now on
    parent = mp.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="planner-parent-watch", daemon=True).start()


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Hold Ctrl-C back while workers are spawned; it is delivered afterwards.

    SIGINT is blocked in this thread (the workers inherit the mask, so a Ctrl-C during
    their start-up cannot print a traceback), and Python's handler is deferred too: the
    signal may reach another thread of the pool, and a KeyboardInterrupt raised in the
    middle of a spawn would leave a worker reading half its start-up data (it then prints
    ``EOFError: Ran out of input``), outside the pool's list of workers to kill.
    """
    from validation.study.engine.locks import sigint_deferred

    with sigint_deferred():
        if not hasattr(signal, "pthread_sigmask"):
            yield
            return
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


class LocalExecutor:
    """A local process pool (``spawn`` start method: same behaviour on every OS).

    At most two tasks per worker are queued at a time, so a huge study never holds its
    whole task list. Workers ignore Ctrl-C; on Ctrl-C (or any error) the parent kills them
    at once. They also exit by themselves when the study process is killed
    (:func:`_exit_with_parent`).
    """

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Submit items (a bounded number at a time), yield results as they complete."""
        import multiprocessing as mp
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        check_main_guard()
        items = iter(items)
        pending: set[Any] = set()

        def fill() -> None:
            with _sigint_blocked():
                for item in items:
                    pending.add(self._pool.submit(fn, item))
                    if len(pending) >= 2 * self.workers:
                        break

        try:
            with _sigint_blocked():
                _quiet_tracker()
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=mp.get_context("spawn"),
                    initializer=_exit_with_parent,
                )  # fmt: skip
            fill()
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    pending.discard(fut)
                    yield fut.result()
                fill()
        except BrokenProcessPool:
            self.abort()
            raise WorkerLost("a worker process died; rerun the same command to resume") from None
        except (BrokenPipeError, EOFError, ConnectionError) as err:
            self.abort()
            raise WorkerStartError(f"the worker processes failed ({type(err).__name__}: "
                                   f"{err})") from None  # fmt: skip
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        """Kill the workers now (Ctrl-C, an error): running tasks are dropped, not awaited."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        for proc in procs:
            if proc.is_alive():
                proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            proc.join(timeout=5)

    def close(self) -> None:
        """Shut the pool down (pending tasks are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


SCHEDULER_SCHEMES: tuple[str, ...] = ("tcp", "tls", "ws", "wss", "ucx")


def check_scheduler(address: str) -> str:
    """Return a Dask scheduler ``address`` (``[SCHEME://]HOST:PORT``) after checking its form.

    Raises
    ------
    StudyError
        One line: not an address (checked without connecting).
    """
    import re
    from urllib.parse import urlsplit

    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    bad = (f"--scheduler '{address}' is not an address (expected [SCHEME://]HOST:PORT, "
           f"SCHEME one of {', '.join(SCHEDULER_SCHEMES)})")
    if scheme not in SCHEDULER_SCHEMES or not rest or re.search(r"[\s/?#@]", rest):
        raise StudyError(bad)
    try:
        parts = urlsplit(f"{scheme}://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:
        raise StudyError(bad) from None
    if not host or port is None or not 0 < port < 65536:
        raise StudyError(bad)
    if not re.fullmatch(r"[A-Za-z0-9._-]+|[0-9A-Fa-f:.]+", host):
        raise StudyError(bad)
    return address


def make_executor(
    kind: str = "local", *, workers: int | None = None, threads: int = 1,
    scheduler: str | None = None,
) -> Executor:  # fmt: skip
    """Return the executor ``kind`` (``local`` or ``dask``); 1 local worker runs in-process."""
    n = workers or default_workers(threads)
    if kind == "local":
        return SerialExecutor() if n == 1 else LocalExecutor(n)
    if kind == "dask":
        from validation.study.engine.dask import DaskExecutor

        return DaskExecutor(None if scheduler is None else check_scheduler(scheduler), n)
    raise StudyError(f"unknown executor '{kind}' (choose from: local, dask)")
