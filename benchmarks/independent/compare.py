"""Compare the independent implementations with ``planner solve --json``, job by job.

Generates seeded instances of small families, runs each independent program
(``benchmarks/independent/ALGORITHM.py``, several instances per process) and
planner's ``solve --json`` on the same files, and classifies every job:

- ``identical``: both found nothing, or the same start and the same nodes;
- ``tie``: both found a window, with the same value of the algorithm's
  criterion (start, cost, runtime, finish or Σq) but other nodes or start;
- ``differ``: anything else (one found nothing, or the values differ);
- ``infeasible``: the program's window fails the independent checker
  (``validation.check_window``; ALP's against its price cap);
- ``missing``: no line for the job.

Usage::

    python benchmarks/independent/compare.py [--jobs 10000] [--algorithms amp,alp,...]
        [--program "java -cp /tmp/amp Amp"] [--seed 0] [--show 5] [--keep DIR]

``--program`` replaces the independent program of a single algorithm with
any command (the instance paths are appended), e.g. the Java AMP of
examples/verify. planner's answers are taken from ``planner.cli.main``
in-process (the same code and output as the ``planner`` command, without
its start-up time per file). Prints a table per algorithm and family and a
total line; the exit code is 1 when any job differs, is infeasible or
missing.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from instances import (
    Instance,
    Job,
    Node,
    Slot,
    cost,
    duration,
    generate,
    read_instance,
    write_instance,
)
from planner.cli import main as planner_main
from planner.window import Placement, Window
from validation import check_window

HERE = Path(__file__).resolve().parent
ALGORITHMS = ("amp", "alp", "min_cost", "min_runtime", "min_finish", "max_q")
METRIC = {
    "amp": "start", "alp": "start", "min_cost": "cost", "min_runtime": "runtime",
    "min_finish": "finish", "max_q": "q",
}  # fmt: skip

FAMILIES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("tiny", "tiny", {"jobs": 20}),
    ("tiny-dense", "tiny", {"nodes": 6, "slots": 10, "jobs": 20, "horizon": 20, "bounds": 0.3}),
    ("tiny-square", "tiny", {"jobs": 20, "geometry": "square"}),
    ("tiny-dense-square", "tiny",
     {"nodes": 6, "slots": 10, "jobs": 20, "horizon": 20, "geometry": "square"}),
    ("toporkov2012-small", "toporkov2012", {"nodes": 12, "interval": 200, "job_nodes": 3}),
    ("toporkov2018-small", "toporkov2018",
     {"nodes": 12, "interval": 300, "job_nodes": 3, "budget": 200}),
    ("css2015-small", "css2015", {"nodes": 8, "interval": 200, "jobs": 10}),
    ("edge", "edge", {}),
    ("edge-square", "edge", {"geometry": "square"}),
)  # fmt: skip
"""(label, family, parameters): small instances, many jobs per file (the costly part is a run).

``edge`` is this script's own family (:func:`edge`), aimed at the ties and
boundaries the rules of docs/algorithms.md decide.
"""


def edge(seed: int, geometry: str = "rough") -> Instance:
    """Return a small instance full of ties and exact boundaries.

    Few distinct values everywhere: equal slot starts across nodes, equal
    prices and performances (and performances of equal task length), zero
    prices, slots exactly as long as a task, budgets equal to the n
    cheapest costs or one unit off, caps derived from budgets that divide
    exactly (S = 3, V = 0.8, n = 3: C = 1.25), prices at the cap, release and
    deadline bounds, equal q.
    """
    rng = np.random.default_rng(seed)
    perfs = [0.5, 0.8, 1.0, 1.0, 1.5, 2.0, 2.5, 4.0]
    prices = [0.0, 0.5, 1.0, 1.0, 1.25, 1.5, 2.0]
    nodes = [
        Node(f"n{k + 1}", float(rng.choice(perfs)), float(rng.choice(prices)),
             float(rng.choice([0.0, 1.0, 1.0, 2.0, 2.5, 0.1, 0.2, 0.3])))
        for k in range(int(rng.integers(2, 7)))
    ]  # fmt: skip
    slots = []
    for nd in nodes:
        t = int(rng.integers(0, 4))
        for _ in range(int(rng.integers(1, 4))):
            length = int(rng.integers(1, 9))
            own = float(rng.choice(prices)) if rng.random() < 0.2 else None
            slots.append(Slot(nd.id, t, t + length, own))
            t += length + int(rng.integers(0, 3))
    jobs = []
    for j in range(20):
        n = int(rng.integers(1, min(3, len(nodes)) + 1))
        volume = float(rng.choice([0.8, 1.0, 2.0, 2.5, 3.0, 4.0, 5.0]))
        costs = sorted(cost(nd.price, duration(volume, nd.performance)) for nd in nodes)
        mode = rng.random()
        budget = max_price = None
        if mode < 0.45:
            budget = max(0, sum(costs[:n]) + int(rng.integers(-1, 3)))
        elif mode < 0.55:
            budget = int(rng.choice([3, 6, 10]))
            volume, n = 0.8, min(3, len(nodes))
        elif mode < 0.75:
            max_price = float(rng.choice(prices[1:]))
        release = int(rng.integers(0, 5)) if rng.random() < 0.2 else None
        deadline = None
        if rng.random() < 0.2:
            deadline = (release or 0) + int(rng.integers(2, 12))
        jobs.append(Job(f"j{j + 1}", n, volume,
                        min_performance=float(rng.choice([0.0, 0.0, 1.0])),
                        budget=budget, max_price=max_price,
                        release=release, deadline=deadline))  # fmt: skip
    return Instance(tuple(nodes), tuple(slots), tuple(jobs), name=f"edge seed={seed}",
                    geometry=geometry)  # fmt: skip


def make(family: str, seed: int, params: dict[str, Any]) -> Instance:
    """Return the instance of a family of FAMILIES."""
    return edge(seed, **params) if family == "edge" else generate(family, seed, **params)


def planner_lines(path: str, algorithm: str) -> dict[str, dict]:
    """Return job id → the line ``planner solve --json`` prints for ``path``."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = planner_main(["solve", path, "--algorithm", algorithm, "--json"])
    if code != 0:
        raise RuntimeError(f"planner solve {path} exited {code}")
    return {d["job"]: d for d in map(json.loads, buf.getvalue().splitlines())}


def program_lines(command: list[str], paths: Sequence[str]) -> dict[tuple[str, str], dict]:
    """Run ``command PATHS...``; return (path, job id) → its result line."""
    got = subprocess.run([*command, *paths], capture_output=True, text=True, check=False)
    if got.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} exited {got.returncode}: {got.stderr[-2000:]}")
    out: dict[tuple[str, str], dict] = {}
    for line in got.stdout.splitlines():
        d = json.loads(line)
        out[(d.get("instance", paths[0]), d["job"])] = d
    return out


def as_window(inst: Instance, job_id: str, w: dict) -> Window | None:
    """Rebuild a minimal-form window with the free slot holding each placement (None: none)."""
    placements = []
    for p in w["placements"]:
        host = next((s for s in inst.slots if s.node == p["node"] and s.start <= p["start"]
                     and p["end"] <= s.end), None)  # fmt: skip
        if host is None:
            return None
        price = inst.slot_price(host)
        placements.append(Placement(p["node"], p["start"], p["end"],
                                    cost(price, p["end"] - p["start"]), host.start, host.end,
                                    inst.node(p["node"]).q))  # fmt: skip
    try:
        return Window(job_id, w["start"], tuple(placements))
    except ValueError:
        return None


def value(window: Window, metric: str) -> float:
    """The criterion value compared for ties (Σq rounded to 9 decimals)."""
    v = getattr(window, metric)
    return round(v, 9) if metric == "q" else v


def classify(inst: Instance, algorithm: str, job_id: str, ref: dict, got: dict | None) -> str:
    """Return identical, tie, differ, infeasible or missing for one job."""
    if got is None:
        return "missing"
    mine = got.get("window")
    theirs = ref.get("window")
    if mine is not None:
        w = as_window(inst, job_id, mine)
        if w is None or check_window(inst, job_id, w, price_cap=algorithm == "alp"):
            return "infeasible"
    if mine is None or theirs is None:
        return "identical" if mine is None and theirs is None else "differ"
    nodes = {p["node"] for p in mine["placements"]}
    if mine["start"] == theirs["start"] and nodes == {p["node"] for p in theirs["placements"]}:
        return "identical"
    ours = as_window(inst, job_id, theirs)
    assert ours is not None and w is not None
    return "tie" if value(w, METRIC[algorithm]) == value(ours, METRIC[algorithm]) else "differ"


def run(args: argparse.Namespace) -> int:
    """Generate, run, compare; print the tables; return the exit code."""
    algorithms = args.algorithms.split(",")
    families = [f for f in FAMILIES if args.families is None or f[0] in args.families.split(",")]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="independent-"))
    work.mkdir(parents=True, exist_ok=True)
    per_family = max(1, args.jobs // len(families))
    shown = 0
    bad_total = 0
    print(f"{'algorithm':<12} {'family':<20} {'files':>5} {'jobs':>6} {'identical':>9} "
          f"{'tie':>5} {'differ':>6} {'infeasible':>10} {'missing':>7} {'seconds':>8}")  # fmt: skip
    for algorithm in algorithms:
        if args.program:
            command = shlex.split(args.program)
        else:
            command = [sys.executable, str(HERE / f"{algorithm}.py")]
        total: Counter[str] = Counter()
        for label, family, params in families:
            counts: Counter[str] = Counter()
            jobs, seed, files = 0, args.seed, 0
            t0 = time.perf_counter()
            while jobs < per_family:
                paths: list[str] = []
                while jobs < per_family and len(paths) < args.batch:
                    path = work / f"{label}-{seed}.json"
                    if not path.exists():
                        write_instance(make(family, seed, params), path)
                    inst = read_instance(path)
                    seed += 1
                    if not inst.jobs:
                        continue
                    paths.append(str(path))
                    jobs += len(inst.jobs)
                mine = program_lines(command, paths)
                for path in paths:
                    inst = read_instance(path)
                    ref = planner_lines(path, algorithm)
                    files += 1
                    for job in inst.jobs:
                        got = mine.get((path, job.id))
                        verdict = classify(inst, algorithm, job.id, ref[job.id], got)
                        counts[verdict] += 1
                        if verdict not in ("identical", "tie") and shown < args.show:
                            shown += 1
                            print(f"  {verdict}: {algorithm} {path} {job.id}\n"
                                  f"    planner: {json.dumps(ref[job.id].get('window'))}\n"
                                  f"    program: {json.dumps(got)}")  # fmt: skip
            seconds = time.perf_counter() - t0
            n = sum(counts.values())
            print(f"{algorithm:<12} {label:<20} {files:>5} {n:>6} {counts['identical']:>9} "
                  f"{counts['tie']:>5} {counts['differ']:>6} {counts['infeasible']:>10} "
                  f"{counts['missing']:>7} {seconds:>8.1f}")  # fmt: skip
            total += counts
        n = sum(total.values())
        bad = total["differ"] + total["infeasible"] + total["missing"]
        bad_total += bad
        print(f"{algorithm:<12} {'TOTAL':<20} {'':>5} {n:>6} {total['identical']:>9} "
              f"{total['tie']:>5} {total['differ']:>6} {total['infeasible']:>10} "
              f"{total['missing']:>7}")  # fmt: skip
    if not args.keep:
        for f in work.iterdir():
            f.unlink()
        os.rmdir(work)
    return 1 if bad_total else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the comparison."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=10_000, help="jobs per algorithm (default 10000)")
    p.add_argument("--algorithms", default=",".join(ALGORITHMS))
    p.add_argument("--families", default=None, help="labels of FAMILIES to use (default all)")
    p.add_argument("--program", default=None, help="command replacing the independent program")
    p.add_argument("--seed", type=int, default=0, help="first instance seed")
    p.add_argument("--batch", type=int, default=20, help="instances per program run")
    p.add_argument("--show", type=int, default=5, help="disagreements to print")
    p.add_argument("--keep", default=None, help="directory for the instances (kept)")
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
