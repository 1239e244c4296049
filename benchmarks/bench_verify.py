"""Benchmark: ``planner verify``'s default run against a correct program and a planted bug
(docs/verify.md).

Usage::

    python benchmarks/bench_verify.py [--repeats 3] [--one-by-one]

The program is ``tests/planner/programs/amp_like.py``: planner's own AMP in
the minimal form (correct), or with the budget test written ``cost < S``
(a planted bug). It imports planner, so each start costs about half a
second, as a JVM's does. Each line prints the machine-independent counts
(instances, jobs, program runs, verdicts, counterexample sizes) beside the
median wall time of ``--repeats`` runs of the whole command, shrinking
included. ``--one-by-one`` adds the same runs with ``{instance}`` (one start
per instance and per shrinking candidate). Target: the default run (2,060
jobs) in well under a minute, a planted bug caught and shrunk in under 60 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROGRAM = Path(__file__).resolve().parents[1] / "tests" / "planner" / "programs" / "amp_like.py"


def run(mode: str, placeholder: str) -> tuple[float, dict]:
    """Run ``planner verify`` once; return (wall seconds, its --json summary)."""
    with tempfile.TemporaryDirectory() as out:
        argv = [sys.executable, "-m", "planner", "verify", "--algorithm", "amp", "--json",
                "--out", out, "--", sys.executable, str(PROGRAM), "amp", mode, placeholder]
        t0 = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - t0
    if done.returncode not in (0, 3):
        raise SystemExit(f"planner verify failed: {done.stderr.strip()}")
    return seconds, json.loads(done.stdout)


def main() -> None:
    """Print one line per configuration: counts, then the median wall time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--one-by-one", action="store_true", help="also {instance} runs")
    args = parser.parse_args()
    forms = ["{instances}", "{instance}"] if args.one_by_one else ["{instances}"]
    for placeholder in forms:
        for mode in ("ok", "strict-budget"):
            times, summary = [], {}
            for _ in range(args.repeats):
                seconds, summary = run(mode, placeholder)
                times.append(seconds)
            c = summary["counts"]
            shrunk = "; ".join(f"{x['verdict']} ({x['kind']}): {x['size']}"
                               for x in summary["counterexamples"]) or "none"  # fmt: skip
            print(f"{mode:13s} {placeholder:11s} {summary['instances']} instances, "
                  f"{summary['jobs']} jobs, {summary['runs']} runs; identical {c['identical']}, "
                  f"ties {c['tie']}, differ {c['differs']}; counterexamples: {shrunk}; "
                  f"median {statistics.median(times):.1f} s of {args.repeats}")  # fmt: skip


if __name__ == "__main__":
    main()
