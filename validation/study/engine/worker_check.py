"""What every Dask worker runs before its first unit: can it run planner's units?

This module imports nothing of planner at its top, and the Dask executor sends it to the
workers by value (``cloudpickle.register_pickle_by_value``), so it runs even on a
worker that cannot import planner, and says so, instead of dying on the first unit it
is sent (``ModuleNotFoundError: No module named 'validation'``) and leaving the study
waiting for ever. :func:`check` imports the packages a unit needs and compares the
worker's planner with the client's (version and a digest of its source files);
:class:`PlannerCheck` runs it on every worker that joins later and logs the result as
a Dask event (:data:`TOPIC`) that the client reads while the study runs.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Sequence
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

TOPIC = "planner-worker-check"
"""The Dask event topic of the workers' reports."""

PACKAGES = ("planner", "models", "instances", "validation")


def source_digest() -> str:
    """Return a SHA-256 digest of planner's Python sources (the four packages, as imported)."""
    planner = importlib.import_module("planner")
    root = os.path.dirname(os.path.dirname(os.path.abspath(planner.__file__)))
    h = hashlib.sha256()
    for pkg in PACKAGES:
        for folder, dirs, files in sorted(os.walk(os.path.join(root, pkg))):
            dirs.sort()
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(folder, name)
                h.update(os.path.relpath(path, root).replace(os.sep, "/").encode())
                with open(path, "rb") as fh:
                    h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def check(version: str, digest: str, modules: Sequence[str]) -> dict[str, Any]:
    """Return this process's report: ``error`` is None when it can run the client's units.

    It must import ``modules`` (the unit's own module among them) and run planner
    ``version`` with the same sources (``digest``) as the client.
    """
    try:
        for name in (*PACKAGES, *modules):
            importlib.import_module(name)
        found = importlib.import_module("planner").__version__
        mine = source_digest()
    except Exception as err:  # any import failure is the report, not a crash
        return {"error": f"{type(err).__name__}: {err}"}
    if found != version:
        return {"error": f"it runs planner {found}, the client planner {version}"}
    if mine != digest:
        return {"error": f"its planner {found} has other source files than the client's "
                         f"(digest {mine[:12]}, the client's {digest[:12]})"}  # fmt: skip
    return {"error": None}


class PlannerCheck(WorkerPlugin):
    """Run :func:`check` on every worker as it joins, before it takes a unit; log the result
    as a ``TOPIC`` event (the worker's address and name, and the error or None)."""

    name = "planner-check"

    def __init__(self, version: str, digest: str, modules: Sequence[str]) -> None:
        self.version, self.digest, self.modules = version, digest, tuple(modules)

    def setup(self, worker: Any) -> None:
        """Check the worker and report (never raises: the client decides)."""
        report = check(self.version, self.digest, self.modules)
        worker.log_event(TOPIC, {"worker": worker.address, "name": str(worker.name), **report})
