"""Joint co-allocation of a small batch (docs/exact-models.md): all windows at once, CP-SAT."""

from models.joint.solve import JOINT_SOLVERS, SENSES, solve_joint

__all__ = ["JOINT_SOLVERS", "SENSES", "solve_joint"]
