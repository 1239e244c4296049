"""The slot-search algorithm registry: the names of ``planner solve --algorithm`` and the tests.

Every entry says which docs/concepts.md criterion it serves (``None``: the job's own,
for CSA / MultipleBest) and whether it is exact over the AEP space of docs/concepts.md
(the best window among those starting at a suitable slot's start). The
registry is the one list of names: the CLI, the tests and the benchmarks
read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from instances import Instance, Job, Slot
from planner.heuristics.algorithms import Solver, aep_solver, csa_solver, first_fit_solver
from planner.heuristics.selectors import cheapest, dp_selector, random_subset, swap, threshold
from planner.window import Window


@dataclass(frozen=True)
class Algorithm:
    """A registered slot-search algorithm.

    Parameters
    ----------
    name
        Registry name (``--algorithm`` value).
    criterion
        The docs/concepts.md criterion it optimises; None means the job's own (CSA).
    exact
        True when it returns an optimum of its criterion over the AEP space.
    source
        Paper and section it implements (author-year, docs/references.md), or the
        docs page of a method beyond the papers.
    summary
        One line: what it does.
    aliases
        Other accepted names (the papers' own).
    resumable
        True for the first-fit searches (AMP, ALP): on a slot list shrunk by
        subtraction their window never starts earlier than before (every
        window of the smaller list is one of the larger), so a repeated
        search may skip the part of the list before its previous start.
    """

    name: str
    criterion: str | None
    exact: bool
    source: str
    summary: str
    aliases: tuple[str, ...] = ()
    solver: Solver = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    resumable: bool = False

    def solve(
        self,
        instance: Instance,
        job: Job,
        *,
        slots: Sequence[Slot] | None = None,
        seed: int = 0,
    ) -> Window | None:
        """Return the window this algorithm finds for ``job``, or None."""
        criterion = self.criterion or job.criterion
        return self.solver(instance, job, criterion, slots, np.random.default_rng(seed))


_AMP = first_fit_solver(price_cap=False)
_SWAP = aep_solver(swap, exact_steps=False)
_LITE = aep_solver(cheapest, exact_steps=False)
_DP = aep_solver(dp_selector, exact_steps=True)
_THRESHOLD = aep_solver(threshold, exact_steps=True)

ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm("alp", "min_start", False, "Toporkov et al. 2011 §3 (ALP)",
                  "first n alive slots priced <= C (max_price, else S/(V n)); no budget",
                  solver=first_fit_solver(price_cap=True), resumable=True),
        Algorithm("amp", "min_start", True, "Toporkov et al. 2011 §3 (AMP); "
                  "Toporkov & Yemelyanov 2018 §4.2 (FirstFit)",
                  "first step whose n cheapest alive slots fit the budget",
                  ("first_fit",), _AMP, resumable=True),
        Algorithm("min_finish", "min_finish", False, "Toporkov et al. 2012 §2.2; "
                  "Toporkov et al. 2015 §6.1 item 3",
                  "AEP with the runtime swap heuristic, valued by finish", solver=_SWAP),
        Algorithm("min_cost", "min_cost", True, "Toporkov et al. 2012 §2.2; "
                  "Toporkov et al. 2015 §6.1 item 4",
                  "AEP with the n cheapest alive slots", solver=aep_solver(cheapest,
                                                                           exact_steps=True)),
        Algorithm("min_runtime", "min_runtime", False, "Toporkov et al. 2015 §6.1 item 2, "
                  "Algorithm 2",
                  "AEP with the runtime swap heuristic", solver=_SWAP),
        Algorithm("min_proc_time", "min_proc_time", False, "Toporkov et al. 2012 §3.1 item 5",
                  "AEP with a seeded random feasible subset (the paper's simplified form)",
                  solver=aep_solver(random_subset, exact_steps=False)),
        Algorithm("max_q", "max_q", True, "Toporkov & Yemelyanov 2018 §3.3, §4.2 (MaxQ)",
                  "AEP with the knapsack DP of docs/algorithms.md", solver=_DP),
        Algorithm("max_q_lite", "max_q", False, "Toporkov & Yemelyanov 2018 §4.2 (MaxQ Lite)",
                  "AEP valuing the n cheapest alive slots", solver=_LITE),
        Algorithm("dep", "dep", True, "Toporkov & Yemelyanov 2018 §3.4, §4.3 (DEP)",
                  "AEP with the knapsack DP on the near distance", solver=_DP),
        Algorithm("dep_lite", "dep", False, "Toporkov & Yemelyanov 2018 §4.3 (DEP Lite)",
                  "AEP valuing the n cheapest alive slots", solver=_LITE),
        Algorithm("coord", "coord", True, "Toporkov & Yemelyanov 2018 §3.4, §4.3 (COORD)",
                  "AEP with the knapsack DP on the far distance", solver=_DP),
        Algorithm("coord_lite", "coord", False, "Toporkov & Yemelyanov 2018 §4.3 (COORD Lite)",
                  "AEP valuing the n cheapest alive slots", solver=_LITE),
        Algorithm("csa", None, False, "Toporkov et al. 2012 §3.1 item 6 (CSA); "
                  "Toporkov & Yemelyanov 2018 §4.2 (MultipleBest)",
                  "best of the disjoint AMP alternatives by the job's criterion",
                  ("multiple_best",), csa_solver),
        Algorithm("min_runtime_exact", "min_runtime", True, "planner (beyond the papers; "
                  "docs/exact-models.md)",
                  "AEP with the least feasible duration threshold", solver=_THRESHOLD),
        Algorithm("min_finish_exact", "min_finish", True, "planner (beyond the papers; "
                  "docs/exact-models.md)",
                  "AEP with the least feasible duration threshold, valued by finish",
                  solver=_THRESHOLD),
        Algorithm("min_proc_time_exact", "min_proc_time", True, "docs/algorithms.md",
                  "AEP with the knapsack DP on task durations", solver=_DP),
    )
}  # fmt: skip

JOINT_SOLVERS: dict[str, str] = {
    "cpsat": "two-stage lexicographic CP-SAT model (OR-Tools)",
    "cg": "column generation: LP bound over windows, then CP-SAT (docs/exact-models.md)",
    "auto": "the better measured default of cpsat and cg (docs/benchmarks.md)",
}
"""Joint co-allocation methods (``solve_joint(solver=)``, ``planner combine --joint --solver``)."""

ALIASES: dict[str, str] = {alias: a.name for a in ALGORITHMS.values() for alias in a.aliases}


def resolve(name: str) -> Algorithm:
    """Return the algorithm registered as ``name`` or as an alias; KeyError naming the options."""
    if name in ALGORITHMS:
        return ALGORITHMS[name]
    if name in ALIASES:
        return ALGORITHMS[ALIASES[name]]
    from instances.errors import did_you_mean

    names = ", ".join([*ALGORITHMS, *ALIASES])
    hint = did_you_mean(name, [*ALGORITHMS, *ALIASES])
    raise KeyError(f"unknown algorithm '{name}'{hint} (choose from: {names})")


SNAPSHOT_SOLVERS: dict[str, str] = {
    "cpsat": "CP-SAT, one optional interval per job and machine, two lexicographic stages",
    "milp": "time-indexed MILP by CBC (tiny snapshots; the cross-check)",
    "cg": "policy schedules, column-generation bounds (time-indexed LP), then CP-SAT with them",
    "auto": "cg above 20 jobs, cpsat up to 20",
}
"""The snapshot solvers of ``models.cluster.solve_snapshot`` and ``planner study schedule-gap
--solver`` (Klusáček & Rudová 2008's lexicographic objective; docs/exact-models.md)."""
