"""Fuzz: the cg solver with its root cuts on against the compact model, on tiny batches large
enough for the root to be fractional (docs/exact-models.md, "Cuts").

Usage::

    python benchmarks/fuzz_cuts.py [--start 0] [--cases 300] [--jobs 6] [--close enumerate]
        [--family robust|subset-row|both]

Per seed: ``tiny`` with ``--jobs`` jobs, geometry rough/square by parity, objective Σ
finish, Σ start, Σ proc_time, Σ cost in turn; cg with cuts on (at most 3 per round, so that
rounds repeat) and its gap closed as ``--close`` says (``enumerate`` or ``branch``), then
cpsat. A result is wrong when cg claims ``optimal`` at another value than cpsat's optimum,
does not prove it, its windows fail the checker, or its bound after the cuts passes the
optimum. Prints the cases where cuts were added, the tree's share, and exits 1 on any wrong.

``--family``: the robust cuts (``CUTS``), the subset-row cuts over three node-time points
(``SUBSET_ROW``, Jepsen et al. 2008; at most 3 per round too) or both; the summary then
counts the cases that added subset-row cuts and the pricing starts whose subset-row search
was capped (priced by a lower bound).
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import models.joint.cg.rowpricing as rowpricing
import models.joint.cg.solve as cg_solve
import models.joint.cg.strengthen as strengthen
from instances import generate
from models import solve_joint
from validation import check_alternatives

OBJECTIVES = ("finish", "start", "proc_time", "cost")


def main() -> int:
    """Run the fuzz; return 1 if any result is wrong."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=6)
    ap.add_argument("--close", default="enumerate", choices=("enumerate", "branch"))
    ap.add_argument("--family", default="robust", choices=strengthen.FAMILIES)
    a = ap.parse_args()
    cg_solve.CUTS = a.family != "subset-row"
    cg_solve.SUBSET_ROW = a.family != "robust"
    cg_solve.CLOSE, strengthen.PER_ROUND, strengthen.ROWS_PER_ROUND = a.close, 3, 3
    began = time.perf_counter()
    fired = tree = wrong = rows = raised = 0
    for seed in range(a.start, a.start + a.cases):
        geometry = ("rough", "square")[seed % 2]
        inst = dataclasses.replace(generate("tiny", seed, jobs=a.jobs), geometry=geometry)
        objective = OBJECTIVES[seed % len(OBJECTIVES)]
        r = solve_joint(inst, objective, "cg")
        want = solve_joint(inst, objective, "cpsat")
        cuts = r.info["cg"].get("cuts") or {}
        if cuts.get("added"):
            fired += 1
            tree += bool(r.info["cg"].get("nodes"))
            rows += bool(cuts.get("subset_row"))
            raised += cuts["after"] > cuts["before"] + 1e-6
        bad = (r.status != "optimal" or want.status != "optimal"
               or r.objective != want.objective
               or check_alternatives(inst, r.windows, sequential=False) != []
               or (cuts and cuts["after"] > want.objective + 1e-6))
        if bad:
            wrong += 1
            print(f"seed {seed} {objective}: cg {r.status} {r.objective} (cuts {cuts}),"
                  f" cpsat {want.status} {want.objective}", flush=True)
    print(f"cases {a.start}..{a.start + a.cases - 1} ({a.jobs} jobs, close {a.close}, "
          f"{a.family}): cuts added on {fired} (subset-row cuts on {rows}; bound raised on "
          f"{raised}), of which {tree} closed with tree nodes; subset-row starts searched "
          f"{rowpricing.TALLY['searched']}, capped {rowpricing.TALLY['capped']}; "
          f"wrong {wrong}; {time.perf_counter() - began:.0f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
