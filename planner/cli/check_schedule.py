"""``planner check-schedule WORKLOAD jobs.csv``: check a job-flow schedule independently.

Exit codes, as for ``planner check`` and ``planner verify``: 0 the schedule
keeps every rule; 3 it breaks rules (one violation per line on stdout,
``<rule>: <detail>``, then one line on stderr); 2 bad input (a file that
cannot be read: one line on stderr); 1 is left to internal errors. The checker is
:mod:`validation.cluster_check`; the invariants are listed in ``docs/workloads.md``.
"""

from __future__ import annotations

import argparse
import sys

from instances.text import plural
from planner.cli.common import EXIT_VIOLATIONS, UsageError, emit_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``check-schedule`` command."""
    p = sub.add_parser(
        "check-schedule",
        help="check a job-flow schedule (jobs.csv) against its workload; exit 3 on violations",
        description="Check every row of a jobs.csv against the workload it was simulated on: "
        "each job exactly once, CPUs never double-booked, capacity, no start before "
        "submission, durations, times and metrics, and the policy's invariant. Exit 0 "
        "when clean; 3 when violations are found (printed one per line); 2 when an input "
        "is bad.",
    )
    p.add_argument("workload", help="the workload: planner.workload/1 JSON, .swf or .swf.gz")
    p.add_argument("jobs_csv", metavar="jobs.csv", help="the schedule (planner simulate -o)")
    p.add_argument("--policy", help="add the invariant of fcfs, easy or conservative")
    p.add_argument(
        "--reservations",
        metavar="FILE",
        help="the simulator's reservation log (time,job_id,kind,machine,start); "
        "needed for the easy and conservative invariants",
    )
    p.add_argument("--machines", metavar="FILE", help="Alea machines file, as given to simulate")
    p.add_argument(
        "--estimates",
        default="requested",
        choices=("requested", "actual"),
        help="estimates as given to simulate (default: requested)",
    )
    p.add_argument(
        "--limit", type=int, default=50, help="print at most N violations (0: all; default 50)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the inputs, check, print the violations; return 0 clean, 3 violations."""
    from pathlib import Path

    from instances import read_workload
    from instances.errors import did_you_mean
    from planner.progress import phase
    from validation.cluster_check import POLICIES, check_schedule_files

    if args.policy is not None and args.policy not in POLICIES:
        choices = ", ".join(POLICIES)
        hint = did_you_mean(args.policy, POLICIES)
        raise UsageError(f"planner check-schedule: unknown policy '{args.policy}'{hint} "
                         f"({choices})")  # fmt: skip
    if args.limit < 0:
        raise UsageError("planner check-schedule: --limit must be >= 0")
    with phase(f"reading {Path(args.workload).name}"):
        workload = read_workload(args.workload, machines=args.machines, estimates=args.estimates)
    with phase(f"checking {args.jobs_csv}"):
        violations = check_schedule_files(
            workload, args.jobs_csv, policy=args.policy, reservations=args.reservations
        )
    unchecked = args.policy in ("easy", "conservative") and args.reservations is None
    if unchecked:
        print(
            f"planner check-schedule: no --reservations log: the {args.policy} invariant "
            "is not checked",
            file=sys.stderr,
        )
    if args.json:
        emit_json(
            {
                "jobs": len(workload.jobs),
                "violations": len(violations),
                "policy_checked": args.policy is not None and not unchecked,
                "details": violations,
            }
        )
        return _verdict(args.jobs_csv, violations)
    shown = violations if args.limit == 0 else violations[: args.limit]
    for line in shown:
        print(line)
    if len(shown) < len(violations):
        print(f"... and {len(violations) - len(shown)} more")
    status = plural(len(violations), 'violation') if violations else "no violations"
    print(f"{args.jobs_csv}: {plural(len(workload.jobs), 'job')} checked: {status}")
    return _verdict(args.jobs_csv, violations)


def _verdict(path: str, violations: list[str]) -> int:
    if not violations:
        return 0
    print(f"{path}: the schedule breaks {plural(len(violations), 'rule')} (listed on stdout)",
          file=sys.stderr)  # fmt: skip
    return EXIT_VIOLATIONS
