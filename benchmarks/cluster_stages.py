"""Machine instructions of each stage of ``planner simulate TRACE --policy P -o jobs.csv``.

Usage::

    python benchmarks/cluster_stages.py [--policies easy fcfs] [--trace FILE] [--pure]

Needs ``valgrind``. The stages of the command (imports, reading and checking
the log, the replay, the CPUs of each job, the per-job columns, writing
``jobs.csv``, the summary) run one after another in one fresh interpreter
under ``valgrind --tool=cachegrind``, which stops after stage k; a stage's
figure is the difference between stopping after it and after the one before
(instruction counts are deterministic: they do not depend on the machine's
load, unlike times). The last row is the whole command minus all the stages:
argument parsing, progress lines, printing and the like. String hashing is
randomised per run, so counts move by a few million between runs.
``--pure`` counts the pure-Python route: the optional C speedups are hidden
(as in a build without a C compiler).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KTH = ROOT / "instances" / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
STAGES = ("interpreter start-up", "imports", "reading (and checking) the log", "replay",
          "CPUs of each job", "per-job columns (wait, slowdown, …)", "writing `jobs.csv`",
          "summary")  # fmt: skip

PURE = """
import sys
sys.modules["planner.cluster._speedups"] = None  # as if never built
sys.modules["instances.traces._swf_speedups"] = None
"""
"""The prelude that hides the C speedups (``--pure``)."""

WHOLE = """
import runpy
runpy.run_module("planner.cli", run_name="__main__", alter_sys=True)
"""
"""``python -m planner.cli`` after the prelude (``--pure``)."""

STAGED = """
import gc, os, sys
gc.disable()
stop, policy, trace, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
if stop >= 1:
    import planner.cli.common, planner.cli.simulate
    from instances import read_workload
    from planner.cluster import simulate
    from planner.cluster.output import write_jobs_csv
    from planner.progress import Progress, phase
if stop >= 2:
    workload = read_workload(trace)
if stop >= 3:
    replay = simulate(workload, policy)
if stop >= 4:
    replay.alloc
if stop >= 5:
    replay.columns
if stop >= 6:
    write_jobs_csv(replay, out)
if stop >= 7:
    replay.summary()
os._exit(0)
"""


def instructions(argv: list[str]) -> int:
    """Return the instructions ``python argv`` executes, counted by cachegrind."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, *argv], check=True, env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # byte-compile first
    cachegrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                  "--cachegrind-out-file=/dev/null"]  # fmt: skip
    done = subprocess.run([*cachegrind, sys.executable, *argv], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(re.search(r"I\s+refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", nargs="+", default=["easy", "fcfs"])
    ap.add_argument("--trace", type=Path, default=KTH)
    ap.add_argument("--pure", action="store_true", help="hide the optional C speedups")
    args = ap.parse_args()
    prelude = PURE if args.pure else ""
    columns: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        script, out = Path(tmp) / "staged.py", str(Path(tmp) / "jobs.csv")
        script.write_text(prelude + STAGED, encoding="utf-8")
        (Path(tmp) / "whole.py").write_text(prelude + WHOLE, encoding="utf-8")
        command = [str(Path(tmp) / "whole.py")] if args.pure else ["-m", "planner.cli"]
        for policy in args.policies:
            ends = [instructions([str(script), str(k), policy, str(args.trace), out])
                    for k in range(len(STAGES))]  # fmt: skip
            whole = instructions([*command, "simulate", str(args.trace), "--policy", policy,
                                  "-o", out])  # fmt: skip
            columns[policy] = [ends[0], *(b - a for a, b in pairwise(ends)),
                               whole - ends[-1], whole]  # fmt: skip
    print("| stage | " + " | ".join(f"{p} (M)" for p in columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for i, name in enumerate([*STAGES, "argument parsing, output lines, the rest", "whole"]):
        print(f"| {name} | " + " | ".join(f"{c[i] / 1e6:,.0f}" for c in columns.values()) + " |")


if __name__ == "__main__":
    main()
