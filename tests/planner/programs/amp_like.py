"""A test program for ``planner verify``: planner's own answers, or a planted bug.

Usage: ``python amp_like.py ALGORITHM MODE PATH...`` with MODE one of

- ``ok``: planner's answers in the minimal form (a correct implementation);
- ``strict-budget``: the budget test written ``cost < S`` (searches with S - 1);
- ``alternatives``: planner's alternatives search, in the order found;
- ``crash-square``: exits 1 on a square instance with more than one node;
- ``garbage``: prints a line that is not JSON for jobs of three nodes;
- ``sleep``: never answers.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time

from instances import read_instance
from planner import find_alternatives, search


def line(job: str, w) -> str:
    if w is None:
        return json.dumps({"job": job, "status": "not_found"})
    places = [{"node": p.node, "start": p.start, "end": p.end} for p in w.placements]
    return json.dumps({"job": job, "window": {"start": w.start, "placements": places}})


def main() -> None:
    algorithm, mode, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    if mode == "sleep":
        time.sleep(3600)
    for path in paths:
        inst = read_instance(path)
        if mode == "crash-square" and inst.geometry == "square" and len(inst.nodes) > 1:
            sys.exit("square geometry is not supported")
        if mode == "alternatives":
            alts = find_alternatives(inst, algorithm)
            for w in alts.windows:
                print(line(w.job, w))
            for job, found in alts.by_job().items():
                if not found:
                    print(line(job, None))
            continue
        for job in inst.jobs:
            if mode == "garbage" and job.nodes == 3:
                print("{not json")
                continue
            if mode == "strict-budget":
                s = job.effective_budget
                if s == 0:
                    print(line(job.id, None))
                    continue
                if s is not None:
                    job = dataclasses.replace(job, budget=s - 1, max_price=None)
            print(line(job.id, search(inst, job, algorithm)))


if __name__ == "__main__":
    main()
