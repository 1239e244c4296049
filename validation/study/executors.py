"""Where study tasks run: in-process, a local process pool, or a Dask cluster.

An executor maps a picklable function over instance indices and yields the
results as they complete (in any order); the parent writes them. Rows do not
depend on the executor: every seed derives from the study seed and the
instance index only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol


class WorkerLost(RuntimeError):
    """A worker process died; the instances written so far are kept (rerun to resume)."""


class Executor(Protocol):
    """Runs ``fn(item)`` for each item and yields the results as they complete."""

    name: str

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield ``fn(item)`` for every item, in completion order."""
        ...

    def close(self) -> None:
        """Release workers and connections."""
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


def _exit_with_parent() -> None:
    """Pool-worker initializer: end the worker when the study process dies (``kill -9`` too).

    A worker whose parent is gone would otherwise block on its task queue for ever, holding
    its memory; a daemon thread waits on the parent's sentinel and exits the worker.
    """
    import multiprocessing as mp
    import threading
    from multiprocessing.connection import wait

    parent = mp.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="planner-parent-watch", daemon=True).start()


class LocalExecutor:
    """A local process pool (``spawn`` start method: same behaviour on every OS).

    Workers exit by themselves when the study process is killed (:func:`_exit_with_parent`).
    """

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: Any = None

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Submit every item, yield results as they complete."""
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed
        from concurrent.futures.process import BrokenProcessPool

        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=mp.get_context("spawn"), initializer=_exit_with_parent
        )
        futures = [self._pool.submit(fn, item) for item in items]
        try:
            for fut in as_completed(futures):
                yield fut.result()
        except BrokenProcessPool:
            raise WorkerLost("a worker process died; rerun the same command to resume") from None
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        """Shut the pool down (pending tasks are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskExecutor:
    """Dask distributed: a scheduler ``address``, or a loopback LocalCluster of ``workers``."""

    name = "dask"

    def __init__(self, address: str | None = None, workers: int = 2) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            from validation.study.spec import StudyError

            raise StudyError("--executor dask needs: pip install 'planner[dask]'") from None
        self._cluster = None
        if address is None:
            self._cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None,
            )  # fmt: skip
            address = self._cluster.scheduler_address
        try:
            self.client = Client(address, timeout=30)
        except OSError as err:
            from validation.study.spec import StudyError

            raise StudyError(f"cannot reach the Dask scheduler at {address} ({err})") from None

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Submit every item to the cluster, yield results as they complete."""
        from distributed import as_completed

        futures = self.client.map(fn, list(items), pure=False)
        try:
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            self.client.cancel(futures)

    def close(self) -> None:
        """Close the client (and the LocalCluster this executor started)."""
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(
    kind: str = "local", *, workers: int | None = None, threads: int = 1,
    scheduler: str | None = None,
) -> Executor:  # fmt: skip
    """Return the executor ``kind`` (``local`` or ``dask``); 1 local worker runs in-process."""
    n = workers or default_workers(threads)
    if kind == "local":
        return SerialExecutor() if n == 1 else LocalExecutor(n)
    if kind == "dask":
        return DaskExecutor(scheduler, n)
    from validation.study.spec import StudyError

    raise StudyError(f"unknown executor '{kind}' (choose from: local, dask)")
