"""Exact single-job window selection (docs/concepts.md, §6): CP-SAT, MILP and DP, one per module.

The modules import their solver library on import; :func:`models.solve_window`
imports only the one it is asked for.
"""
