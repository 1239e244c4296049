"""Joint co-allocation of a batch (docs/exact-models.md): all windows at once, by the compact
CP-SAT model or by column generation (:mod:`models.joint.cg`)."""

from models.joint.solve import JOINT_SOLVERS, SENSES, solve_joint

__all__ = ["JOINT_SOLVERS", "SENSES", "solve_joint"]
