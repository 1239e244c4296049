"""A small optimality-gap study from Python: heuristics against the proven optimum.

Runs five heuristics on 12 ``tiny`` instances in both geometries, on two
worker processes (this is why the script has a ``__main__`` guard: the
workers are spawned and import this module), stores the rows in SQLite,
prints the summary and writes the report with its figures (docs/studies.md
explains every column). On a terminal a progress line counts the instances,
then times the drawing (``planner.progress``; ``PLANNER_PROGRESS=0`` hides it).

Run:  python examples/gap_study.py [--out gap-example] [--workers 2]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from instances.text import plural
from validation.study import Store, StudySpec, make_executor, run_study, write_report

ALGORITHMS = ("amp", "min_cost", "max_q_lite", "dep", "coord_lite")


def main(out: Path, workers: int) -> int:
    """Run (or resume) the study in ``out``; return its number of error rows."""
    spec = StudySpec("tiny", {}, instances=12, seed=0, algorithms=ALGORITHMS,
                     time_limit=10.0, geometries=("rough", "square"))  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    with Store(out / "study.sqlite") as store:
        done = run_study(spec, store, executor=make_executor("local", workers=workers))
        report = write_report(store, done.study, out)
    print(report.text())
    print(f"{plural(done.rows, 'row')}, {plural(done.errors, 'error row')}; report: {report.path}")
    print(f"files in {out}: {', '.join(f.name for f in report.files)}, study.sqlite")
    return done.errors


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("gap-example"))
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    raise SystemExit(1 if main(args.out, args.workers) else 0)
