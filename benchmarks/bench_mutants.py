"""Benchmark: the power of ``planner verify`` — which planted bugs its default run catches
(docs/verify.md, "Measuring the verifier's power").

Usage::

    python benchmarks/bench_mutants.py [--only NAME,...] [--no-java] [--markdown]

Runs ``planner verify --algorithm A --json --out DIR -- python COPY/A.py
{instances}`` — the default run: seed 0, the default corpus, shrinking on —
once for every mutant of ``benchmarks/mutants.py`` (a copy of
``benchmarks/independent`` with one line edited) and once for every correct
independent program (false alarms), then the Java AMP of ``examples/verify``
and its planted bug where ``javac`` exists. Each row gives the verdict (caught:
exit 3), the disagreeing jobs out of the corpus, the jobs judged up to the
first disagreement (corpus order), the distinct disagreements shrunk and the
largest minimal counterexample (nodes, most slots on one node, jobs), the
program runs, and the wall time of the whole command. A mutant the default
run does not catch is rerun with ``--strict --no-shrink``: ties it then
shows are the other choices among equally good windows its argument in
``benchmarks/mutants.py`` says it makes. Exit 1 when a non-equivalent
mutant survives, a mutant only crashes (an edit that breaks the program is no bug to
catch), or a correct program gets a false alarm.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutants import MUTANTS, Mutant, materialise

ROOT = Path(__file__).resolve().parents[1]
ALGORITHMS = ("alp", "amp", "min_cost", "min_runtime", "min_finish", "max_q")


def verify(algorithm: str, program: list[str], out: Path, *extra: str) -> tuple[float, int, dict]:
    """Run ``planner verify``; return (wall seconds, exit code, its --json summary)."""
    argv = [sys.executable, "-m", "planner", "verify", "--algorithm", algorithm, "--json",
            "--out", str(out), *extra, "--", *program, "{instances}"]  # fmt: skip
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 3):
        raise SystemExit(f"planner verify failed ({done.returncode}): {done.stderr.strip()}")
    return seconds, done.returncode, json.loads(done.stdout)


def row(name: str, algorithm: str, bug: str, seconds: float, code: int, s: dict,
        strict: dict | None, equivalent: bool) -> dict:  # fmt: skip
    """Return the measured row of one program."""
    c = s["counts"]
    bad = s["jobs"] - c["identical"] - c["tie"]
    dims = [x["dimensions"] for x in s["counterexamples"]]
    largest = max(dims, key=lambda d: (d["nodes"], d["slots_per_node"], d["jobs"]), default=None)
    return {
        "name": name, "algorithm": algorithm, "bug": bug, "caught": code == 3,
        "jobs": s["jobs"], "disagree": bad, "ties": c["tie"],
        "kinds": ", ".join(f"{x['verdict']}" + (f"/{x['kind']}" if x["kind"] else "")
                           for x in s["counterexamples"]),
        "first": s["first_disagreement"], "counterexamples": len(dims), "largest": largest,
        "small": all(d["nodes"] <= 3 and d["slots_per_node"] <= 3 for d in dims),
        "runs": s["runs"], "seconds": seconds, "equivalent": equivalent,
        "strict_differ": None if strict is None else strict["counts"]["differs"],
    }  # fmt: skip


def size(d: dict | None) -> str:
    """Return "2n/1s/1j" (nodes, most slots on one node, jobs) or "-"."""
    return "-" if d is None else f"{d['nodes']}n/{d['slots_per_node']}s/{d['jobs']}j"


def verdict(r: dict) -> str:
    """Return caught, survived (equivalent: N ties under --strict), no false alarm, ..."""
    if r["bug"] == "(correct)":
        return "no false alarm" if not r["caught"] else "FALSE ALARM"
    if r["caught"] and r["kinds"] and all(k.startswith("crashed") for k in r["kinds"].split(", ")):
        return "BROKEN (it crashes)"
    if r["caught"]:
        return "caught"
    strict = f"; --strict: {r['strict_differ']} differ" if r["strict_differ"] is not None else ""
    return ("equivalent" if r["equivalent"] else "SURVIVED") + strict


def show(r: dict, markdown: bool) -> str:
    """Return one table line."""
    cells = [r["name"], r["bug"], verdict(r), f"{r['disagree']:,} / {r['jobs']:,}",
             "-" if r["first"] is None else f"{r['first']:,}", str(r["counterexamples"]),
             size(r["largest"]), str(r["runs"]), f"{r['seconds']:.1f}", r["kinds"] or "-"]
    if markdown:
        return "| " + " | ".join(f"`{c}`" if i == 0 else c for i, c in enumerate(cells)) + " |"
    return (f"{cells[0]:<28} {cells[2]:<28} {cells[3]:>13} {cells[4]:>6} {cells[5]:>3} "
            f"{cells[6]:>9} {cells[7]:>5} {cells[8]:>6}  {cells[9]}: {cells[1]}")  # fmt: skip


HEAD = ("| program | bug | verdict | disagree / jobs | first | shrunk | largest | runs | "
        "seconds | disagreements shrunk |\n"
        "| --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |")


def main() -> int:
    """Run every program; print one row each and a total line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated mutant or program names")
    parser.add_argument("--no-java", action="store_true", help="skip the Java example")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    plans: list[tuple[str, str, str, Mutant | None, list[str] | None]] = []
    for a in ALGORITHMS:
        plans.append((f"{a} (correct)", a, "(correct)", None, None))
    for m in MUTANTS:
        plans.append((m.name, m.algorithm, m.bug, m, None))
    work = Path(tempfile.mkdtemp(prefix="bench-mutants-"))
    java = None if args.no_java or shutil.which("javac") is None else work / "java"
    if java is not None:
        src = ROOT / "examples" / "verify"
        subprocess.run(["javac", "-d", str(java), str(src / "Amp.java"),
                        str(src / "AmpBuggy.java")], check=True)  # fmt: skip
        plans.append(("Amp.java (correct)", "amp", "(correct)", None,
                      ["java", "-cp", str(java), "Amp"]))  # fmt: skip
        plans.append(("AmpBuggy.java", "amp", "`<` for `<=` on the budget (Java)", None,
                      ["java", "-cp", str(java), "AmpBuggy"]))  # fmt: skip
    load = os.getloadavg()[0]
    print(HEAD if args.markdown else f"{'program':<28} {'verdict':<28} {'disagree/jobs':>13} "
          f"{'first':>6} {'cx':>3} {'largest':>9} {'runs':>5} {'s':>6}  kinds: bug")  # fmt: skip
    rows = []
    try:
        for k, (name, algorithm, bug, mutant, program) in enumerate(plans):
            if only is not None and name not in only and name.split(" ")[0] not in only:
                continue
            if program is None:
                folder = materialise(mutant, work / f"p{k}")
                program = [sys.executable, str(folder / f"{algorithm}.py")]
            seconds, code, s = verify(algorithm, program, work / f"out{k}")
            strict = None
            if mutant is not None and code == 0:
                _, _, strict = verify(algorithm, program, work / f"strict{k}", "--strict",
                                      "--no-shrink")  # fmt: skip
            equivalent = bool(mutant and mutant.equivalent)
            rows.append(row(name, algorithm, bug, seconds, code, s, strict, equivalent))
            print(show(rows[-1], args.markdown), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    bugs = [r for r in rows if r["bug"] != "(correct)"]
    live = [r for r in bugs if not r["equivalent"]]
    alarms = sum(r["caught"] for r in rows if r["bug"] == "(correct)")
    print(f"{sum(r['caught'] for r in live)} of {len(live)} non-equivalent mutants caught, "
          f"{sum(r['small'] for r in live if r['caught'])} of them with every counterexample "
          f"<= 3 nodes and <= 3 slots per node; {len(bugs) - len(live)} equivalent; "
          f"{alarms} false alarms on {len(rows) - len(bugs)} correct programs; "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")  # fmt: skip
    broken = any(verdict(r).startswith("BROKEN") for r in bugs)
    return 1 if alarms or broken or any(not r["caught"] for r in live) else 0


if __name__ == "__main__":
    sys.exit(main())
