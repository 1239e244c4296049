"""Column generation for joint co-allocation (docs/exact-models.md): a master LP over windows,
an exact pricing oracle per job, a Lagrangian bound, then an integer phase in CP-SAT."""

from models.joint.cg.solve import CG_METRICS, solve_cg

__all__ = ["CG_METRICS", "solve_cg"]
