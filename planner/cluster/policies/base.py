"""The policy interface of the cluster simulator: one small class per policy.

A policy is constructed once per replay with the engine's
:class:`~planner.cluster.cluster.Cluster` (free CPUs, running jobs with their
planned ends, planned durations, ``start``) and an optional reservation log.
The engine then calls, at each instant and in this order:

1. :meth:`Policy.complete` for every job that ended (CPUs already freed; a job
   of actual duration 0 ends inside ``cluster.start``, so its ``complete``
   comes during the pass that started it);
2. :meth:`Policy.submit` for every job submitted now, in queue order;
3. :meth:`Policy.schedule` once: start jobs with ``cluster.start(job, m)``.

Between instants the engine jumps to the earliest of the next completion, the
next submission and :meth:`Policy.wakeup` (a policy that plans starts in the
future, such as conservative backfilling or a schedule-based policy with
per-machine planned schedules, returns its next planned start there).

Queue-based policies keep their own waiting list (FCFS and EASY in queue
order; Flexible backfilling would re-sort it by priority in ``submit`` and
``complete``); schedule-based policies (EG-EDF, Tabu search of Klusáček &
Rudová 2008) keep a per-machine schedule of planned starts and start what is
due. Adding a policy is one module: subclass :class:`Policy`, set ``name``,
and add its module and class names to :data:`planner.cluster.policies.POLICIES`.
"""

from __future__ import annotations

from typing import ClassVar

from planner.cluster.cluster import Cluster
from planner.cluster.reservations import ReservationLog


class Policy:
    """Base class of the scheduling policies (see the module docstring for the protocol).

    Parameters
    ----------
    cluster
        The engine's machine state; ``cluster.now`` is the current instant.
    log
        Where reservations go (``None``: not recorded).
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    needs_running: ClassVar[bool] = True
    """Whether the policy reads ``cluster.running`` (False: the engine does not keep it)."""

    def __init__(self, cluster: Cluster, *, log: ReservationLog | None = None) -> None:
        self.cluster = cluster
        self.log = log

    def submit(self, job: int) -> None:
        """Take job ``job`` (an index in queue order), submitted now."""
        raise NotImplementedError

    def complete(self, job: int) -> None:
        """Learn that ``job`` ended now (its CPUs are already free)."""

    def schedule(self) -> None:
        """Run one scheduling pass at ``cluster.now``."""
        raise NotImplementedError

    def wakeup(self) -> int | None:
        """Return the next instant this policy needs a pass without any event, or None."""
        return None
