"""The gap study as a study kind: ``planner study gap`` (docs/studies.md).

Every slot-search heuristic against the exact optimum on generated instances; one unit
is an instance (every geometry × job × algorithm of it).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from validation.study.engine.errors import StudyError
from validation.study.engine.kind import Outcome, ReportParts, StudyKind
from validation.study.engine.options import number, param_value
from validation.study.engine.runner import Units
from validation.study.engine.storage import StudyStore
from validation.study.gap.plots import FIGURES
from validation.study.gap.spec import MAX_INSTANCES, MAX_THREADS, StudySpec
from validation.study.gap.store import Store

QUICK: dict[str, Any] = {
    "family": "tiny", "instances": 40, "seed": 0, "geometries": ("rough", "square"),
}  # fmt: skip
"""The quick default study (``planner study gap`` without arguments)."""


class GapKind(StudyKind):
    """Slot-search heuristics against the exact optimum (:mod:`validation.study.gap`)."""

    name = "gap"
    help = "every heuristic against the exact optimum (no arguments: quick default)"
    epilog = "Family parameters are given as --NAME VALUE, as in 'planner generate'."
    unit = "instance"
    store = Store
    database = "study.sqlite"
    figures = FIGURES
    list_columns = ("id", "family", "params", "instances", "done", "seed", "solver", "version",
                    "created")  # fmt: skip
    family_params = True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the family, size, algorithms, solver and geometry options."""
        p = parser
        p.add_argument("--family", help="instance family (default: the quick study: tiny, 40 "
                       "instances, seed 0, rough and square)")  # fmt: skip
        p.add_argument("--instances", type=number("--instances", int, 1, MAX_INSTANCES),
                       help=f"default 40, at most {MAX_INSTANCES:,}")  # fmt: skip
        p.add_argument("--seed", type=number("--seed", int, 0), help="study seed (default 0)")
        p.add_argument("--algorithms", "--algorithm", nargs="+", metavar="NAME",
                       help="default: every heuristic (--algorithm is the same option)")
        p.add_argument("--solver", default="cpsat", help="exact solver (default cpsat)")
        p.add_argument("--time-limit", type=number("--time-limit", float, 0, 1e9),
                       help="s per solve")  # fmt: skip
        p.add_argument("--threads", type=number("--threads", int, 1, MAX_THREADS), default=1,
                       help=f"solver threads (default 1, at most {MAX_THREADS})")  # fmt: skip
        p.add_argument("--geometry", nargs="+", choices=("rough", "square"),
                       help="evaluate each instance in these geometries (default: own)")

    def spec_from_args(self, args: argparse.Namespace) -> StudySpec:
        """Return the spec: the quick default without ``--family``."""
        from instances import FAMILIES

        params_given = getattr(args, "params", {}) or {}
        if args.family is None and params_given:
            raise StudyError("family parameters need --family")
        defaults = FAMILIES[args.family].defaults if args.family in FAMILIES else {}
        params = {k: param_value(k, v, defaults.get(k)) for k, v in params_given.items()}
        return StudySpec(
            family=args.family or QUICK["family"],
            params=params,
            instances=args.instances or QUICK["instances"],
            seed=QUICK["seed"] if args.seed is None else args.seed,
            algorithms=tuple(args.algorithms or ()),
            solver=args.solver,
            time_limit=args.time_limit,
            threads=args.threads,
            geometries=tuple(dict.fromkeys(args.geometry or ()))
            or (QUICK["geometries"] if args.family is None else ()),
        )

    def check(self, spec: StudySpec) -> None:
        """Resolve the family, parameters, algorithms and solver (StudyError: one line)."""
        from validation.study.gap.runner import resolve

        resolve(spec)

    def threads(self, spec: StudySpec) -> int:
        """Return the exact solver's threads."""
        return spec.threads

    def headline(self, spec: StudySpec, outcome: Outcome, store: StudyStore) -> str:
        """``FAMILY: N instances (K computed now), R rows in DB``."""
        return (f"{spec.family}: {plural(spec.instances, 'instance')} ({outcome.written} computed "
                f"now), {plural(len(outcome.rows), 'row')} in {store.path}")  # fmt: skip

    def units(self, spec: StudySpec, store: StudyStore) -> Units:
        """Every instance, evaluated with the package's registries."""
        from validation.study.gap.runner import gap_units

        return gap_units(spec, store)  # type: ignore[arg-type]

    def listing(self, info: Mapping[str, Any]) -> dict[str, Any]:
        """Family, parameters, size, seed and solver."""
        spec = info["spec"]
        return {"id": info["id"], "family": spec.family, "params": json.dumps(spec.params),
                "instances": spec.instances, "done": info["done"], "seed": spec.seed,
                "solver": spec.solver, "version": info["version"],
                "created": info["created"]}  # fmt: skip

    def prefix(self, spec: StudySpec) -> str:
        """The family name."""
        return spec.family

    def findings(self, rows: Sequence[Mapping[str, Any]], spec: StudySpec) -> tuple[str, str]:
        """Relative and absolute gaps per criterion, paired by instance × job."""
        from validation.study.gap.report import findings

        return findings(rows, spec)

    def render(self, store: StudyStore, info: Mapping[str, Any],
               rows: Sequence[Mapping[str, Any]], out: Path, formats: Sequence[str],
               progress: bool | None) -> ReportParts:  # fmt: skip
        """Summary (CSV, Markdown), rows, figures and the error instances."""
        from validation.study.gap.report import report_parts

        return report_parts(store, info, rows, out, formats, progress)  # type: ignore[arg-type]


GAP = GapKind()
"""The gap study kind."""
