"""Exact models of cluster snapshots (Klusáček & Rudová 2008): fewest delayed jobs, then Cmax."""

from models.cluster.snapshot import snapshot_durations, solve_snapshot

__all__ = ["snapshot_durations", "solve_snapshot"]
