"""Readings of the batch combination's limits b* and t*, for the ``amp-vs-alp`` sensitivity table.

Toporkov et al. 2011 §2 only says that TM and CM are solved by the
dynamic programming of its reference [2] under "a limit ... on the maximum
value for a total usage cost of resources in the current scheduling
iteration", the VO budget; the limits are defined in Toporkov et al. 2015
§2.3: t* = Σ_i ⌈Σ_j t_i(s_j) / l_i⌉ (eq. (5)), the mean "time of slot
occupation" of each job's l_i alternatives, and b* the VO budget. Readings:

- ``mean``: b* = ⌊Σ_i mean cost⌋, t* = Σ_i ⌈mean runtime⌉ over each search's
  own alternatives (the library's defaults, docs/concepts.md; used);
- ``proc_time``: "time of slot occupation" read as CPU time Σ d_i (the
  window's total slot occupation): TM minimises Σ CPU time, CM's t* is
  Σ_i ⌈mean CPU time⌉;
- ``none``: no limit (as b* = Σ_i S_i, the jobs' own budgets, would be for
  AMP, whose alternatives each cost at most S_i): TM takes each job's
  fastest alternative, CM its cheapest;
- ``alp`` / ``amp``: one VO budget and time limit per cycle for both
  searches, the ``mean`` limits of ALP's (or AMP's) alternatives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from models import Result

LIMITS = {
    "mean": "b* = Σ mean cost, t* = Σ ⌈mean runtime⌉ of each search's own alternatives (used)",
    "proc_time": "time = slot occupation Σ d_i (CPU time): TM min Σ CPU time, t* = Σ ⌈mean CPU⌉",
    "none": "no limit (for AMP the same as b* = Σ S_i): TM fastest, CM cheapest per job",
    "alp": "one b*, t* per cycle for both searches, from ALP's alternatives",
    "amp": "one b*, t* per cycle for both searches, from AMP's alternatives",
}


def combine(
    found: Mapping[str, Mapping[str, Sequence[Any]]], algorithm: str, problem: int, reading: str
) -> Result:
    """Solve combination ``problem`` (7 TM or 8 CM) for ``found[algorithm]`` under ``reading``.

    ``found``: search name (``alp``, ``amp``) → job id → alternatives.
    """
    from models import solve_combination
    from models.combination.problem import Table

    by_job = found[algorithm]
    if reading not in LIMITS:
        raise ValueError(f"unknown limits reading '{reading}' (one of {', '.join(LIMITS)})")
    if reading == "proc_time":
        return solve_combination(by_job, problem, "dp", time="proc_time")
    if reading == "mean":
        return solve_combination(by_job, problem, "dp", time="runtime")
    if reading == "none":
        table = Table.of(by_job, "runtime")
        t_star = sum(max(row) for row in table.time)
        b_star = sum(max(row) for row in table.cost)
    else:
        table = Table.of(found[reading], "runtime")
        t_star, b_star = table.default_limit("time"), table.default_limit("cost")
    return solve_combination(by_job, problem, "dp", time="runtime", t_star=t_star, b_star=b_star)
