"""max_q written from docs/ alone (docs/algorithms.md, "Knapsack"); see common.py for usage."""

from __future__ import annotations

import sys

from aep import aep
from common import Instance, Job, Slot, Step, budget, main

INF = float("inf")


def knapsack(inst: Instance, job: Job, slots: list[Slot], step: Step) -> list[int] | None:
    """The choice at a step: the budget-free best n if it fits, else the recurrence's subset."""
    n, S = job.n, budget(job)
    items = step.alive  # (cost, read index), in (cost, read index) order
    z = [-slots[i].node.q for _, i in items]
    c = [cost for cost, _ in items]
    best_n = sorted(range(len(items)), key=lambda a: (z[a], c[a], a))[:n]
    if S is None or sum(c[a] for a in best_n) <= S:
        return [items[a][1] for a in best_n]
    cap = min(S, sum(sorted(c)[-n:]))
    # f[k][b]: least Σz over k items among those seen, costing at most b
    f = [[0.0] * (cap + 1)] + [[INF] * (cap + 1) for _ in range(n)]
    taken = []
    for a in range(len(items)):
        t = [[False] * (cap + 1) for _ in range(n + 1)]
        for k in range(min(n, a + 1), 0, -1):
            row, prev = f[k], f[k - 1]
            for b in range(c[a], cap + 1):
                v = prev[b - c[a]] + z[a]
                if v < row[b]:
                    row[b] = v
                    t[k][b] = True
        taken.append(t)
    if f[n][cap] == INF:
        return None
    chosen, k, b = [], n, cap
    for a in range(len(items) - 1, -1, -1):
        if k == 0:
            break
        if taken[a][k][b]:
            chosen.append(items[a][1])
            k, b = k - 1, b - c[a]
    return chosen


def q_value(inst: Instance, job: Job, slots: list[Slot], T: int, chosen: list[int]) -> float:
    """−Σq rounded to 9 decimals."""
    return round(-sum(slots[i].node.q for i in chosen), 9)


if __name__ == "__main__":
    sys.exit(main(lambda inst, job: aep(inst, job, knapsack, q_value, exact=True)))
