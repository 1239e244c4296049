"""The time budget of the ``cg`` solver (docs/exact-models.md, "Time budget"): every stage's
share of the one deadline of :func:`models.solve_joint`, named here and nowhere else.

A :class:`planner.deadline.Share` is a part of the whole limit: ``by`` — the stage ends once
that part has passed since the solve began; ``most`` — it lasts at most that part from when
it starts; ``least`` — but at least that part (the integer masters: a first incumbent must
be found even when the Python work before them ran late on a loaded machine); a stage never
runs past the deadline it is cut from. Without a limit every stage
runs to its own end (the neighbourhood search then solves :data:`SEARCH_ROUNDS`
neighbourhoods). The enumeration close, branch-and-price and the compact close take what
is left, each step only when at least ``close_least`` of the limit is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.deadline import Share


@dataclass(frozen=True)
class Budget:
    """Each stage's :class:`Share` of the limit, in the order the stages run.

    Parameters
    ----------
    seeding
        The heuristic alternatives that seed the columns (:func:`models.solve_joint`).
    seed_master
        The integer master over the seeded columns: the first incumbent.
    count_lp
        Phase 1's column generation, bounding the placed count.
    count_master
        The integer master over phase 1's columns.
    root_lp
        Phase 2's column generation to the root bound.
    root_cuts
        The rounds of robust cuts at the converged root (:mod:`models.joint.cg.strengthen`).
    integer_master
        The integer master over the root's columns.
    dive
        Diving with limited discrepancy from the root (:mod:`models.joint.cg.diving`);
        ``most=0`` skips it.
    search
        The large-neighbourhood search (:mod:`models.joint.cg.lns`); ``most=0`` skips it.
    tree_heuristic
        Each integer-master run inside branch-and-price.
    close_least
        Least part of the limit that must be left for a step of the close to start — the
        listing after the search, the set packing, branch-and-price (a fraction, not a
        share): SCIP's model alone takes seconds to build for a listing of 8,000 windows,
        and branch-and-price's root node seconds on css2015 batches, so less would only
        overrun the limit.
    """

    seeding: Share
    seed_master: Share
    count_lp: Share
    count_master: Share
    root_lp: Share
    root_cuts: Share
    integer_master: Share
    dive: Share
    search: Share
    tree_heuristic: Share
    close_least: float


BUDGET = Budget(
    seeding=Share(by=0.05),
    seed_master=Share(by=0.1, least=0.01),
    count_lp=Share(by=0.3),
    count_master=Share(by=0.4, least=0.01),
    root_lp=Share(by=0.55),
    root_cuts=Share(by=0.6),
    integer_master=Share(by=0.7, most=0.15, least=0.01),
    dive=Share(most=0.1),
    search=Share(most=0.3),
    tree_heuristic=Share(most=0.03),
    close_least=0.05,
)
"""The shares the ``cg`` solver uses (measured on css2015 batches, docs/benchmarks.md)."""

SCIP_RESERVE = 0.5
"""Seconds before the deadline at which SCIP's set packing is told to stop, whatever its
size: SCIP reads its clock between LP solves and separation rounds, and stopped up to 0.5 s
after its limit (css2015 seed 1, problem (8), a set packing of 7,694 windows, 60 s)."""

SCIP_TEARDOWN = 0.35
"""Seconds more kept free before the deadline per second that the set packing's model took
to build, computed before SCIP starts (:func:`models.joint.cg.packing.solve_packing`): past
SCIP's limit, its late stop and the freeing of its model (which holds the interpreter's
lock, so nothing else runs meanwhile) grow with the model and slow down with the machine
as its building does. Measured on css2015 seed 3, problem (8), a listing of 19,134 windows:
past :data:`SCIP_RESERVE` they took 0.16 s per second of building (5.4–6.0 s to build; 1.3–1.5 s
late stop and freeing) at a load of 1, and 0.17 with three such solves on the 2 cores
(16–17 s to build; 3.3–3.6 s); Σ finish seed 9's 6,340 windows 0.05 (2.0 s; 0.6 s). About
twice the largest."""

SEARCH_ROUNDS = 100
"""Neighbourhoods the large-neighbourhood search solves when there is no time limit."""

SEED_ALTERNATIVES = 100
"""Most heuristic alternatives per job that seed the columns: a batch of very long slots
holds tens of thousands per job (each one a column of the first integer master), where
css2015 batches hold at most a dozen."""
