"""Rounds of robust cuts at the root of the joint master (docs/exact-models.md, "Cuts"):
separate (:mod:`models.joint.cg.cuts`), add the rows, and generate columns again under the
cuts' pricing charges, while the bound rises and time is left.

Every round's Lagrangian bound is valid: the cuts' multipliers η ≥ 0 are Lagrangian
multipliers of valid inequalities, pricing charges them exactly, and L gains −Σ η. The
best bound over all rounds (with and without cuts) is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from models.joint.cg.cuts import PER_ROUND, ROUNDS, separate
from models.joint.cg.generate import IMPROVING, Generation, generate
from models.joint.cg.master import Master
from models.joint.space import JobSpace
from planner.deadline import Deadline


@dataclass
class Strengthened:
    """The root after the cut rounds: its generation, the rounds that added cuts, the cuts
    added and the pricing rounds they took."""

    gen: Generation
    rounds: int = 0
    cuts: int = 0
    pricing: int = 0


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
    report: Callable[[Generation], None] | None = None,
) -> Strengthened:
    """Run up to ``rounds`` rounds (None: :data:`~models.joint.cg.cuts.ROUNDS`) of at most
    ``most`` cuts each (None: :data:`~models.joint.cg.cuts.PER_ROUND`) from the converged
    root ``gen`` of ``master``, each followed by column generation to the LP optimum; stop
    when no cut is violated, the LP does not converge (``deadline``), or the bound reaches
    ``target``."""
    rounds = ROUNDS if rounds is None else rounds
    most = PER_ROUND if most is None else most
    out = Strengthened(gen)
    while out.rounds < rounds and out.gen.converged and out.gen.duals is not None:
        if deadline is not None and deadline.passed():
            break
        if target is not None and out.gen.bound >= target - IMPROVING:
            break
        cuts = separate(master.columns, master.values(), known=frozenset(master.cuts),
                        most=most)
        if not cuts:
            break
        for cut in cuts:
            master.add_cut(cut)
        out.rounds += 1
        out.cuts += len(cuts)
        assert out.gen.values is not None
        nxt = generate(spaces, master, free_start=free_start, deadline=deadline,
                       target=target, initial=(out.gen.duals, out.gen.values), report=report)
        out.pricing += nxt.rounds
        out.gen = nxt
    return out
