"""The reservation log of a replay: what a policy promised, for the independent checker.

One row per reservation event, columns ``time,job_id,kind,machine,start``:
``easy_head`` rows give, at each EASY pass with a waiting head, the head's
shadow time ``start`` on ``machine``; ``conservative`` rows give each
reservation made or moved at ``time`` (a job's first row is its first
reservation). See ``docs/job-flows.md``.
"""

from __future__ import annotations

from pathlib import Path

COLUMNS = ("time", "job_id", "kind", "machine", "start")
KINDS = ("easy_head", "conservative")


class ReservationLog:
    """Collects reservation rows in the order the policy makes them."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, str, str, int]] = []

    def add(self, time: int, job_id: str, kind: str, machine: str, start: int) -> None:
        """Record that at ``time`` job ``job_id`` holds a ``kind`` reservation at ``start``."""
        self.rows.append((time, job_id, kind, machine, start))

    def write(self, path: str | Path) -> None:
        """Write the rows as CSV (deterministic: same replay, same bytes)."""
        with open(path, "w", newline="", encoding="utf-8") as fh:
            import csv  # only when the log is written: not imported by every replay

            out = csv.writer(fh, lineterminator="\n")
            out.writerow(COLUMNS)
            out.writerows(self.rows)
