"""The interface every VO flow policy implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from instances import Instance, Job
from planner.heuristics.slotlist import SlotList
from planner.vo.cycle import Combine, CycleOutcome


class Policy(Protocol):
    """Schedules one cycle's batch on the cycle's free slots.

    ``schedule`` may only reserve alternatives it found on the slot list it
    was given (minus its own earlier reservations), and must leave ``free``
    holding the slots that remain after its reservations.
    """

    name: str

    def schedule(
        self,
        instance: Instance,
        batch: Sequence[Job],
        free: SlotList,
        combine: Combine,
        *,
        seed: int = 0,
    ) -> CycleOutcome:
        """Return the cycle's phases; ``free`` ends as the slots left free."""
        ...
