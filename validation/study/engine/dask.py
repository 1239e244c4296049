"""Study units on a Dask cluster, ending loudly when a worker cannot run them.

A distributed study must never wait for ever. Before the first unit is sent, every
worker connected to the scheduler runs :func:`~validation.study.engine.worker_check.check`
(it imports planner and the unit's module, and compares its planner version and source
digest with the client's); workers that join later run the same check as they join
(:class:`~validation.study.engine.worker_check.PlannerCheck`) and report it as a Dask
event. While units run, the client polls: a worker whose check failed, a unit that
raised on a worker, or no worker left for :data:`WAIT_S` seconds ends the study with one
line naming the worker and the cause (:class:`~validation.study.engine.errors.StudyFailure`).
The units written so far are kept; rerunning the same command resumes. Only the client
writes the database. docs/several-machines.md.
"""

from __future__ import annotations

import itertools
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from validation.study.engine.errors import StudyError, StudyFailure

WAIT_S = float(os.environ.get("PLANNER_DASK_WAIT", "10"))
"""Seconds a study waits for a worker when none is connected (at the start, or after the
last one left): the ``PLANNER_DASK_WAIT`` environment variable (default 10)."""

POLL_S = 0.25
"""Seconds between the client's looks at the workers while units run."""

RERUN = "the units written so far are kept; rerun the same command to resume"


def _worker(address: str, name: Any) -> str:
    return f"Dask worker {address}" + (f" ({name})" if name and str(name) != address else "")


def run_unit(fn: Callable[[Any], Any], item: Any) -> Any:
    """Run one unit on a worker; an exception names the worker (sent by value, as the check)."""
    try:
        return fn(item)
    except Exception as err:
        from distributed import get_worker

        w = get_worker()
        raise RuntimeError(f"{_worker(w.address, w.name)} failed on a unit: "
                           f"{type(err).__name__}: {err}") from None  # fmt: skip


def _quiet() -> None:
    """Silence Dask's and asyncio's loggers in this process: a study reports its failures in
    one line of its own (the workers' and the scheduler's logs keep theirs)."""
    names = [n for n in logging.root.manager.loggerDict if n.startswith("distributed")]
    for name in ("distributed", "asyncio", *names):
        logging.getLogger(name).setLevel(logging.CRITICAL)


class DaskExecutor:
    """Dask distributed: a scheduler ``address``, or a loopback LocalCluster of ``workers``."""

    name = "dask"

    def __init__(self, address: str | None = None, workers: int = 2) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise StudyError("--executor dask needs: pip install 'planner[dask]'") from None
        from validation.study.engine.main_guard import check_main_guard

        _quiet()
        self._cluster = None
        if address is None:
            check_main_guard()  # the LocalCluster's worker processes are spawned too
            self._cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None,
            )  # fmt: skip
            address = self._cluster.scheduler_address
        self.address = address
        try:
            self.client = Client(address, timeout=15)
        except (OSError, ValueError, TypeError) as err:
            raise StudyError(f"cannot reach the Dask scheduler at {address} ({err})") from None
        self._events = 0
        self._known: dict[str, str] = {}  # address -> name, of the workers seen so far
        self._alone_since: float | None = None

    # --- the checks -------------------------------------------------------------------

    def _check_workers(self, fn: Callable[[Any], Any]) -> None:
        """Check every connected worker (waiting up to WAIT_S for a first one) and install
        the check for those that join later."""
        import cloudpickle

        from planner import __version__
        from validation.study.engine import worker_check

        cloudpickle.register_pickle_by_value(worker_check)
        cloudpickle.register_pickle_by_value(sys.modules[__name__])  # run_unit
        unit = getattr(fn, "func", fn)
        modules = (unit.__module__,)
        digest = worker_check.source_digest()
        self._wait_for_a_worker("joined")
        self.client.register_plugin(worker_check.PlannerCheck(__version__, digest, modules))
        reports = self.client.run(worker_check.check, __version__, digest, modules,
                                  on_error="return")  # fmt: skip
        names = self._names()
        for address, report in sorted(reports.items()):
            error = report.get("error") if isinstance(report, dict) else (
                f"{type(report).__name__}: {report}")  # fmt: skip
            if error:
                self._fail(address, names.get(address), error)
        self._known.update(names)
        self._events = len(self.client.get_events(worker_check.TOPIC))

    def _names(self) -> dict[str, str]:
        workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        return {a: str(w.get("name", a)) for a, w in workers.items()}

    def _wait_for_a_worker(self, verb: str) -> None:
        try:
            self.client.wait_for_workers(1, timeout=WAIT_S)
        except Exception:  # distributed's TimeoutError (its class moved between versions)
            raise StudyFailure(f"no Dask worker {verb} the scheduler at {self.address} within "
                               f"{WAIT_S:g} s (PLANNER_DASK_WAIT); start workers "
                               f"(docs/several-machines.md); {RERUN}") from None

    def _fail(self, address: str, name: Any, error: str) -> None:
        raise StudyFailure(f"{_worker(address, name)} cannot run a unit: {error}; every worker "
                           "needs this planner (docs/several-machines.md); " + RERUN)

    def _watch(self) -> None:
        """Between results: end the study on a failed check of a joining worker, or when no
        worker has been left for WAIT_S seconds."""
        from validation.study.engine.worker_check import TOPIC

        if self.client.status not in ("running", "connecting"):
            raise StudyFailure(f"lost the Dask scheduler at {self.address}; " + RERUN)
        events = self.client.get_events(TOPIC)
        for _, report in events[self._events:]:
            if report.get("error"):
                self._fail(report["worker"], report.get("name"), report["error"])
        self._events = len(events)
        now = self._names()
        left = [a for a in self._known if a not in now]
        self._known.update(now)
        if now:
            self._alone_since = None
            return
        if self._alone_since is None:
            self._alone_since = time.monotonic()
        elif time.monotonic() - self._alone_since > WAIT_S:
            last = f" (the last, {_worker(left[-1], self._known[left[-1]])}, left)" if left \
                else ""  # fmt: skip
            raise StudyFailure(f"no Dask worker is left at the scheduler {self.address}{last} "
                               f"for {WAIT_S:g} s; {RERUN}")  # fmt: skip

    # --- running ----------------------------------------------------------------------

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Check the workers, then submit items (two per worker thread at a time) and yield
        the results as they complete; end with a :class:`StudyFailure` line when a worker
        cannot run a unit or none is left."""
        import functools

        from distributed import wait

        self._check_workers(fn)
        task = functools.partial(run_unit, fn)
        items = iter(items)
        slots = 2 * max(1, sum(self.client.nthreads().values()))
        pending = {self.client.submit(task, x, pure=False) for x in itertools.islice(items, slots)}
        try:
            while pending:
                try:
                    done = wait(list(pending), timeout=POLL_S, return_when="FIRST_COMPLETED").done
                except Exception:  # distributed's TimeoutError: nothing completed yet
                    done = set()
                for fut in done:
                    pending.discard(fut)
                    if fut.status == "error":
                        raise StudyFailure(f"{_unit_error(fut.exception())}; {RERUN}")
                    if fut.status == "cancelled":
                        raise StudyFailure(f"lost the Dask scheduler at {self.address}; {RERUN}")
                    yield self._result(fut)
                    for x in itertools.islice(items, 1):
                        pending.add(self.client.submit(task, x, pure=False))
                self._watch()
        finally:
            if pending and self.client.status == "running":
                self.client.cancel(list(pending))

    def _result(self, fut: Any) -> Any:
        """Fetch a finished unit's result from the worker holding it, watching the workers
        while it takes (a worker that hangs holds its results)."""
        from distributed import TimeoutError as DaskTimeout

        while True:
            try:
                return fut.result(timeout=POLL_S)
            except (TimeoutError, DaskTimeout):
                self._watch()

    def abort(self) -> None:
        """Close at once (the tasks were cancelled when the iteration ended)."""
        self.close()

    def close(self) -> None:
        """Close the client (and the LocalCluster this executor started); idempotent."""
        if self.client.status != "closed":
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _unit_error(err: BaseException | None) -> str:
    """Return the one-line cause of a failed unit (KilledWorker names the last worker)."""
    text = str(err).splitlines()[0] if err is not None and str(err) else type(err).__name__
    if type(err).__name__ == "KilledWorker":
        return f"a unit killed every Dask worker that ran it ({text})"
    return text
