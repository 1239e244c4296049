"""Exact models of cluster snapshots (Klusáček & Rudová 2008): fewest delayed jobs, then Cmax."""

from models.cluster.bounds import snapshot_bounds
from models.cluster.cg_solve import lex_gap, solve_snapshot_cg
from models.cluster.milp import solve_snapshot_milp
from models.cluster.snapshot import snapshot_durations, solve_snapshot_cpsat
from models.cluster.solve import check_snapshot, solve_snapshot

__all__ = [
    "check_snapshot",
    "lex_gap",
    "snapshot_bounds",
    "snapshot_durations",
    "solve_snapshot",
    "solve_snapshot_cg",
    "solve_snapshot_cpsat",
    "solve_snapshot_milp",
]
