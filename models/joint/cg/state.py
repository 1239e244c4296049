"""What the stages of one ``cg`` solve share (:mod:`models.joint.cg.solve`): the run's fixed
inputs with its column pool, statistics, progress line and deadline (:class:`Run`); the best
solution so far with its proven bound and the reduced-cost limits every better solution obeys
(:class:`Incumbent`); and the root of phase 2 (:class:`Root`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.joint.cg.column import Column, Linear
from models.joint.cg.duals import MARGIN
from models.joint.cg.fixing import allowed_options, allowed_starts, job_thresholds
from models.joint.cg.generate import Generation
from models.joint.cg.integer import integer_master
from models.joint.cg.master import Master
from models.joint.cg.restrict import Limits, compatible
from models.joint.space import JobSpace
from models.progress import SearchProgress
from planner.deadline import Deadline

Placement = dict[int, tuple[int, list[int]]]
"""A solution as job index → (start, option indices of the job's space)."""

Restriction = tuple[bool, list[tuple[int, int]], set[int]]
"""Per job: must it be placed, its allowed start intervals, its allowed options."""


@dataclass
class Run:
    """One ``cg`` solve's fixed inputs (``sign`` −1 for a maximised objective), its column
    pool, its statistics (``info["cg"]``), its progress line and its deadline."""

    spaces: Sequence[JobSpace]
    metric: str
    sign: int
    sides: Sequence[tuple[str, int]]
    free_start: bool
    threads: int
    seed: int
    deadline: Deadline
    track: SearchProgress
    pool: dict[tuple[int, int, tuple[int, ...]], Column] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=lambda: {
        "rounds": 0, "lp": None, "lagrangian": None, "closed_by": None})

    @property
    def jobs(self) -> int:
        """Return the number of jobs of the batch."""
        return len(self.spaces)

    @property
    def form(self) -> Linear:
        """Return the minimised objective as a linear form of a window."""
        return Linear.of(self.metric, self.sign)

    def value(self, columns: Sequence[Column]) -> int:
        """Return ``sign``·Σ metric over ``columns``."""
        return sum(self.sign * c.metric(self.metric) for c in columns)

    def add(self, col: Column) -> None:
        """Put ``col`` in the pool unless it breaks its job's budget or the start rule."""
        sp = self.spaces[col.j]
        if sp.budget is not None and col.cost > sp.budget:
            return
        if not self.free_start and col.T not in sp.slot_starts:
            return
        self.pool.setdefault(col.key, col)

    def master(
        self,
        columns: Sequence[Column],
        deadline: Deadline,
        *,
        objective: bool = True,
        count: int | None = None,
        hint: Sequence[Column] = (),
        below: int | None = None,
    ) -> list[Column] | None:
        """Run the integer master (:func:`models.joint.cg.integer.integer_master`) over
        ``columns`` until ``deadline``; ``objective`` False: the placed count alone."""
        return integer_master(self.jobs, columns, self.metric if objective else None, self.sign,
                              self.sides, count=count, deadline=deadline, threads=self.threads,
                              seed=self.seed, hint=hint, below=below)  # fmt: skip


@dataclass
class Root:
    """Phase 2's master (its count row fixed to ``count``) and its root generation."""

    master: Master
    gen: Generation
    count: int


@dataclass
class Incumbent:
    """The best solution so far (its columns and ``sign``-value), the proven bound ``low``
    (None: none yet) and, while the gap is open, the limits of reduced-cost fixing that
    every better solution obeys (``base``, None: none)."""

    columns: list[Column]
    value: int
    low: int | None = None
    base: list[Limits] | None = None

    @property
    def open(self) -> bool:
        """Return whether the incumbent is not proven optimal."""
        return self.low is None or self.value > self.low

    def offer(self, run: Run, root: Root, columns: Sequence[Column] | None) -> Incumbent:
        """Return the incumbent after ``columns`` (a solution, or None) are offered: theirs if
        better, with the fixing limits tightened to the new value."""
        if columns is None or run.value(columns) >= self.value:
            return self
        value = run.value(columns)
        base = self.base
        if base is not None and self.low is not None and value > self.low:
            # the old limits stay valid (looser) if the deadline stops the new ones
            base = limits(run.spaces, root.gen, value, run.free_start, run.deadline) or base
        return Incumbent(list(columns), value, self.low, base)


def placement(columns: Sequence[Column]) -> Placement:
    """Return ``columns`` as a :data:`Placement`."""
    return {c.j: (c.T, list(c.chosen)) for c in sorted(columns, key=lambda c: c.j)}


def limits(
    spaces: Sequence[JobSpace], gen: Generation, best: int, free_start: bool,
    deadline: Deadline | None = None,
) -> list[Limits] | None:
    """Return :func:`restrictions` as the branching limits every better solution obeys
    (None when ``deadline`` passes first)."""
    rules = restrictions(spaces, gen, best, free_start, deadline)
    if rules is None:
        return None
    return [Limits(placed=True if must else None if spans else False, spans=spans,
                   banned=set(range(len(sp.options))) - options)
            for sp, (must, spans, options) in zip(spaces, rules, strict=True)]


def kept(
    columns: Sequence[Column], spaces: Sequence[JobSpace], base: Sequence[Limits] | None
) -> list[Column]:
    """Return the columns a solution better than the incumbent may use (all if no limits)."""
    if base is None:
        return list(columns)
    return [c for c in columns if compatible(c, spaces[c.j], base[c.j])]


def restrictions(
    spaces: Sequence[JobSpace], gen: Generation, best: int, free_start: bool,
    deadline: Deadline | None = None,
) -> list[Restriction] | None:
    """Return per job (must be placed, allowed start intervals, allowed options) for
    solutions of value ≤ ``best − 1`` by reduced-cost fixing (:mod:`models.joint.cg.fixing`);
    None when ``deadline`` passes first (looked at before each job: on css2015's Σ finish
    the 20 jobs took 1.4–3.8 s together)."""
    assert gen.duals is not None and gen.values is not None
    form, prices, mu, values = gen.duals.form, gen.duals.prices, gen.duals.mu, gen.values
    slack = best - 1 - gen.bound + MARGIN * max(1.0, abs(gen.bound))
    out: list[Restriction] = []
    for j, (sp, job) in enumerate(zip(spaces, job_thresholds(values, mu, slack), strict=True)):
        if deadline is not None and deadline.passed():
            return None
        if job is None:
            out.append((False, [], set()))
            continue
        threshold, must = job
        spans = allowed_starts(sp, form, prices.of(j), threshold, free_start)
        options = allowed_options(sp, form, prices.of(j), threshold, free_start)
        out.append((must, spans, options))
    return out
