"""The VO policy of a job-flow cycle as a callable: a combination problem (6)–(9).

Toporkov et al. 2015, §2.3: the metascheduler chooses one alternative per
job by one of the problems (6)–(9); the flow layer (``planner.vo``) takes
the choice as a callable so that it stays below the models layer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from models.combination.problem import TIMES, problem_of
from models.combination.solve import COMBINATION_SOLVERS, solve_combination


@dataclass(frozen=True)
class VoPolicy:
    """Job id → alternatives ↦ the windows chosen by combination ``problem`` (picklable).

    Limits are the defaults of ``solve_combination`` (t* of eq. (5); b* the
    floor of the summed mean alternative costs). Problem 7 (least Σ time
    under the VO budget) is the policy of the paper's §6.3 ("the average job
    execution time T_CPU minimization task"), with time = proc_time ("the
    sum of slot lengths being part of the composed window").
    """

    problem: int = 7
    time: str = "proc_time"
    solver: str = "dp"

    def __post_init__(self) -> None:
        problem_of(self.problem)
        if self.time not in TIMES:
            raise ValueError(f"time must be one of {', '.join(TIMES)}, not {self.time!r}")
        if self.solver not in COMBINATION_SOLVERS:
            raise ValueError(f"unknown combination solver '{self.solver}'")

    def __call__(self, alternatives: Mapping[str, Sequence[Any]]) -> Sequence[Any]:
        """Return the chosen windows (jobs without alternatives get none)."""
        result = solve_combination(alternatives, self.problem, self.solver, time=self.time)
        if result.status != "optimal":
            raise RuntimeError(f"combination problem {self.problem} ended {result.status}")
        return result.windows
