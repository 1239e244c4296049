"""The exact baseline of a VO flow cycle: the joint co-allocation optimum of a small batch.

For a small ``css2015`` cycle (``SMALL``: 6 jobs on 12 nodes, the family's
load) the joint model (docs/exact-models.md) places the most jobs, then
the least Σ proc_time (T_CPU of the batch), over any integer start, within
every job's budget. It is the true optimum of the cycle that CSS and the
batch-slicer approximate in two phases; it has no VO budget b*, so it is
also a bound for their problem-(7) choices. Only cycles the solver proves
optimal count. Gaps: (policy − optimum) / optimum on the cycles where the
policy placed as many jobs as the optimum; the share of cycles where it
placed fewer is reported beside.
"""

from __future__ import annotations

from typing import Any

from validation.study.reproduce.vo_common import Tally

SMALL: dict[str, int] = {"jobs": 6, "nodes": 12}
TIME_LIMIT = 60.0


def exact_cycles(lo: int, hi: int, *, seed: int, ks: tuple[int, ...]) -> Tally:
    """Solve cycles ``lo..hi-1`` exactly and with every policy; tally T_batch, placed and gaps."""
    from planner.vo import CSS, BatchSlicer

    policies: list[tuple[str, Any]] = [(f"k={k}", BatchSlicer(k)) for k in ks]
    policies.append(("css", CSS("amp")))
    return exact_tally(lo, hi, seed=seed, policies=policies)


def exact_tally(lo: int, hi: int, *, seed: int, policies: list[tuple[str, Any]]) -> Tally:
    """Solve cycles ``lo..hi-1`` jointly and by each ``(label, policy)``; tally the gaps.

    Keys: ``("exact", "unproven")`` (share of cycles not proven optimal), then
    on proven cycles ``T_batch`` and ``placed`` per label (and ``"exact"``),
    ``fewer`` (placed fewer jobs than the optimum) and ``gap``.
    """
    from instances import generate
    from models import solve_joint
    from models.combination import VoPolicy
    from planner.vo import cycle_seed, schedule_cycle

    tally = Tally()
    combine = VoPolicy(7)
    for c in range(lo, hi):
        inst = generate("css2015", cycle_seed(seed, c, 2), **SMALL)
        opt = solve_joint(inst, "proc_time", time_limit=TIME_LIMIT, seed=0)
        tally.add(("exact", "unproven"), float(opt.status != "optimal"))
        if opt.status != "optimal":
            continue
        best, placed = float(opt.objective or 0), len(opt.windows)
        tally.add(("exact", "T_batch"), best)
        tally.add(("exact", "placed"), placed)
        for label, policy in policies:
            res = schedule_cycle(policy, combine, inst, seed=cycle_seed(seed, c, 1)).reservations
            total = sum(w.proc_time for w in res)
            tally.add((label, "T_batch"), total)
            tally.add((label, "placed"), len(res))
            tally.add((label, "fewer"), float(len(res) < placed))
            if len(res) == placed and best > 0:
                tally.add((label, "gap"), (total - best) / best)
    return tally
