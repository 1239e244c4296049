"""Solve a PuLP model with HiGHS in a separate Python process.

ortools 9.15 and highspy 1.15 bundle clashing HiGHS builds: whichever is
imported second fails with an undefined-symbol ImportError. Running highspy
in a child process (this file run as a script on an MPS file) keeps the
HiGHS backend usable in a process that has loaded CP-SAT, and the reverse.
The child prints one JSON object: status, objective, bound and the non-zero
column values by name.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pulp


def solve_mps(
    prob: pulp.LpProblem, *, time_limit: float | None = None, threads: int = 1
) -> tuple[str, dict[str, float], float | None]:
    """Return ``(status, {variable name: value}, best bound)`` of a minimisation ``prob``."""
    fd, path = tempfile.mkstemp(suffix=".mps", prefix="planner-highs-")
    os.close(fd)
    try:
        prob.writeMPS(path)
        # -I and a script path: the child imports neither this package nor OR-Tools
        cmd = [sys.executable, "-I", os.path.abspath(__file__), path, str(threads)]
        if time_limit is not None:
            cmd.append(str(float(time_limit)))
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    finally:
        os.unlink(path)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"HiGHS subprocess failed: {tail}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["status"], out["values"], out["bound"]


def _run(path: str, threads: int, time_limit: float | None) -> dict[str, Any]:
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", threads)
    h.setOptionValue("random_seed", 0)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    if time_limit is not None:
        h.setOptionValue("time_limit", time_limit)
    h.readModel(path)
    h.run()
    ms = h.getModelStatus()
    info = h.getInfo()
    has_solution = info.primal_solution_status == 2
    if ms == highspy.HighsModelStatus.kOptimal:
        status = "optimal"
    elif ms == highspy.HighsModelStatus.kInfeasible:
        status = "infeasible"
    else:
        status = "feasible" if has_solution else "unknown"
    values: dict[str, float] = {}
    if has_solution:
        cols = h.getSolution().col_value
        for i, v in enumerate(cols):
            if abs(v) > 1e-9:
                values[h.getColName(i)[1]] = float(v)
    # without a solution HiGHS may report 0 as its dual bound: not a proven one
    bound = float(info.mip_dual_bound) if status in ("optimal", "feasible") else None
    if bound is not None and abs(bound) == float("inf"):
        bound = None
    return {"status": status, "values": values, "bound": bound}


if __name__ == "__main__":
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else None
    print(json.dumps(_run(sys.argv[1], int(sys.argv[2]), limit)))
