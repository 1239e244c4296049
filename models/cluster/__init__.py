"""Exact models of cluster snapshots (Klusáček & Rudová 2008): fewest delayed jobs, then Cmax."""

from models.cluster.milp import solve_snapshot_milp
from models.cluster.snapshot import snapshot_durations, solve_snapshot

__all__ = ["snapshot_durations", "solve_snapshot", "solve_snapshot_milp"]
