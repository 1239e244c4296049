"""Cluster job flows: an event-driven simulator with pluggable scheduling policies.

Machines of identical CPUs, space-shared; rigid jobs each on one machine;
FCFS, EASY and conservative backfilling (Klusáček & Rudová 2008; Mu'alem &
Feitelson 2001). See ``docs/job-flows.md``.
"""

from planner.cluster.cluster import Cluster, InvariantError
from planner.cluster.engine import ESTIMATES, apply_estimates, simulate
from planner.cluster.policies import POLICIES, Policy
from planner.cluster.records import JobRecord, Replay
from planner.cluster.reservations import ReservationLog

__all__ = [
    "ESTIMATES",
    "POLICIES",
    "Cluster",
    "InvariantError",
    "JobRecord",
    "Policy",
    "Replay",
    "ReservationLog",
    "apply_estimates",
    "simulate",
]
