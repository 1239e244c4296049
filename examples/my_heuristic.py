"""Check a heuristic of your own against the exact optimum.

A user-written slot search -- here a first-fit pass in the style of AMP
(Toporkov et al. 2011), written from the definitions in docs/concepts.md
only, without the package's own heuristics -- is validated window by window
with the independent checker and compared with the proven optima of
``models.solve_window``.

Run:  python examples/my_heuristic.py [--instances 30]
"""

from __future__ import annotations

import argparse
import dataclasses

from instances import Instance, Job, Slot, cost, duration, generate
from instances.text import plural
from models import solve_window
from planner import Window, make_window
from validation import check_window


def first_fit(instance: Instance, job: Job) -> Window | None:
    """Return the window at the earliest slot start T whose n cheapest tasks fit the budget.

    At each candidate start T (a suitable slot's start, in increasing order)
    the usable slots are those that contain [T, T + d) (rough geometry: d
    depends on the node's performance). The cheapest usable slot of each
    node is kept, then the n cheapest nodes; the first T where they fit the
    budget gives the window -- AMP's rule, written from docs/concepts.md.
    """
    # (usable part, free slot): a release/deadline limits where the task may
    # run, but the window records the free slot itself (its edges are the
    # neighbouring tasks, docs/concepts.md#metrics).
    pairs = instance.suitable_pairs(job)
    budget = job.effective_budget
    for start in sorted({usable.start for usable, _ in pairs}):
        per_node: dict[str, tuple[int, Slot]] = {}
        for usable, s in pairs:
            d = duration(job.volume, instance.node(s.node).performance)
            if usable.start <= start and start + d <= usable.end:
                c = cost(instance.slot_price(s), d)
                if s.node not in per_node or c < per_node[s.node][0]:
                    per_node[s.node] = (c, s)
        if len(per_node) < job.nodes:
            continue
        chosen = sorted(per_node.values(), key=lambda cs: cs[0])[: job.nodes]
        if budget is not None and sum(c for c, _ in chosen) > budget:
            continue
        ordered = sorted((s for _, s in chosen), key=lambda s: instance.node_index[s.node])
        return make_window(instance, job, start, ordered)
    return None


def main(instances: int) -> int:
    """Compare on ``instances`` tiny instances (rough geometry); return the number of failures.

    Checks, per job: the checker accepts the window; its start equals the
    proven ``min_start`` optimum (first fit is exact for the earliest start);
    and it reports the cost gap to the proven ``min_cost`` optimum (the price
    of starting first, which first fit does not minimise).
    """
    rows = compared = start_matches = failures = 0
    cost_gaps: list[float] = []
    for seed in range(instances):
        inst = dataclasses.replace(generate("tiny", seed), geometry="rough")
        for job in inst.jobs:
            rows += 1
            window = first_fit(inst, job)
            earliest = solve_window(inst, job, "min_start", time_limit=10)
            cheapest = solve_window(inst, job, "min_cost", time_limit=10)
            if (window is None) != (earliest.window is None):
                failures += 1  # found where the optimum proves none, or missed one
                continue
            if window is None:
                continue
            problems = check_window(inst, job.id, window)
            if problems:
                failures += 1  # the checker found a broken rule: a bug in the heuristic
                print(f"seed {seed} {job.id}: {problems}")
                continue
            if not (earliest.is_optimal and cheapest.is_optimal):
                continue
            compared += 1
            start_matches += window.start == earliest.objective
            failures += window.start < earliest.objective  # earlier than proven: a bug
            cost_gaps.append((window.cost - cheapest.objective) / max(cheapest.objective, 1))
    mean = sum(cost_gaps) / len(cost_gaps) if cost_gaps else 0.0
    print(f"{plural(rows, 'job')}; {compared} compared with proven optima; start = optimum on "
          f"{start_matches}; cost gap to the min_cost optimum: mean {mean:.3f}, "
          f"max {max(cost_gaps, default=0.0):.3f}; failures {failures}")  # fmt: skip
    return failures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=30)
    raise SystemExit(1 if main(parser.parse_args().instances) else 0)
