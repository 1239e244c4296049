"""Rounds of cuts at the root of the joint master (docs/exact-models.md, "Cuts"): separate
robust cuts (:mod:`models.joint.cg.cuts`), subset-row cuts
(:mod:`models.joint.cg.subset_row`) or both, add the rows, and generate columns again under
the cuts' pricing charges, while the bound rises and time is left.

Every round's Lagrangian bound is valid: the cuts' multipliers η, σ ≥ 0 are Lagrangian
multipliers of valid inequalities, pricing charges them exactly (or prices a start by a
lower bound, :mod:`models.joint.cg.rowpricing`), and L gains −Σ η − Σ σ. The best bound
over all rounds (with and without cuts) is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.joint.cg.cuts import PER_ROUND, ROUNDS, separate
from models.joint.cg.generate import IMPROVING, Generation, generate
from models.joint.cg.master import Master
from models.joint.cg.subset_row import PER_ROUND as ROWS_PER_ROUND
from models.joint.cg.subset_row import separate_rows
from models.joint.space import JobSpace
from planner.deadline import Deadline

FAMILIES = ("robust", "subset-row", "both")
"""Which cuts :func:`strengthen` separates."""


@dataclass
class Strengthened:
    """The root after the cut rounds: its generation, the rounds that added cuts, the robust
    cuts and the subset-row cuts added, and the pricing rounds they took."""

    gen: Generation
    rounds: int = 0
    cuts: int = 0
    pricing: int = 0
    rows: int = 0


def strengthen(
    spaces: Sequence[JobSpace],
    master: Master,
    gen: Generation,
    *,
    free_start: bool = True,
    deadline: Deadline | None = None,
    target: float | None = None,
    rounds: int | None = None,
    most: int | None = None,
    family: str = "robust",
    report: Callable[[Generation], None] | None = None,
) -> Strengthened:
    """Run up to ``rounds`` rounds (None: :data:`~models.joint.cg.cuts.ROUNDS`) of at most
    ``most`` cuts of each family each (None: :data:`~models.joint.cg.cuts.PER_ROUND`
    robust cuts, :data:`~models.joint.cg.subset_row.PER_ROUND` subset-row cuts) from the
    converged root ``gen`` of ``master``, each followed by column generation to the LP
    optimum; ``family`` is one of :data:`FAMILIES`. Stop when no cut is violated, the LP
    does not converge (``deadline``), or the bound reaches ``target``."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
    rounds = ROUNDS if rounds is None else rounds
    out = Strengthened(gen)
    while out.rounds < rounds and out.gen.converged and out.gen.duals is not None:
        if deadline is not None and deadline.passed():
            break
        if target is not None and out.gen.bound >= target - IMPROVING:
            break
        x = master.values()
        cuts, rows = [], []
        if family != "subset-row":
            cuts = separate(master.columns, x, known=frozenset(master.cuts),
                            most=PER_ROUND if most is None else most)
        if family != "robust":
            rows = separate_rows(master.columns, x, known=frozenset(master.subset_rows),
                                 most=ROWS_PER_ROUND if most is None else most)
        if not cuts and not rows:
            break
        for cut in cuts:
            master.add_cut(cut)
        for row in rows:
            master.add_subset_row(row)
        out.rounds += 1
        out.cuts += len(cuts)
        out.rows += len(rows)
        assert out.gen.values is not None
        nxt = generate(spaces, master, free_start=free_start, deadline=deadline,
                       target=target, initial=(out.gen.duals, out.gen.values), report=report)
        out.pricing += nxt.rounds
        out.gen = nxt
    return out
