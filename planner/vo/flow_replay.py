"""Execution replay of a simulated VO flow, cycle by cycle (Toporkov et al. 2015, §7.2).

Every cycle's schedule is executed with real task times shorter than
reserved (:mod:`planner.vo.replay`): each task's factor uniform in
[0.2, 1], drawn from the replay seed and the cycle (``cycle_seed(seed, c,
2)``, the stream of the ``estimates`` reproduction, so one seed gives the
same draws for every policy of a cycle). With ``replan`` backfilling uses
the released time (conservative compression); otherwise every job runs in
its reservation. Means are over each cycle's placed jobs, as in Table 3 of
the paper: start (window start), execution (Σ task times: reserved, real),
finish (start + longest task).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from planner.vo.flow import Flow, cycle_seed
from planner.vo.metrics import mean
from planner.vo.replay import Execution, replay, task_factors


@dataclass(frozen=True)
class CycleReplay:
    """Means over one cycle's placed jobs, scheduled vs real (None when none was placed)."""

    cycle: int
    placed: int
    moved: int
    start: float | None
    real_start: float | None
    exec: float | None
    real_exec: float | None
    finish: float | None
    real_finish: float | None


@dataclass(frozen=True)
class FlowReplay:
    """A replayed flow: per-cycle means and every placed job's execution by (cycle, job id)."""

    seed: int
    replan: bool
    cycles: tuple[CycleReplay, ...]
    jobs: dict[tuple[int, str], Execution]

    def overall(self) -> CycleReplay:
        """Return the means over every placed job of the flow (``cycle`` = -1)."""
        return _means(-1, list(self.jobs.values()))


def replay_flow(flow: Flow, seed: int, *, replan: bool = False,
                progress: Callable[[int], None] | None = None) -> FlowReplay:  # fmt: skip
    """Replay every cycle of ``flow`` (run with ``keep=True``); real times drawn from ``seed``.

    ``progress`` is called with the number of cycles replayed after each one.
    """
    if len(flow.kept) != len(flow.cycles):
        raise ValueError("replay_flow needs the flow's cycles: run_flow(..., keep=True)")
    cycles, jobs = [], {}
    for c, (inst, outcome) in enumerate(flow.kept):
        factors = task_factors(inst, cycle_seed(seed, c, 2))
        rows = replay(inst, outcome.reservations, factors, reuse=replan)
        cycles.append(_means(c, rows))
        jobs.update({(c, r.job): r for r in rows})
        if progress is not None:
            progress(c + 1)
    return FlowReplay(seed, replan, tuple(cycles), jobs)


def _means(c: int, rows: Sequence[Execution]) -> CycleReplay:
    return CycleReplay(
        cycle=c, placed=len(rows), moved=sum(bool(r.moves) for r in rows),
        start=mean([r.scheduled_start for r in rows]),
        real_start=mean([r.real_start for r in rows]),
        exec=mean([r.scheduled_time for r in rows]), real_exec=mean([r.real_time for r in rows]),
        finish=mean([r.scheduled_finish for r in rows]),
        real_finish=mean([r.real_finish for r in rows]),
    )  # fmt: skip
