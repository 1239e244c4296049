"""Digests of replay outputs, to show that a change of the replay core changes no schedule.

Usage::

    python benchmarks/replay_identity.py --save before.json   # on the code before a change
    python benchmarks/replay_identity.py --compare before.json  # on the code after it

For every case (the bundled logs, the first jobs of KTH-SP2 with deadlines,
synthetic ``klusacek2008`` flows, and 300 small random workloads of 1-3
machines with ties, zero lengths and kills) and every policy that the case
lists, it replays the workload, writes ``jobs.csv``, the reservation log and
the summary (without the two ``scheduler_seconds`` entries, which are
measured times), and records the SHA-256 of each. ``--compare`` prints every
case whose digests differ and exits 1 if any does. ``--cli`` also runs the
whole ``planner simulate`` command on KTH-SP2 under FCFS, EASY and
conservative backfilling and digests its ``jobs.csv``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from instances import generate_workload, read_workload
from instances.workload import ClusterJob, Machine, Workload
from planner.cluster import POLICIES, ReservationLog, simulate
from planner.cluster.output import write_jobs_csv

ROOT = Path(__file__).parents[1]
TRACES = ROOT / "instances" / "data" / "traces"
QUEUE_BASED = ("fcfs", "easy", "conservative", "flex")
TIMED = ("scheduler_seconds", "scheduler_seconds_per_job")


def random_workload(seed: int) -> Workload:
    """Return a small workload: 1-3 machines of speeds 1-2, up to 14 jobs with ties and kills."""
    rng = random.Random(seed)
    machines = tuple(Machine(f"m{k}", rng.randint(1, 6), speed=rng.choice((1.0, 1.5, 2.0)))
                     for k in range(rng.randint(1, 3)))  # fmt: skip
    widest = max(m.cpus for m in machines)
    jobs = []
    for i in range(rng.randint(1, 14)):
        work = rng.choice((0, rng.randint(1, 12), rng.randint(1, 30)))
        estimate = rng.choice((None, work, work + rng.randint(0, 10), max(0, work - 3)))
        deadline = rng.choice((None, rng.randint(0, 60)))
        jobs.append(ClusterJob(f"j{i}", rng.randint(0, 25), rng.randint(1, widest), work,
                               estimate=estimate, deadline=deadline))  # fmt: skip
    return Workload(machines, tuple(jobs), name=f"random-{seed}")


def cases(quick: bool) -> Iterator[tuple[str, Workload, tuple[str, ...], str]]:
    """Yield (name, workload, policies, estimates) of every case."""
    kth = TRACES / "KTH-SP2-1996-2.1-cln.swf.gz"
    hpc2n = (TRACES / "hpc2n-alea.swf.gz", TRACES / "hpc2n-alea.swf.machines")
    for estimates in ("requested", "actual"):
        yield (f"KTH-SP2 {estimates}", read_workload(kth, estimates=estimates), QUEUE_BASED,
               estimates)  # fmt: skip
        if quick:
            continue
        yield (f"NASA {estimates}", read_workload(TRACES / "NASA-iPSC-1993-3.1-cln.swf.gz",
               estimates=estimates), QUEUE_BASED, estimates)  # fmt: skip
        yield (f"HPC2N {estimates}", read_workload(hpc2n[0], machines=hpc2n[1],
               estimates=estimates), tuple(POLICIES), estimates)  # fmt: skip
    if quick:
        return
    yield ("KTH-SP2 first 1500 with deadlines",
           generate_workload("swf-workload", 3, jobs=1500), tuple(POLICIES), "requested")
    for seed, jobs, ia in ((1, 600, 5.0), (2, 600, 2.0), (3, 400, 1.0)):
        wl = generate_workload("klusacek2008", seed, jobs=jobs, interarrival=ia)
        yield f"klusacek2008 seed {seed} ({jobs} jobs, {ia} s)", wl, tuple(POLICIES), "requested"
    for seed in range(300):
        yield f"random {seed}", random_workload(seed), tuple(POLICIES), "requested"


def digest(data: bytes) -> str:
    """Return the SHA-256 of ``data`` (first 16 hex digits)."""
    return hashlib.sha256(data).hexdigest()[:16]


def replay_digests(wl: Workload, policy: str, estimates: str, tmp: Path) -> dict[str, str]:
    """Replay and return the digests of jobs.csv, the reservation log and the summary."""
    log = ReservationLog()
    rep = simulate(wl, policy, log=log, estimates=estimates)
    write_jobs_csv(rep, tmp / "jobs.csv")
    log.write(tmp / "res.csv")
    summary = {k: v for k, v in rep.summary().items() if k not in TIMED}
    text = json.dumps(summary, sort_keys=True).encode()
    return {"jobs.csv": digest((tmp / "jobs.csv").read_bytes()),
            "reservations": digest((tmp / "res.csv").read_bytes()), "summary": digest(text)}


def cli_digests(tmp: Path) -> dict[str, str]:
    """Return the digest of ``planner simulate KTH-SP2 -o jobs.csv`` per queue policy."""
    out = {}
    for policy in ("fcfs", "easy", "conservative"):
        subprocess.run([sys.executable, "-m", "planner.cli", "simulate",
                        "KTH-SP2-1996-2.1-cln.swf.gz", "--policy", policy, "-o",
                        str(tmp / "cli.csv")], check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        out[f"cli {policy}"] = digest((tmp / "cli.csv").read_bytes())
    return out


def main() -> None:
    """Compute the digests; save or compare them."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, help="write the digests to this JSON file")
    group.add_argument("--compare", type=Path, help="compare with digests saved earlier")
    ap.add_argument("--quick", action="store_true", help="KTH-SP2 only")
    ap.add_argument("--cli", action="store_true", help="also digest the whole command's jobs.csv")
    args = ap.parse_args()
    found: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, wl, policies, estimates in cases(args.quick):
            for policy in policies:
                found[f"{name} / {policy}"] = replay_digests(wl, policy, estimates, Path(tmp))
        if args.cli:
            found["cli"] = cli_digests(Path(tmp))
    if args.save:
        args.save.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"{len(found)} replays digested into {args.save}")
        return
    saved = json.loads(args.compare.read_text())
    differ = [k for k in found if k in saved and saved[k] != found[k]]
    missing = [k for k in found if k not in saved]
    for key in differ:
        print(f"DIFFERS {key}: {saved[key]} -> {found[key]}")
    print(f"{len(found)} replays, {len(found) - len(differ) - len(missing)} identical, "
          f"{len(differ)} differ, {len(missing)} not in {args.compare}")  # fmt: skip
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
