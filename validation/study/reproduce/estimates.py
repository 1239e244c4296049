"""Toporkov et al. 2015 §7.2, Table 3: scheduled vs real execution and start times.

Each cycle draws a ``css2015`` batch at the family's local load (10–50%
per node, as §7.1) and schedules it by conservative backfilling, CSS
(first fit) and the batch-slicer with k = 5 (each job by its own
criterion), CSS and the slicer with problem (7). The schedules are then
executed with every task's real run time uniform in [0.2, 1] × its
reserved time (one draw per task, shared by the three methods), releasing
the rest of each reservation early: CSS and the slicer keep their start
times; backfilling re-plans on the released time (the paper's backfilling,
whose real start is earlier than the scheduled one); a fourth row runs
backfilling without re-planning. Execution time = Σ of a job's task
times (T_CPU, the target criterion); start = window start; per placed job.
An exact baseline (the joint optimum of small cycles) gives every method's
gap (:mod:`validation.study.reproduce.backfill_exact`).
"""

from __future__ import annotations

from typing import Any

from validation.study.reproduce.backfill_exact import add_rows, exact_gaps
from validation.study.reproduce.common import Comparison, citation, paper, reference
from validation.study.reproduce.vo_common import Tally, close, reduction, run_cycles

NAME = "estimates"
DEFAULT_RUNS = 5000
SLICER_K = 5
"""§6.3's best k at medium load; Table 3's slicer gains 7.7% over CSS, §6.3 states up to 7%."""
METHODS = ("backfilling", "css", "slicer", "backfilling (no re-plan)")
QUANTITIES = ("exec_scheduled", "exec_real", "start_scheduled", "start_real")


def cycles(lo: int, hi: int, *, seed: int) -> Tally:
    """Schedule and replay cycles ``lo..hi-1`` with every method; tally the four times."""
    from instances import generate
    from models.combination import VoPolicy
    from planner.vo import CSS, Backfill, BatchSlicer, cycle_seed, schedule_cycle
    from planner.vo.replay import replay, task_factors

    tally = Tally()
    combine = VoPolicy(7)
    runs = (("backfilling", Backfill(), True), ("css", CSS("amp"), False),
            ("slicer", BatchSlicer(SLICER_K), False))  # fmt: skip
    for c in range(lo, hi):
        inst = generate("css2015", cycle_seed(seed, c))
        factors = task_factors(inst, cycle_seed(seed, c, 2))
        for label, policy, reuse in runs:
            res = schedule_cycle(policy, combine, inst, seed=cycle_seed(seed, c, 1)).reservations
            variants = [(label, reuse)] + ([(f"{label} (no re-plan)", False)] if reuse else [])
            for name, again in variants:
                for e in replay(inst, res, factors, reuse=again):
                    tally.add((name, "exec_scheduled"), e.scheduled_time)
                    tally.add((name, "exec_real"), e.real_time)
                    tally.add((name, "start_scheduled"), e.scheduled_start)
                    tally.add((name, "start_real"), e.real_start)
    return tally


def run(seed: int = 0, runs: int = DEFAULT_RUNS, executor: Any = None,
        workers: int | None = None, exact_runs: int | None = None, exact_size: str = "small",
        exact_solver: str = "cpsat") -> Comparison:  # fmt: skip
    """Run ``runs`` cycles (and ``exact_runs`` exact cycles, default min(runs, 100)).

    ``exact_size``/``exact_solver``: :class:`~validation.study.reproduce.vo_exact.ExactOptions`.
    """
    from validation.study.reproduce.vo_exact import ExactOptions

    ref = reference(NAME)
    exact = ExactOptions(exact_runs, exact_size, exact_solver)
    n_exact = exact.count(runs)
    try:
        t = run_cycles(cycles, runs, executor=executor, workers=workers, seed=seed)
        x = (run_cycles(exact_gaps, n_exact, executor=executor, workers=workers, seed=seed,
                        exact=exact) if n_exact else Tally())  # fmt: skip
    finally:
        close(executor)
    cmp = Comparison(NAME, ref["title"], citation(ref),
                     runs, runs)  # fmt: skip
    for m in METHODS:
        for q in QUANTITIES:
            cmp.add("Table 3", q, m, paper(ref, m, q), t.mean(m, q))
    adv = {q: _advantage(q, t.mean("backfilling", q), t.mean("slicer", q)) for q in QUANTITIES}
    for q in QUANTITIES:
        cmp.add("Table 3", q, "slicer advantage", _fraction(paper(ref, "advantage_percent", q)),
                adv[q])  # fmt: skip
    cut = reduction(t.mean("backfilling", "start_real"), t.mean("backfilling", "start_scheduled"))
    cmp.add("Table 3", "start reduction", "backfilling",
            _fraction(paper(ref, "backfilling_start_reduction_percent")), cut)  # fmt: skip
    _checks(cmp, t, adv, cut)
    if n_exact:
        add_rows(cmp, x, exact)
    cmp.notes += ref["notes"]
    cmp.notes.append(f"Ours: css2015 defaults (24 nodes, 20 jobs, local load 10-50%), "
                     f"conservative backfilling, CSS first fit, batch-slicer k = {SLICER_K}, "
                     "problem (7); real task time = U[0.2, 1] x reserved, released at the next "
                     "quantum; 'advantage' for execution = 1 - slicer/backfilling, for start = "
                     "backfilling/slicer - 1, as the paper's numbers imply "
                     "(docs/slot-backfilling.md).")  # fmt: skip
    return cmp


def _fraction(percent: float | None) -> float | None:
    return None if percent is None else percent / 100


def _advantage(q: str, backfill: float | None, slicer: float | None) -> float | None:
    if backfill is None or slicer is None:
        return None
    return 1 - slicer / backfill if q.startswith("exec") else backfill / slicer - 1


def _checks(cmp: Comparison, t: Tally, adv: dict[str, Any], cut: float | None) -> None:
    m = t.mean
    cmp.check(f"slicer beats backfilling on execution time, scheduled and real (ours: "
              f"{adv['exec_scheduled']:.1%}, {adv['exec_real']:.1%}; paper 26.2%, 27.5%)",
              lambda: adv["exec_scheduled"] > 0 and adv["exec_real"] > 0)  # fmt: skip
    cmp.check("the slicer's advantage grows from scheduled to real execution",
              lambda: adv["exec_real"] > adv["exec_scheduled"])  # fmt: skip
    cmp.check("slicer beats CSS on execution time, scheduled and real",
              lambda: m("slicer", "exec_scheduled") < m("css", "exec_scheduled")
              and m("slicer", "exec_real") < m("css", "exec_real"))  # fmt: skip
    cmp.check("backfilling starts jobs earliest (scheduled and real)",
              lambda: all(m("backfilling", q) < min(m("css", q), m("slicer", q))
                          for q in ("start_scheduled", "start_real")))  # fmt: skip
    cmp.check(f"backfilling's real start about 46% earlier than scheduled (ours: {cut:.1%}; "
              "within 10 points)" if cut is not None else "backfilling's real start 46% earlier",
              lambda: abs(cut - 0.46) <= 0.10)  # type: ignore[operator]  # fmt: skip
    cmp.check(
        "CSS and the slicer keep their scheduled start times",
        lambda: all(m(a, "start_real") == m(a, "start_scheduled") for a in ("css", "slicer")),
    )
    for a, pa in (("backfilling", 187.7), ("css", 150.1), ("slicer", 138.6)):
        v = m(a, "exec_scheduled")
        cmp.check(f"{a}: scheduled execution time within 15% of the paper's {pa} (ours: {v:.1f})",
                  lambda v=v, pa=pa: abs(v - pa) <= 0.15 * pa)  # fmt: skip
