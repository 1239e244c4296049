"""A VO job flow in a few lines: CSS vs the batch-slicer over ten cycles (docs/vo-flows.md).

Each cycle draws 24 loaded nodes and 20 new jobs (family ``css2015``, after
Toporkov et al. 2015 §5), adds the jobs postponed by earlier cycles, and
schedules the batch; every cycle is then checked by the independent
checker. On a terminal a progress line counts the cycles of each policy
(``planner.progress``). Run it with ``python examples/vo_flow.py``.
"""

from __future__ import annotations

from models.combination import VoPolicy
from planner.progress import Progress
from planner.vo import CSS, BatchSlicer, family_environment, run_flow
from validation.vo_check import check_cycle


def main(cycles: int = 10, seed: int = 0) -> dict[str, float]:
    """Simulate the flow under three policies; print and return their mean T_CPU per job."""
    environment = family_environment("css2015", seed)
    combine = VoPolicy(problem=7)  # least Σ proc_time within the VO budget (§6.3)
    out: dict[str, float] = {}
    for label, policy in (("CSS (first fit)", CSS("amp")), ("slicer k=1", BatchSlicer(1)),
                          ("slicer k=5", BatchSlicer(5))):  # fmt: skip
        with Progress(cycles, label=f"{label}: cycles") as bar:
            flow = run_flow(policy, combine, environment, cycles, seed=seed,
                            max_postponements=2, keep=True, progress=bar.update)  # fmt: skip
        for instance, outcome in flow.kept:
            assert check_cycle(instance, outcome.phases) == [], "a cycle failed the checker"
        placed = [j for j in flow.jobs if j.status == "placed"]
        t_cpu = sum(j.proc_time or 0 for j in placed) / max(len(placed), 1)
        dropped = sum(c.dropped for c in flow.cycles)
        print(f"{label:16s} placed {len(placed):3d}  dropped {dropped:3d}  "
              f"T_CPU per job {t_cpu:6.1f}  mean start "
              f"{sum(j.start or 0 for j in placed) / max(len(placed), 1):6.1f}")  # fmt: skip
        out[label] = t_cpu
    return out


if __name__ == "__main__":
    main()
