"""The cluster-policy study as a study kind: ``planner study cluster`` (docs/job-flows.md).

Workloads (files or families) replayed under several policies, each replay checked by
the independent checker; one unit is a replay.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from validation.study.cluster.report import FIGURES
from validation.study.cluster.spec import DEFAULT_POLICIES, ClusterStudySpec, Task
from validation.study.cluster.store import ClusterStore
from validation.study.engine.errors import StudyError
from validation.study.engine.kind import Outcome, ReportParts, StudyKind
from validation.study.engine.options import number, param_value
from validation.study.engine.runner import Units
from validation.study.engine.storage import StudyStore


class ClusterKind(StudyKind):
    """Cluster policies on workloads (:mod:`validation.study.cluster`)."""

    name = "cluster"
    help = "cluster policies (FCFS, EASY, conservative) on workloads"
    unit = "replay"
    store = ClusterStore
    database = "cluster.sqlite"
    figures = tuple(col for col, _ in FIGURES)
    list_columns = ("id", "workloads", "policies", "seeds", "estimates", "replays", "done",
                    "version", "created")  # fmt: skip

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the workloads, policies, seeds, estimates, family parameters and machines."""
        p = parser
        p.add_argument("--workload", nargs="+", required=True, metavar="W",
                       help="workload files or workload family names")  # fmt: skip
        p.add_argument("--policies", nargs="+", default=list(DEFAULT_POLICIES), metavar="NAME",
                       help=f"default: {' '.join(DEFAULT_POLICIES)}")  # fmt: skip
        p.add_argument("--seeds", nargs="+", type=number("--seeds", int, 0), default=[0],
                       metavar="N", help="seeds of family workloads (default 0)")  # fmt: skip
        p.add_argument("--estimates", nargs="+", default=["requested"],
                       choices=("requested", "actual"), help="default: requested")  # fmt: skip
        p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                       help="a family parameter for family workloads (repeatable), "
                       "e.g. --param interarrival=3")  # fmt: skip
        p.add_argument("--machines", metavar="FILE", help="Alea machines file for every workload")

    def spec_from_args(self, args: argparse.Namespace) -> ClusterStudySpec:
        """Return the spec (``--param NAME=VALUE`` read as ``planner generate`` reads them)."""
        return ClusterStudySpec(workloads=tuple(args.workload), policies=tuple(args.policies),
                                seeds=tuple(args.seeds), estimates=tuple(args.estimates),
                                machines=args.machines,
                                params=_params(args.param, args.workload))  # fmt: skip

    def headline(self, spec: ClusterStudySpec, outcome: Outcome, store: StudyStore) -> str:
        """``N replays (K computed now) in DB``."""
        return f"{outcome.units} replays ({outcome.written} computed now) in {store.path}"

    def units(self, spec: ClusterStudySpec, store: StudyStore) -> Units:
        """Every replay of the spec, run by :func:`~validation.study.cluster.task.run_task`."""
        from validation.study.cluster.task import run_task

        tasks = spec.tasks()
        return Units([_key(t) for t in tasks], lambda: tasks, _key, run_task, store.rows,
                     "replay", "cluster study: replays")  # fmt: skip

    def listing(self, info: Mapping[str, Any]) -> dict[str, Any]:
        """Workloads, policies, seeds and estimates."""
        spec = info["spec"]
        return {"id": info["id"], "workloads": " ".join(Path(w).name for w in spec.workloads),
                "policies": " ".join(spec.policies), "seeds": " ".join(map(str, spec.seeds)),
                "estimates": " ".join(spec.estimates), "replays": len(spec.tasks()),
                "done": info["done"], "version": info["version"],
                "created": info["created"]}  # fmt: skip

    def prefix(self, spec: ClusterStudySpec) -> str:
        """``cluster``."""
        return "cluster"

    def findings(self, rows: Sequence[Mapping[str, Any]],
                 spec: ClusterStudySpec) -> tuple[str, str]:  # fmt: skip
        """Mean bounded slowdown per workload, paired by seed."""
        from validation.study.cluster.report import findings

        return findings(rows)

    def render(self, store: StudyStore, info: Mapping[str, Any],
               rows: Sequence[Mapping[str, Any]], out: Path, formats: Sequence[str],
               progress: bool | None) -> ReportParts:  # fmt: skip
        """Summary (CSV, Markdown), rows and the grouped-bar figures."""
        from validation.study.cluster.report import report_parts

        return report_parts(rows, info, out, formats)


def _key(task: Task) -> tuple[str, int, str, str]:
    return (task.workload, task.seed, task.estimates, task.policy)


def _params(pairs: list[str], workloads: list[str]) -> dict[str, Any]:
    """Parse ``NAME=VALUE`` pairs as ``planner generate`` parses family parameters."""
    from instances import WORKLOAD_FAMILIES

    defaults: dict[str, Any] = {}
    for w in workloads:
        if w in WORKLOAD_FAMILIES:
            defaults.update(WORKLOAD_FAMILIES[w].defaults)
    params = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        if not eq or not name:
            raise StudyError(f"--param needs NAME=VALUE, got '{pair}'")
        name = name.replace("-", "_")
        params[name] = param_value(name, text, defaults.get(name))
    return params


CLUSTER = ClusterKind()
"""The cluster-policy study kind."""
