"""The schedule-gap study as a study kind: ``planner study schedule-gap``.

Klusáček & Rudová 2008's policies replay ``klusacek2008`` snapshots and an exact
solver schedules each offline (``docs/schedule-based.md``, "Gap to the optimum"); one
unit is a snapshot.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from validation.study.engine.errors import StudyError
from validation.study.engine.kind import Outcome, ReportParts, StudyKind
from validation.study.engine.options import number
from validation.study.engine.runner import Units
from validation.study.engine.storage import StudyStore
from validation.study.schedule_gap.figure import NAME as FIGURE
from validation.study.schedule_gap.spec import POLICIES, ScheduleGapSpec
from validation.study.schedule_gap.store import ScheduleGapStore


class ScheduleGapKind(StudyKind):
    """Cluster policies against the exact optimum of snapshots
    (:mod:`validation.study.schedule_gap`)."""

    name = "schedule-gap"
    help = "cluster policies vs the exact optimum (or a proven bound) of snapshots"
    unit = "snapshot"
    store = ScheduleGapStore
    database = "schedule-gap.sqlite"
    figures = (FIGURE,)
    list_columns = ("id", "snapshots", "jobs", "machines", "seed", "policies", "time limit",
                    "done", "version", "created")  # fmt: skip

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the snapshots' size, the solver, the policies and ``--csv``."""
        from planner.registry import SNAPSHOT_SOLVERS

        d, p = ScheduleGapSpec(), parser
        p.add_argument("--snapshots", type=number("--snapshots", int, 1), default=d.snapshots,
                       help=f"number of snapshots (default {d.snapshots})")  # fmt: skip
        p.add_argument("--jobs", type=number("--jobs", int, 1), default=d.jobs,
                       help=f"jobs per snapshot (default {d.jobs})")  # fmt: skip
        p.add_argument("--machines", type=number("--machines", int, 1), default=d.machines,
                       help=f"machines per snapshot (default {d.machines})")  # fmt: skip
        p.add_argument("--interarrival", type=number("--interarrival", float, 0),
                       default=d.interarrival,
                       help=f"mean seconds between releases (default {d.interarrival:g})")
        p.add_argument("--time-limit", type=number("--time-limit", float, 0),
                       default=d.time_limit,
                       help=f"solver seconds per snapshot (default {d.time_limit:g})")
        p.add_argument("--solver", default=d.solver, choices=list(SNAPSHOT_SOLVERS),
                       help="exact snapshot solver: " + "; ".join(
                           f"{k}: {v}" for k, v in SNAPSHOT_SOLVERS.items())
                       + f" (default {d.solver}; docs/exact-models.md)")  # fmt: skip
        p.add_argument("--threads", type=number("--threads", int, 1), default=d.threads,
                       help="CP-SAT threads per snapshot (default 1)")  # fmt: skip
        p.add_argument("--seed", type=number("--seed", int, 0), default=d.seed,
                       help="first snapshot seed (default 0)")  # fmt: skip
        p.add_argument("--policies", nargs="+", default=list(POLICIES), metavar="NAME",
                       help=f"default: {' '.join(POLICIES)}")  # fmt: skip
        p.add_argument("--csv", metavar="FILE",
                       help="also write one row per snapshot and policy")  # fmt: skip

    def spec_from_args(self, args: argparse.Namespace) -> ScheduleGapSpec:
        """Return the spec."""
        return ScheduleGapSpec(args.snapshots, args.jobs, args.machines, args.interarrival,
                               args.time_limit, args.seed, tuple(args.policies),
                               args.threads, args.solver)  # fmt: skip

    def check(self, spec: ScheduleGapSpec) -> None:
        """Generate every snapshot and refuse, before any work, one its generator or solver
        refuses (StudyError: one line naming the snapshot and the rule)."""
        from validation.study.schedule_gap.task import check_task

        for task in spec.tasks():
            check_task(task)

    def threads(self, spec: ScheduleGapSpec) -> int:
        """Return the solver's threads per snapshot."""
        return spec.threads

    def check_outputs(self, args: argparse.Namespace) -> None:
        """Refuse a ``--csv`` that is a folder or lies in a missing one."""
        if args.csv and (Path(args.csv).is_dir() or not Path(args.csv).parent.is_dir()):
            raise StudyError(f"cannot write {args.csv} (not a file in an existing directory)")

    def write_outputs(self, args: argparse.Namespace,
                      rows: Sequence[Mapping[str, Any]]) -> list[Path]:  # fmt: skip
        """Write ``--csv``: one row per snapshot and policy (no run times)."""
        from validation.study.schedule_gap.report import write_csv

        if not args.csv:
            return []
        try:
            write_csv(rows, args.csv)
        except OSError as err:
            raise StudyError(f"cannot write {args.csv} ({err.strerror})") from None
        return [Path(args.csv)]

    def headline(self, spec: ScheduleGapSpec, outcome: Outcome, store: StudyStore) -> str:
        """Snapshots, size, computed now, the solver's statuses and its seconds."""
        from validation.study.schedule_gap.report import statuses

        seconds = store.seconds(outcome.study)  # type: ignore[attr-defined]
        counts = ", ".join(f"{v} {k}" for k, v in statuses(outcome.rows).items())
        return (f"{plural(spec.snapshots, 'snapshot')} of {plural(spec.jobs, 'job')} on "
                f"{plural(spec.machines, 'machine')} "
                f"({outcome.written} solved now) in {store.path}; {spec.solver} within "
                f"{spec.time_limit:g} s: {counts}; solver {seconds[1]:.1f} s in total")

    def units(self, spec: ScheduleGapSpec, store: StudyStore) -> Units:
        """Every snapshot, replayed and solved by
        :func:`~validation.study.schedule_gap.task.run_snapshot`."""
        from validation.study.schedule_gap.task import run_snapshot

        tasks = spec.tasks()
        return Units(range(spec.seed, spec.seed + spec.snapshots), lambda: tasks,
                     lambda t: t.seed, run_snapshot, store.rows, "snapshot",
                     "schedule-gap: snapshots")  # fmt: skip

    def listing(self, info: Mapping[str, Any]) -> dict[str, Any]:
        """Snapshots, their size, seed, policies and time limit."""
        spec = info["spec"]
        return {"id": info["id"], "snapshots": spec.snapshots, "jobs": spec.jobs,
                "machines": spec.machines, "seed": spec.seed,
                "policies": " ".join(spec.policies), "time limit": f"{spec.time_limit:g}",
                "done": info["done"], "version": info["version"],
                "created": info["created"]}  # fmt: skip

    def prefix(self, spec: ScheduleGapSpec) -> str:
        """``schedule-gap``."""
        return "schedule-gap"

    def findings(self, rows: Sequence[Mapping[str, Any]],
                 spec: ScheduleGapSpec) -> tuple[str, str]:  # fmt: skip
        """Extra delayed jobs and makespan gap over the proven snapshots, paired by snapshot."""
        from validation.study.schedule_gap.report import findings

        return findings(rows, spec.time_limit)

    def render(self, store: StudyStore, info: Mapping[str, Any],
               rows: Sequence[Mapping[str, Any]], out: Path, formats: Sequence[str],
               progress: bool | None) -> ReportParts:  # fmt: skip
        """Gap and status tables, the per-snapshot table and the figure."""
        from validation.study.schedule_gap.report import report_parts

        return report_parts(store, info, rows, out, formats)  # type: ignore[arg-type]


SCHEDULE_GAP = ScheduleGapKind()
"""The schedule-gap study kind."""
