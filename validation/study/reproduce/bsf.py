"""Toporkov et al. 2015 §7.1, Fig. 9: BSF's T_CPU and start time vs the slicer's share n_CSS/n.

Each cycle draws a ``css2015`` batch at the family's local load (10–50% per
node, the medium level of docs/vo-flows.md) and schedules it by BSF at
every share: the first n_CSS jobs in batch order (the paper slices "based
on a priority – the order of jobs in the batch") by the batch-slicer with
one sub-batch (Fig. 9 calls it the sub-batch "scheduled with CSS"), each
job by its own criterion, problem (7); the rest by conservative
backfilling on the slots left. Share 0 is backfilling, share 1 the
batch-slicer. The paper prints no values for Fig. 9, so its claims are
checked as orderings: T_CPU falls, the start rises, and the curves cross.
"""

from __future__ import annotations

import itertools
from typing import Any

from validation.study.reproduce.common import Comparison, citation, reference
from validation.study.reproduce.vo_common import Tally, close, run_cycles

NAME = "bsf"
DEFAULT_RUNS = 5000
SHARES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""n_CSS / n: 0, 5, 10, 15 and 20 of the 20 jobs."""


def cycles(lo: int, hi: int, *, seed: int, shares: tuple[float, ...]) -> Tally:
    """Schedule cycles ``lo..hi-1`` by BSF at every share; tally T_CPU and start per placed job."""
    from instances import generate
    from models.combination import VoPolicy
    from planner.vo import BSF, cycle_seed, schedule_cycle

    tally = Tally()
    combine = VoPolicy(7)
    for c in range(lo, hi):
        inst = generate("css2015", cycle_seed(seed, c))
        for share in shares:
            res = schedule_cycle(
                BSF(share), combine, inst, seed=cycle_seed(seed, c, 1)
            ).reservations
            tally.add((share, "placed"), len(res) / len(inst.jobs))
            for w in res:
                tally.add((share, "T_CPU"), w.proc_time)
                tally.add((share, "start"), w.start)
    return tally


def exact_cycles(lo: int, hi: int, *, seed: int, exact: Any) -> Tally:
    """Solve cycles ``lo..hi-1`` jointly and by BSF at every share; tally the gaps."""
    from planner.vo import BSF
    from validation.study.reproduce.vo_exact import exact_tally

    policies = [(_label(share), BSF(share)) for share in SHARES]
    return exact_tally(lo, hi, seed=seed, policies=policies, exact=exact)


def _label(share: float) -> str:
    return f"n_CSS/n={share:g}"


def run(seed: int = 0, runs: int = DEFAULT_RUNS, executor: Any = None,
        workers: int | None = None, exact_runs: int | None = None, exact_size: str = "small",
        exact_solver: str = "cpsat") -> Comparison:  # fmt: skip
    """Run ``runs`` cycles at every share (and ``exact_runs`` exact cycles); paper vs ours.

    ``exact_runs`` defaults to min(runs, 100) cycles of ``exact_size`` solved by
    the joint model with ``exact_solver`` (:mod:`validation.study.reproduce.vo_exact`).
    """
    from validation.study.reproduce.vo_exact import ExactOptions, add_exact_rows

    ref = reference(NAME)
    exact = ExactOptions(exact_runs, exact_size, exact_solver)
    n_exact = exact.count(runs)
    try:
        t = run_cycles(cycles, runs, executor=executor, workers=workers, seed=seed, shares=SHARES)
        x = (run_cycles(exact_cycles, n_exact, executor=executor, workers=workers, seed=seed,
                        exact=exact) if n_exact else Tally())  # fmt: skip
    finally:
        close(executor)
    cmp = Comparison(NAME, ref["title"], f"{citation(ref)}, "
                     f"{ref['paper_runs']} cycles", runs, runs)  # fmt: skip
    for share in SHARES:
        label = _label(share)
        for q in ("T_CPU", "start", "placed"):
            cmp.add("medium load", q, label, None, t.mean(share, q))
    cpu = [t.mean(s, "T_CPU") for s in SHARES]
    start = [t.mean(s, "start") for s in SHARES]
    cmp.check("T_CPU falls monotonically as n_CSS/n grows (ours: "
              + ", ".join(f"{v:.1f}" for v in cpu) + ")",
              lambda: all(a > b for a, b in itertools.pairwise(cpu)))  # fmt: skip
    cmp.check("the start time rises monotonically as n_CSS/n grows (ours: "
              + ", ".join(f"{v:.1f}" for v in start) + ")",
              lambda: all(a < b for a, b in itertools.pairwise(start)))  # fmt: skip
    diff = [c - s for c, s in zip(cpu, start, strict=True)]
    cross = next((SHARES[k] for k in range(1, len(SHARES)) if diff[k - 1] * diff[k] <= 0), None)
    cmp.check("the T_CPU and start-time curves cross (ours: "
              + (f"between n_CSS/n = {SHARES[SHARES.index(cross) - 1]:g} and {cross:g})"
                 if cross is not None else "no crossing)"),
              lambda: cross is not None)  # fmt: skip
    if n_exact:
        add_exact_rows(cmp, x, [_label(share) for share in SHARES], exact)
    cmp.notes += ref["notes"]
    cmp.notes.append(
        "BSF: slicer with one sub-batch (problem (7), each job by its own "
        "criterion) for the first n_CSS jobs in batch order, conservative "
        "backfilling for the rest; css2015 defaults (24 nodes, 20 jobs, local load "
        "10-50%); placed = share of the batch placed (docs/slot-backfilling.md)."
    )
    return cmp
