"""Drawing time of the default gap study's report figures: PNG only (the default) vs PNG + SVG.

Usage::

    python benchmarks/bench_report_figures.py [--repeat 3] [--db study-out/study.sqlite]

Without ``--db`` it first runs the default study (``planner study gap``'s
spec: 40 ``tiny`` instances, both geometries) into a temporary database,
untimed. Then it draws the three figures ``--repeat`` times per format set
and prints, beside the median seconds, the machine-independent counts: rows,
points drawn in ``gap_distribution``, and the bytes and pixel sizes of each
file. Needs matplotlib (the ``plot`` extra). The machine is shared and
noisy: compare the two lines of one run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from validation.study import Store, StudySpec, run_study
from validation.study.gap import plots
from validation.study.gap.metrics import summarise

QUICK = StudySpec("tiny", {}, instances=40, seed=0, geometries=("rough", "square"))
"""The default study of ``planner study gap`` (no arguments)."""


def rows_of(db: Path | None, tmp: Path) -> list[dict]:
    """The rows of the latest study in ``db``, or of the default study run now (untimed)."""
    path = db or tmp / "study.sqlite"
    with Store(path) as store:
        if db is None:
            run_study(QUICK, store, progress=False)
        study = max(s["id"] for s in store.studies())
        info = next(s for s in store.studies() if s["id"] == study)
        return store.rows(study, info["spec"].algorithms, info["spec"].geometries)


def main() -> None:
    """Draw the figures in each format set and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--db", type=Path, help="a study database (default: run the default study)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = rows_of(args.db, Path(tmp))
        summary = summarise(rows)
        points = sum(r["gap"] is not None for r in rows)
        print(f"{len(rows)} rows, {points} points in gap_distribution")
        print(f"{'formats':<10} {'median s':>9}  files (bytes, pixels)")
        for formats in (("png",), ("png", "svg")):
            out = Path(tmp) / "-".join(formats)
            times = []
            for _ in range(args.repeat):
                began = time.perf_counter()
                plots.draw(rows, summary, out, formats)
                times.append(time.perf_counter() - began)
            files = []
            for f in sorted(out.iterdir()):
                size = f.stat().st_size
                if f.suffix == ".png":
                    from matplotlib.image import imread

                    h, w = imread(f).shape[:2]
                    files.append(f"{f.name} {size:,} {w}x{h}")
                else:
                    files.append(f"{f.name} {size:,}")
            print(f"{'+'.join(formats):<10} {statistics.median(times):9.2f}  {'; '.join(files)}")


if __name__ == "__main__":
    main()
