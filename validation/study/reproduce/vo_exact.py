"""The exact baseline of a VO flow cycle: the joint co-allocation optimum of a batch.

For a ``css2015`` cycle (``SMALL``: 6 jobs on 12 nodes by default;
``PAPER``: Toporkov et al. 2015's own 20 jobs on 24 nodes; the family's
load) the joint model (docs/exact-models.md) places the most jobs, then
the least Σ proc_time (T_CPU of the batch), over any integer start, within
every job's budget. It is the true optimum of the cycle that CSS and the
batch-slicer approximate in two phases; it has no VO budget b*, so it is
also a bound for their problem-(7) choices. Each cycle's exact result is
``optimal`` or "within x % (bound b)": the solver's proven gap
(objective − bound) / objective, tallied as ``exact gap`` with the bound.
Gaps to the optimum, (policy − optimum) / optimum, count the proven cycles
where the policy placed as many jobs as the optimum (the share of cycles
where it placed fewer is reported beside); gaps to the bound,
(policy − bound) / bound, count every cycle with a proven placed count and
bound the policy's true gap from above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from planner.deadline import DEFAULT_TIME_LIMIT
from validation.study.reproduce.vo_common import Tally

SMALL: dict[str, int] = {"jobs": 6, "nodes": 12}
PAPER: dict[str, int] = {"jobs": 20, "nodes": 24}
"""Toporkov et al. 2015's batch: the ``css2015`` defaults."""
SIZES: dict[str, dict[str, int]] = {"small": SMALL, "paper": PAPER}
TIME_LIMIT = DEFAULT_TIME_LIMIT


@dataclass(frozen=True)
class ExactOptions:
    """How the exact baseline runs: cycles, batch size (``SIZES``), joint solver, seconds.

    ``runs`` None means min(the reproduction's runs, 100).
    """

    runs: int | None = None
    size: str = "small"
    solver: str = "cpsat"
    time_limit: float = TIME_LIMIT

    def __post_init__(self) -> None:
        from models import JOINT_SOLVERS

        if self.size not in SIZES:
            raise ValueError(f"exact size must be one of {', '.join(SIZES)}, got {self.size!r}")
        if self.solver not in JOINT_SOLVERS:
            raise ValueError(f"exact solver must be one of {', '.join(JOINT_SOLVERS)}, "
                             f"got {self.solver!r}")  # fmt: skip
        if self.runs is not None and self.runs < 0:
            raise ValueError(f"exact runs must be >= 0, got {self.runs}")

    def count(self, runs: int) -> int:
        """Return the number of exact cycles for a reproduction of ``runs`` cycles."""
        return min(runs, 100) if self.runs is None else self.runs

    def group(self) -> str:
        """Return the comparison group's name, e.g. ``exact (6 jobs, 12 nodes)``."""
        size = SIZES[self.size]
        return f"exact ({size['jobs']} jobs, {size['nodes']} nodes)"


def exact_cycles(lo: int, hi: int, *, seed: int, ks: tuple[int, ...],
                 exact: ExactOptions | None = None) -> Tally:  # fmt: skip
    """Solve cycles ``lo..hi-1`` exactly and with every policy; tally T_batch, placed and gaps."""
    from planner.vo import CSS, BatchSlicer

    policies: list[tuple[str, Any]] = [(f"k={k}", BatchSlicer(k)) for k in ks]
    policies.append(("css", CSS("amp")))
    return exact_tally(lo, hi, seed=seed, policies=policies, exact=exact)


def exact_tally(lo: int, hi: int, *, seed: int, policies: list[tuple[str, Any]],
                exact: ExactOptions | None = None) -> Tally:  # fmt: skip
    """Solve cycles ``lo..hi-1`` jointly and by each ``(label, policy)``; tally the gaps.

    Keys: ``("exact", "unproven")`` (share of cycles not proven optimal),
    ``("exact", "exact gap")`` and ``("exact", "bound")`` on every cycle with a
    proven placed count, ``gap_bound`` per label on those cycles, then on
    proven cycles ``T_batch`` and ``placed`` per label (and ``"exact"``),
    ``fewer`` (placed fewer jobs than the optimum) and ``gap``.
    """
    from instances import generate
    from models import solve_joint
    from models.combination import VoPolicy
    from planner.vo import cycle_seed, schedule_cycle

    exact = exact or ExactOptions()
    tally = Tally()
    combine = VoPolicy(7)
    for c in range(lo, hi):
        inst = generate("css2015", cycle_seed(seed, c, 2), **SIZES[exact.size])
        opt = solve_joint(inst, "proc_time", solver=exact.solver, time_limit=exact.time_limit,
                          seed=0)  # fmt: skip
        tally.add(("exact", "unproven"), float(opt.status != "optimal"))
        bounded = opt.objective is not None and opt.bound is not None
        if bounded:
            tally.add(("exact", "exact gap"), opt.gap)
            tally.add(("exact", "bound"), opt.bound)
            if opt.status != "optimal":
                tally.add(("exact", "open gap"), opt.gap)
                tally.add(("exact", "open bound"), opt.bound)
        if opt.status != "optimal" and not bounded:
            continue
        best, placed = float(opt.objective or 0), len(opt.windows)
        if opt.status == "optimal":
            tally.add(("exact", "T_batch"), best)
            tally.add(("exact", "placed"), placed)
        for label, policy in policies:
            res = schedule_cycle(policy, combine, inst, seed=cycle_seed(seed, c, 1)).reservations
            total = sum(w.proc_time for w in res)
            if len(res) == placed and opt.bound:
                tally.add((label, "gap_bound"), (total - opt.bound) / opt.bound)
            if opt.status != "optimal":
                continue
            tally.add((label, "T_batch"), total)
            tally.add((label, "placed"), len(res))
            tally.add((label, "fewer"), float(len(res) < placed))
            if len(res) == placed and best > 0:
                tally.add((label, "gap"), (total - best) / best)
    return tally


def exact_summary(x: Tally) -> str:
    """Return the note ``exact baseline: N of M cycles optimal; the others within x % …``."""
    n = x.count("exact", "unproven")
    unproven = round((x.mean("exact", "unproven") or 0.0) * n)
    text = f"exact baseline: {n - unproven} of {n} cycles optimal"
    opened = x.count("exact", "open gap")
    if opened:
        gap, bound = x.mean("exact", "open gap"), x.mean("exact", "open bound")
        text += (f"; {'the others' if opened == unproven else opened} within {100 * gap:.1f} % "
                 f"on average (mean bound {bound:.1f})")  # fmt: skip
    if unproven > opened:
        text += f"; {unproven - opened} without a proven bound (placed count open)"
    return text + " (exact gap = (objective − bound) / objective, docs/exact-models.md)"


def add_exact_rows(cmp: Any, x: Tally, labels: list[str] | tuple[str, ...],
                   exact: ExactOptions) -> None:  # fmt: skip
    """Append the exact-baseline rows of ``x`` and its summary note to comparison ``cmp``."""
    group = exact.group()
    for label in labels:
        cmp.add(group, "T_batch", label, None, x.mean(label, "T_batch"), x.mean("exact", "T_batch"))
        cmp.add(group, "placed", label, None, x.mean(label, "placed"), x.mean("exact", "placed"))
        cmp.add(group, "gap vs optimum", label, None, x.mean(label, "gap"), 0.0)
        cmp.add(group, "gap vs bound", label, None, x.mean(label, "gap_bound"), 0.0)
        cmp.add(group, "fewer placed", label, None, x.mean(label, "fewer"), 0.0)
    cmp.add(group, "unproven cycles", "exact", None, x.mean("exact", "unproven"))
    cmp.add(group, "exact gap", "exact", None, x.mean("exact", "exact gap"))
    cmp.notes.append(f"{group}, solver {exact.solver}, {exact.time_limit:g} s per cycle: "
                     + exact_summary(x))  # fmt: skip
