"""Certify the ``optimal`` claims of docs/benchmarks.md's joint tables a second time, each in a
child process (docs/benchmarks.md, "Certificates").

Usage::

    python benchmarks/certify_joint.py [--claims cg,joint] [--only LABEL]
        [--compact-limit 600] [--milp-limit 3600]

Per claim (a css2015 batch, an objective, the placed count and value the table proves):
first the compact CP-SAT model (``solve_joint(solver="cpsat")``, no column generation, its
proof the integer comparison of docs/guarantees.md) within ``--compact-limit`` seconds;
where it does not finish, the independent time-indexed MILP of
:mod:`validation.joint_milp` (built from the data alone, solved by SCIP with zero gaps)
within ``--milp-limit``. A claim is *certified* when the second solver proves the same
placed count and value; *refuted* when it finds a better solution; otherwise *open*.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

CLAIMS: dict[str, tuple[dict[str, Any], int, int]] = {
    # label: (case, placed, value) -- docs/benchmarks.md, "Column generation for the joint
    # model" (css2015 default batch, problem (8) at the two-phase t*; Σ finish)
    "cg p8 seed 2": ({"seed": 2, "objective": "p8"}, 12, 8042),
    "cg p8 seed 4": ({"seed": 4, "objective": "p8"}, 15, 9979),
    "cg p8 seed 10": ({"seed": 10, "objective": "p8"}, 13, 6900),
    # "Joint co-allocation" (css2015 seed 0, the first k jobs)
    "joint proc_time 5": ({"seed": 0, "objective": "proc_time", "jobs": 5}, 5, 534),
    "joint proc_time 10": ({"seed": 0, "objective": "proc_time", "jobs": 10}, 9, 956),
    "joint proc_time 15": ({"seed": 0, "objective": "proc_time", "jobs": 15}, 12, 1205),
    "joint finish 5": ({"seed": 0, "objective": "finish", "jobs": 5}, 5, 343),
    "joint p7 5": ({"seed": 0, "objective": "p7", "jobs": 5}, 5, 534),
    "joint p7 10": ({"seed": 0, "objective": "p7", "jobs": 10}, 9, 956),
    "joint p7 15": ({"seed": 0, "objective": "p7", "jobs": 15}, 12, 1205),
}
"""Every ``optimal`` of docs/benchmarks.md's joint tables."""

PROBLEM_PARTS = {7: ("proc_time", "cost"), 8: ("cost", "proc_time")}
"""Problem → (objective, constrained metric), time = proc_time."""


def _setup(case: dict[str, Any]) -> tuple[Any, list[str], dict[str, Any]]:
    """Return the instance, the batch and the solve_joint arguments of a claim, the limits of
    a problem from the two-phase run as ``planner combine --joint`` takes them."""
    from instances import generate
    from models import solve_combination
    from planner import find_alternatives

    inst = generate("css2015", case["seed"])
    ids = [j.id for j in inst.jobs][: case.get("jobs", len(inst.jobs))]
    obj = case["objective"]
    if obj[:1] == "p" and obj[1:].isdigit():
        problem = int(obj[1:])
        two = solve_combination(find_alternatives(inst, "amp", jobs=ids).by_job(), problem, "dp")
        return inst, ids, {"problem": problem, "t_star": two.info["t_star"],
                           "b_star": two.info["b_star"]}
    return inst, ids, {"objective": obj}


def compact(case: dict[str, Any], limit: float) -> dict[str, Any]:
    """The compact CP-SAT model on the claim (in a child process)."""
    from models import solve_joint

    inst, ids, kw = _setup(case)
    began = time.perf_counter()
    r = solve_joint(inst, solver="cpsat", jobs=ids, time_limit=limit, progress=False, **kw)
    return {"status": r.status, "placed": len(r.windows), "value": r.objective,
            "bound": r.bound, "seconds": time.perf_counter() - began}


def milp(case: dict[str, Any], placed: int, limit: float) -> dict[str, Any]:
    """The independent time-indexed MILP on the claim (in a child process)."""
    import dataclasses

    from validation.joint_milp import certify

    inst, ids, kw = _setup(case)
    inst = dataclasses.replace(inst, jobs=tuple(j for j in inst.jobs if j.id in ids))
    if "problem" in kw:
        f, g = PROBLEM_PARTS[kw["problem"]]
        sides = [(g, kw["t_star"] if g == "proc_time" else kw["b_star"])]
    else:
        f, sides = kw["objective"], []
    began = time.perf_counter()
    out = certify(inst, f, sides, time_limit=limit)
    return {**out, "seconds": time.perf_counter() - began}


def main() -> None:
    """Certify the chosen claims; print one row each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", default="cg,joint")
    ap.add_argument("--only", default=None, help="one claim label")
    ap.add_argument("--compact-limit", type=float, default=600.0)
    ap.add_argument("--milp-limit", type=float, default=3600.0)
    args = ap.parse_args()
    groups = args.claims.split(",")
    spawn = multiprocessing.get_context("spawn")
    print("| claim | placed | value | compact model | time-indexed MILP (SCIP) | verdict |")
    print("|---|---|---|---|---|---|")
    for label, (case, placed, value) in CLAIMS.items():
        if (args.only and label != args.only) or label.split()[0] not in groups:
            continue
        with ProcessPoolExecutor(1, mp_context=spawn) as pool:
            c = pool.submit(compact, case, args.compact_limit).result()
        c_text = (f"{c['status']} {c['value']} (bound {c['bound']}, {c['placed']} placed, "
                  f"{c['seconds']:.0f} s)")
        verdict = "open"
        if c["status"] == "optimal" and c["placed"] == placed:
            verdict = "certified (compact)" if c["value"] == value else "REFUTED"
        m_text = "–"
        if verdict == "open":
            with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                m = pool.submit(milp, case, placed, args.milp_limit).result()
            m_text = (f"placed {m.get('placed')} (bound {m.get('placed_bound')}), value "
                      f"{m.get('value')} bound {m.get('bound')}, {m['seconds']:.0f} s, "
                      f"{m['options x starts']:,} option-starts")
            if m.get("placed") == placed == m.get("placed_bound"):
                if m.get("value") is not None and m["value"] < value:
                    verdict = "REFUTED"
                elif m.get("bound") == value == m.get("value"):
                    verdict = "certified (MILP)"
            elif m.get("placed") is not None and m["placed"] > placed:
                verdict = "REFUTED"
        if c["status"] in ("optimal", "feasible") and c["placed"] == placed and (
                c["value"] is not None and c["value"] < value):
            verdict = "REFUTED"
        print(f"| {label} | {placed} | {value} | {c_text} | {m_text} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
