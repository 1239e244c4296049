"""Benchmark: the joint master LP by GLOP alone or by PDLP then GLOP (docs/exact-models.md,
"A faster LP at size"), in phase 2 of the cg solver on css2015 batches (Toporkov et al.
2015 §5), problem (8) as ``planner combine --problem 8 --joint`` builds it.

Usage::

    python benchmarks/bench_cg_pdlp.py [--seed 1] [--nodes 24] [--jobs 20]
        [--modes glop,pdlp] [--rows 2000] [--tolerance 1e-4] [--time-limit 400]
        [--repeat 1] [--trace] [--whole]

Per mode and repetition, one run of the cg solver to the end of its phase 2 (the root
LP; no integer master): the master solves by PDLP and by GLOP (counts) with their mean
and largest seconds, the pricing rounds (a count), the mean seconds of a pricing round,
the seconds to the end of the phase, the best Lagrangian bound, the LP value and whether
the LP optimum was reached. ``--trace`` prints every master solve (solver, rows,
seconds) and the bound after every round. Modes alternate within a repetition, so that
the machine's load falls on both. ``--whole``: the whole solve instead (status, objective,
proven bound, gap, wall seconds, pricing rounds, and the root's Lagrangian bound).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import models.joint.cg.generate as cg_generate
import models.joint.cg.master as cg_master
import models.joint.cg.pdlp as cg_pdlp
import models.joint.cg.solve as cg_solve
from instances import Instance, generate
from models import solve_combination, solve_joint
from planner import find_alternatives


class _Done(Exception):
    """Raised after phase 2 to skip the integer master."""


def phase2(inst: Instance, time_limit: float, trace: bool) -> dict[str, Any]:
    """Run the cg solver on problem (8) up to the end of its phase 2; return its figures."""
    out: dict[str, Any] = {"pricing": 0.0, "glop": [], "pdlp": [], "trail": []}
    generate_, round_, solve_ = cg_solve.generate, cg_generate._round, cg_master.Master.solve
    began = [0.0]

    def timed_round(*args: Any) -> Any:
        t = time.perf_counter()
        try:
            return round_(*args)
        finally:
            out["pricing"] += time.perf_counter() - t

    def timed_solve(self: cg_master.Master, *args: Any, **kwargs: Any) -> float:
        t = time.perf_counter()
        value = solve_(self, *args, **kwargs)
        seconds = time.perf_counter() - t
        which = "pdlp" if self.point is not None else "glop"
        if self.count is not None:  # phase 2's master
            out[which].append(seconds)
            if trace:
                print(f"  {which} rows {self.lp.NumConstraints():6d} columns "
                      f"{len(self.columns):6d} {seconds:7.3f} s value {value:.3f}", flush=True)
        return value

    def phase(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("initial") is None:
            return generate_(*args, **kwargs)
        report = kwargs.get("report")

        def traced(gen: Any) -> None:
            out["trail"].append((time.perf_counter() - began[0], gen.rounds, gen.bound))
            if trace:
                print(f"  round {gen.rounds:4d} at {out['trail'][-1][0]:7.2f} s bound "
                      f"{gen.bound:.3f}", flush=True)
            if report is not None:
                report(gen)

        kwargs["report"] = traced
        began[0] = time.perf_counter()
        gen = generate_(*args, **kwargs)
        out.update(seconds=time.perf_counter() - began[0], rounds=gen.rounds, lp=gen.lp,
                   bound=gen.bound, converged=gen.converged, size=len(args[1].columns))
        raise _Done

    cg_solve.generate, cg_generate._round = phase, timed_round
    cg_master.Master.solve = timed_solve  # type: ignore[method-assign]
    try:
        ids = [j.id for j in inst.jobs]
        two = solve_combination(find_alternatives(inst, "amp", jobs=ids).by_job(), 8, "dp")
        solve_joint(inst, problem=8, solver="cg", hint=list(two.windows),
                    t_star=two.info["t_star"], b_star=two.info["b_star"],
                    time_limit=time_limit)
    except _Done:
        pass
    finally:
        cg_solve.generate, cg_generate._round = generate_, round_
        cg_master.Master.solve = solve_  # type: ignore[method-assign]
    return out


def whole(inst: Instance, time_limit: float) -> str:
    """Run the whole cg solve of problem (8); return its row's figures."""
    ids = [j.id for j in inst.jobs]
    two = solve_combination(find_alternatives(inst, "amp", jobs=ids).by_job(), 8, "dp")
    t = time.perf_counter()
    r = solve_joint(inst, problem=8, solver="cg", hint=list(two.windows),
                    t_star=two.info["t_star"], b_star=two.info["b_star"], time_limit=time_limit)
    seconds = time.perf_counter() - t
    cg = r.info["cg"]
    gap = f"{100 * r.gap:.2f} %" if r.gap is not None else "-"
    return (f"{r.status} placed {len(r.info['placed'])} value {r.objective} bound {r.bound}"
            f" gap {gap} wall {seconds:.1f} s rounds {cg['rounds']} root lagrangian"
            f" {cg['lagrangian']} closed_by {cg['closed_by']}")


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def main() -> None:
    """Print one row per mode and repetition."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=20)
    ap.add_argument("--modes", default="glop,pdlp")
    ap.add_argument("--rows", type=int, default=cg_master.FIRST_ORDER_ROWS)
    ap.add_argument("--tolerance", type=float, default=cg_pdlp.TOLERANCE)
    ap.add_argument("--time-limit", type=float, default=400.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--trace", action="store_true")
    ap.add_argument("--whole", action="store_true")
    a = ap.parse_args()
    inst = generate("css2015", seed=a.seed, nodes=a.nodes, jobs=a.jobs)
    cg_master.FIRST_ORDER_ROWS = a.rows
    cg_pdlp.TOLERANCE = a.tolerance
    print(f"css2015 seed {a.seed}, {a.nodes} nodes x {a.jobs} jobs, problem (8), PDLP from "
          f"{a.rows} rows at tolerance {a.tolerance:g}, limit {a.time_limit:g} s; "
          f"load average {os.getloadavg()[0]:.2f}")
    print("mode  pdlp_n pdlp_mean pdlp_max glop_n glop_mean glop_max rounds s/pricing"
          "  seconds  columns          lp       bound converged")
    for _ in range(a.repeat):
        for mode in a.modes.split(","):
            cg_master.FIRST_ORDER = mode == "pdlp"
            if a.whole:
                print(f"{mode:5} {whole(inst, a.time_limit)}  (load {os.getloadavg()[0]:.2f})",
                      flush=True)
                continue
            if a.trace:
                print(f"{mode}:")
            s = phase2(inst, a.time_limit, a.trace)
            if "seconds" not in s:
                print(f"{mode:5} (phase 2 not reached)")
                continue
            pd, gl = s["pdlp"], s["glop"]
            print(f"{mode:5} {len(pd):6d} {_mean(pd):9.3f} {max(pd, default=0.0):8.3f}"
                  f" {len(gl):6d} {_mean(gl):9.3f} {max(gl, default=0.0):8.3f}"
                  f" {s['rounds']:6d} {s['pricing'] / max(s['rounds'], 1):9.3f}"
                  f" {s['seconds']:8.2f} {s['size']:8d} {s['lp']:11.2f} {s['bound']:11.2f}"
                  f" {s['converged']}  (load {os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
