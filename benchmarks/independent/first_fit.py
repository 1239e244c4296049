"""AMP and ALP of docs/algorithms.md ("ALP and AMP"), shared by amp.py and alp.py."""

from __future__ import annotations

from common import Instance, Job, budget, job_slots, levels, price_cap, steps, window


def first_fit(inst: Instance, job: Job, *, alp: bool) -> dict | None:
    """The first formed step whose n cheapest fit S (AMP) or the first formed step (ALP)."""
    cap = price_cap(job) if alp else None
    if alp and cap is None:
        cap = None  # no cap: every suitable slot suits
    slots = job_slots(inst, job, cap)
    S = None if alp else budget(job)
    best: tuple[int, list[int]] | None = None
    for level in levels(inst, job, slots, "performance"):
        for step in steps(slots, job.n, level):
            if best is not None and best[0] <= step.T:
                break
            chosen = step.alive[: job.n]
            if S is None or sum(c for c, _ in chosen) <= S:
                best = (step.T, [i for _, i in chosen])
                break
    return None if best is None else window(inst, job, slots, *best)
