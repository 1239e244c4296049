"""The errors a study ends with, each one line (docs/study-reliability.md).

- :class:`StudyError`: bad input (an unknown name, a value out of range, a damaged or
  foreign database, an unwritable output): exit 2, nothing computed.
- :class:`StudyFailure`: the study could not go on (a worker process died, the workers
  could not be started, a distributed worker cannot run a unit, no worker is left):
  exit 1; every unit written so far is kept and rerunning the same command resumes.
"""

from __future__ import annotations


class StudyError(ValueError):
    """Bad study input (unknown family, parameter, algorithm, solver, database): one line."""


class StudyFailure(RuntimeError):
    """The study stopped: its workers failed. Finished units are kept; rerun to resume."""


class WorkerLost(StudyFailure):
    """A worker process died; the units written so far are kept (rerun to resume)."""


class WorkerStartError(StudyFailure):
    """The worker processes could not be started or fed (not a user error)."""
