"""The runtime swap heuristic of docs/algorithms.md, shared by min_runtime.py and min_finish.py."""

from __future__ import annotations

from common import Instance, Job, Slot, Step, budget, true_lengths


def swap(inst: Instance, job: Job, slots: list[Slot], step: Step) -> list[int] | None:
    """Steps 1–4 of the swap heuristic at one step."""
    n, S = job.n, budget(job)
    result = list(step.alive[:n])  # (cost, read index)
    total = sum(c for c, _ in result)
    if S is not None and total > S:
        return None
    if inst.geometry == "square":
        return [i for _, i in result]
    for c, i in step.alive[n:]:
        # the longest result task; ties: the dearest, then the later read
        long = max(range(n), key=lambda a: (slots[result[a][1]].d, result[a][0], result[a][1]))
        lc, li = result[long]
        if slots[i].d < slots[li].d and (S is None or total - lc + c <= S):
            total += c - lc
            result[long] = (c, i)
    return [i for _, i in result]


def runtime(inst: Instance, job: Job, slots: list[Slot], T: int, chosen: list[int]) -> float:
    """The window's runtime with true task lengths."""
    return max(true_lengths(inst, slots, chosen))


def finish(inst: Instance, job: Job, slots: list[Slot], T: int, chosen: list[int]) -> float:
    """T plus the runtime."""
    return T + runtime(inst, job, slots, T, chosen)
