"""Solving a PuLP model with CBC, PuLP's bundled binary, run as a subprocess.

One place for the CBC quirks both MILPs (window selection and combination)
meet: CBC 2.10.3's integer preprocessing is off (:data:`CBC_OPTIONS`),
``-threads 1`` is never passed (it now and then stalls for 10 s), the best
bound is read from CBC's log (PuLP does not report it), and "infeasible" is
reported only when the log proves it and no time limit may have cut CBC short.
"""

from __future__ import annotations

import os
import re
import tempfile
import warnings
from typing import TYPE_CHECKING

from models.backends import import_pulp

if TYPE_CHECKING:
    import pulp

CBC_OPTIONS: tuple[str, ...] = ("preprocess off",)
"""Options every CBC run gets. CBC 2.10.3 wrongly fixes variables in its integer
preprocessing of some small models and then reports a suboptimal solution as
optimal (tests/models/test_combination.py), so that preprocessing stays off."""

_PROOF = re.compile(r"Problem is infeasible|Result - (Problem proven|Linear relaxation) infeasible")
_BOUND = re.compile(r"(?:Lower bound|best possible)[:\s]+(-?[0-9.eE+-]+)")
_WALL = re.compile(r"Wallclock seconds\):\s+([0-9.]+)")


def _cut_short(log: str, time_limit: float | None) -> bool:
    """Return True when a time limit may have stopped CBC (an "infeasible" is then unproven).

    CBC 2.10 may report infeasibility when the limit strikes during cut
    generation, and PuLP reports "infeasible" when CBC stops on time without
    a solution, so the verdict counts only if CBC finished well within the limit.
    """
    if time_limit is None:
        return False
    found = _WALL.findall(log)
    return not found or float(found[-1]) >= 0.5 * time_limit


def solve_cbc(
    prob: pulp.LpProblem, *, time_limit: float | None, threads: int
) -> tuple[str, float | None]:
    """Solve the minimisation ``prob`` in place; return ``(status, best proven bound or None)``.

    The status is a :data:`models.STATUSES` name; variable values are left on
    ``prob``'s variables as PuLP sets them.
    """
    lp = import_pulp()
    fd, log_path = tempfile.mkstemp(suffix=".log", prefix="planner-cbc-")
    os.close(fd)
    try:
        with warnings.catch_warnings():
            # PuLP >= 3.3 deprecates its bundled CBC; it is still the one CBC every install has.
            warnings.simplefilter("ignore", DeprecationWarning)
            cbc = lp.PULP_CBC_CMD(
                msg=False,
                timeLimit=time_limit,
                threads=threads if threads > 1 else None,
                gapRel=0.0,
                gapAbs=0.0,
                logPath=log_path,
                options=list(CBC_OPTIONS),
            )
            prob.solve(cbc)
        with open(log_path, encoding="utf-8", errors="replace") as fh:
            log = fh.read()
    finally:
        os.unlink(log_path)
    if prob.sol_status == lp.LpSolutionOptimal:
        status = "optimal"
    elif prob.sol_status == lp.LpSolutionIntegerFeasible:
        status = "feasible"
    elif (
        prob.status == lp.LpStatusInfeasible
        and _PROOF.search(log)
        and not _cut_short(log, time_limit)
    ):
        status = "infeasible"
    else:
        status = "unknown"
    found = _BOUND.findall(log)
    bound = float(found[-1]) if found and status != "infeasible" else None
    return status, bound
