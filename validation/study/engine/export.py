"""Export a study's rows to CSV or Parquet, in its kind's column order (``store.COLUMNS``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from validation.study.engine.errors import StudyError


def export_csv(rows: Iterable[dict[str, Any]], path: str | Path,
               columns: Sequence[str]) -> None:  # fmt: skip
    """Write rows (in ``columns`` order) to a CSV file."""
    import csv

    names = list(columns)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=names, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else v) for k, v in row.items()})


def export_parquet(rows: Iterable[dict[str, Any]], path: str | Path,
                   columns: Sequence[str]) -> None:  # fmt: skip
    """Write rows (``columns``) to a Parquet file (needs the ``parquet`` extra: pyarrow)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise StudyError("Parquet export needs pyarrow: pip install 'planner[parquet]'") from None
    names = list(columns)
    data = list(rows)
    pq.write_table(pa.table({n: [r[n] for r in data] for n in names}), str(path))
