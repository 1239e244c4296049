"""Read a job-flow schedule (``jobs.csv``) and a reservation log for the checker.

Only the file syntax is checked here; what the rows mean is checked by
:mod:`validation.cluster_check`. A file that cannot be read as the format
says (missing or unknown columns, a number that is not one, a malformed CPU
range) raises :class:`~instances.errors.InstanceFileError` naming the file,
``line N`` (with the column) and the rule.
"""

from __future__ import annotations

import csv
import math
import os
from dataclasses import dataclass

from instances.errors import InstanceFileError

JOB_COLUMNS = (
    "job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources",
    "requested_time", "success",
    "final_state", "starting_time", "execution_time", "finish_time", "waiting_time",
    "turnaround_time", "stretch", "allocated_resources", "machine", "deadline", "delayed",
    "bounded_slowdown",
)  # fmt: skip
"""The columns of ``jobs.csv``: Batsim's names first, then the project's four.
``workload_name`` and ``profile`` are labels for evalys and are not checked."""

RESERVATION_COLUMNS = ("time", "job_id", "kind", "machine", "start")
RESERVATION_KINDS = ("easy_head", "conservative")

_INTS = (
    "submission_time", "requested_number_of_resources", "requested_time", "success",
    "starting_time", "execution_time", "finish_time", "waiting_time", "turnaround_time",
)  # fmt: skip
_REALS = ("stretch", "bounded_slowdown")


@dataclass(frozen=True)
class Row:
    """One ``jobs.csv`` row: ``line`` in the file, integer and real columns parsed."""

    line: int
    job_id: str
    ints: dict[str, int]
    reals: dict[str, float]
    final_state: str
    machine: str
    cpus: tuple[int, ...]
    deadline: int | None
    delayed: bool | None


@dataclass(frozen=True)
class Reservation:
    """One reservation-log row: at ``time``, ``job_id`` was given ``start`` on ``machine``."""

    line: int
    time: int
    job_id: str
    kind: str
    machine: str
    start: int


def _rows(path: str | os.PathLike[str], columns: tuple[str, ...]) -> list[tuple[int, dict]]:
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            header = tuple(reader.fieldnames or ())
            missing = [c for c in columns if c not in header]
            if missing:
                raise InstanceFileError(name, "line 1", f"missing column(s): {', '.join(missing)}")
            extra = [c for c in header if c not in columns]
            if extra:
                raise InstanceFileError(name, "line 1", f"unknown column(s): {', '.join(extra)}")
            rows = []
            for record in reader:
                if None in record or any(v is None for v in record.values()):
                    raise InstanceFileError(name, f"line {reader.line_num}", "wrong field count")
                rows.append((reader.line_num, record))
            return rows
    except OSError as err:
        raise InstanceFileError(name, "", f"cannot read file ({err.strerror})") from None
    except (UnicodeDecodeError, csv.Error) as err:
        raise InstanceFileError(name, "", f"is not a UTF-8 CSV file ({err})") from None


def _integer(name: str, line: int, column: str, text: str) -> int:
    """Parse an integer; ``12.0`` (Batsim writes floats) is accepted, ``12.5`` is not."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value != int(value):
        rule = f"must be an integer, got '{text}'"
        raise InstanceFileError(name, f"line {line}, column {column}", rule)
    return int(value)


def _real(name: str, line: int, column: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InstanceFileError(
            name, f"line {line}, column {column}", f"must be a number, got '{text}'"
        )
    return value


def parse_cpus(text: str) -> tuple[int, ...] | None:
    """Return the CPUs of ``"0-3 8"`` in the written order, or None when malformed."""
    cpus: list[int] = []
    for token in text.split():
        low, dash, high = token.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            return None
        a, b = int(low), int(high) if dash else int(low)
        if b < a:
            return None
        cpus.extend(range(a, b + 1))
    return tuple(cpus)


def _flag(name: str, line: int, text: str) -> bool | None:
    lowered = text.strip().lower()
    if lowered in ("", "none"):
        return None
    if lowered in ("1", "true", "1.0"):
        return True
    if lowered in ("0", "false", "0.0"):
        return False
    raise InstanceFileError(name, f"line {line}, column delayed", f"must be 0 or 1, got '{text}'")


def read_jobs_csv(path: str | os.PathLike[str]) -> list[Row]:
    """Parse every row of a ``jobs.csv`` (syntax only; empty ``deadline`` = none)."""
    name = os.fspath(path)
    out = []
    for line, r in _rows(path, JOB_COLUMNS):
        cpus = parse_cpus(r["allocated_resources"])
        if cpus is None:
            rule = f"malformed CPU ranges '{r['allocated_resources']}' (expected e.g. '0-3 8')"
            raise InstanceFileError(name, f"line {line}, column allocated_resources", rule)
        deadline = r["deadline"].strip()
        out.append(
            Row(
                line=line,
                job_id=r["job_id"],
                ints={c: _integer(name, line, c, r[c]) for c in _INTS},
                reals={c: _real(name, line, c, r[c]) for c in _REALS},
                final_state=r["final_state"],
                machine=r["machine"],
                cpus=cpus,
                deadline=_integer(name, line, "deadline", deadline) if deadline else None,
                delayed=_flag(name, line, r["delayed"]),
            )
        )
    return out


def read_reservations(path: str | os.PathLike[str]) -> list[Reservation]:
    """Parse a reservation log (``time,job_id,kind,machine,start``), in file order."""
    name = os.fspath(path)
    out = []
    for line, r in _rows(path, RESERVATION_COLUMNS):
        if r["kind"] not in RESERVATION_KINDS:
            rule = f"must be one of {', '.join(RESERVATION_KINDS)}, got '{r['kind']}'"
            raise InstanceFileError(name, f"line {line}, column kind", rule)
        out.append(
            Reservation(
                line=line,
                time=_integer(name, line, "time", r["time"]),
                job_id=r["job_id"],
                kind=r["kind"],
                machine=r["machine"],
                start=_integer(name, line, "start", r["start"]),
            )
        )
    return out
