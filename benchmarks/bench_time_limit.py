"""Benchmark: the wall time of a whole ``planner combine --joint`` process against its
``--time-limit``, and how often its progress line is rewritten (docs/exact-models.md,
"Time budget"; docs/benchmarks.md, "Time limits of the whole command").

Usage::

    python benchmarks/bench_time_limit.py --files css3.json,big1.json,long2m.json
        [--solvers cg,cpsat,auto] [--time-limit 20] [--repeat 1] [--roots DIR,DIR]
        [--objective NAME]
    python benchmarks/bench_time_limit.py --long-slots long2m.json --horizon 2000000

Each run is a child process, ``python -m planner combine FILE --problem 8 --joint --solver
S --time-limit L --json`` (or ``--joint --objective NAME``) with ``PLANNER_PROGRESS=1``
and a 6 GiB address-space cap; its wall time runs from the child's start to its exit.
``--roots``: code trees to compare (each put first on ``PYTHONPATH``, e.g. a checkout of an
older commit), runs alternating between them. Printed per run: wall seconds and how far
past the limit, when the first progress line arrived, the largest gap between two
rewrites, and the summary's status, objective and bound (machine-independent when the
solve finishes); then the median wall time per case. ``--long-slots`` writes the batch
of very long slots used there: 6 nodes free over [0, horizon) but for two short busy
spells, 3 jobs (AMP finds about horizon / 54 alternatives per job).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

MEMORY = 6 * 2**30
"""Address-space cap of each child (bytes): a run that would exhaust the machine fails."""


def long_slots(path: str, horizon: int) -> None:
    """Write the batch of very long slots to ``path``."""
    nodes = [{"id": f"n{i}", "performance": float(p), "price": float(c)} for i, (p, c) in
             enumerate([(2, 2), (3, 3), (4, 4.5), (5, 5), (6, 6.5), (8, 8)], 1)]
    busy = [{"node": "n1", "start": 10, "end": 30}, {"node": "n3", "start": 50, "end": 70}]
    jobs = [{"id": f"j{k}", "nodes": 2 + k % 2, "volume": 120.0 + 20 * k, "budget": 10**6,
             "criterion": "min_finish"} for k in range(1, 4)]
    Path(path).write_text(json.dumps({
        "format": "planner.instance/1", "name": f"long slots {horizon}",
        "horizon": [0, horizon], "geometry": "rough", "nodes": nodes, "busy": busy,
        "jobs": jobs}, indent=1), encoding="utf-8")


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(root: str | None, argv: list[str]) -> dict:
    """Run one child; return its wall time, progress stamps and summary line."""
    env = {**os.environ, "PLANNER_PROGRESS": "1"}
    if root:
        env["PYTHONPATH"] = root
    began = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "planner", *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, preexec_fn=_cap)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(child.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    stamps = []
    while child.stderr.read1(4096):  # type: ignore[union-attr]
        stamps.append(time.perf_counter() - began)
    child.wait()
    wall = time.perf_counter() - began
    reader.join()
    lines = out[0].decode().splitlines() if out else []
    try:
        summary = json.loads(lines[-1]) if lines else {}
    except ValueError:
        summary = {}
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    return {"wall": wall, "code": child.returncode, "first": stamps[0] if stamps else None,
            "gap": max(gaps, default=0.0), "summary": summary}


def main() -> None:
    """Print one row per run, then the median wall time per case."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", default="")
    ap.add_argument("--solvers", default="cg,cpsat,auto")
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--roots", default="", help="code trees to compare (default: this one)")
    ap.add_argument("--objective", default=None, help="--joint --objective NAME instead of (8)")
    ap.add_argument("--long-slots", default=None, help="write the long-slot batch here")
    ap.add_argument("--horizon", type=int, default=2_000_000)
    args = ap.parse_args()
    if args.long_slots:
        long_slots(args.long_slots, args.horizon)
        print(f"wrote {args.long_slots}", file=sys.stderr)
        return
    roots = [r for r in args.roots.split(",") if r] or [None]
    what = ["--objective", args.objective] if args.objective else ["--problem", "8"]
    walls: dict[tuple[str, str, str | None], list[float]] = {}
    print("file,solver,root,wall,past_limit,exit,first_line,largest_gap,status,objective,bound")
    for path in [f for f in args.files.split(",") if f]:
        for solver in args.solvers.split(","):
            for _ in range(args.repeat):
                for root in roots:
                    argv = ["combine", path, "--joint", "--solver", solver, "--time-limit",
                            f"{args.time_limit:g}", "--json", *what]
                    r = run(root, argv)
                    s = r["summary"]
                    walls.setdefault((path, solver, root), []).append(r["wall"])
                    first = "" if r["first"] is None else f"{r['first']:.2f}"
                    print(f"{Path(path).name},{solver},{root or '.'},{r['wall']:.2f},"
                          f"{r['wall'] - args.time_limit:+.2f},{r['code']},{first},"
                          f"{r['gap']:.2f},{s.get('status')},{s.get('objective')},"
                          f"{s.get('bound')}", flush=True)
    for (path, solver, root), values in walls.items():
        print(f"# median wall {Path(path).name} {solver} {root or '.'}: "
              f"{statistics.median(values):.2f} s over {len(values)} runs")


if __name__ == "__main__":
    main()
