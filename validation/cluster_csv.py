"""Read a job-flow schedule (``jobs.csv``) and a reservation log for the checker.

Only the file syntax is checked here; what the rows mean is checked by
:mod:`validation.cluster_check`. A file that cannot be read as the format
says (missing or unknown columns, a number that is not one, a malformed CPU
range) raises :class:`~instances.errors.InstanceFileError` naming the file,
``line N`` (with the column) and the rule.

Only regular files are read (a FIFO or a device is refused before any read),
at most ``CSV_MAX`` bytes (256 MiB) holding at most ``SPANS_MAX`` CPU ranges
(10^7), streamed row by row, so memory stays within a few GiB. Integers are ASCII
decimals of at most 19 digits, parsed as integers (never through a double, so
every time the limits allow round-trips exactly); ``12.0`` is accepted as 12
(Batsim writes floats). CPU lists such as ``0-3 8`` are kept as ranges, never
expanded, so a range of 10^9 CPUs costs what ``0-3`` does.
"""

from __future__ import annotations

import csv
import math
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from instances.errors import InstanceFileError
from instances.limits import num
from instances.text import noun

CSV_MAX = 2**28
"""Largest jobs.csv or reservation log read, in bytes (256 MiB; ~1.7 million jobs)."""
SPANS_MAX = 10**7
"""Most CPU ranges (``0-3`` counts one) in one jobs.csv."""

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
    cpus: tuple[tuple[int, int], ...]
    """The allocated CPUs as inclusive ranges ``(lo, hi)``, in the written order."""
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


def _nonblocking(path: str, flags: int) -> int:
    """Open without blocking on a FIFO that has no writer (it is then refused as irregular)."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _rows(path: str | os.PathLike[str], columns: tuple[str, ...]) -> Iterator[tuple[int, dict]]:
    name = os.fspath(path)
    try:
        with open(name, "rb", opener=_nonblocking) as raw:
            info = os.fstat(raw.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise InstanceFileError(name, "", "is not a regular file")
            if info.st_size > CSV_MAX:
                raise InstanceFileError(name, "", f"is larger than {CSV_MAX // 2**20} MiB")
            with open(raw.fileno(), encoding="utf-8", newline="", closefd=False) as fh:
                reader = csv.DictReader(fh)
                header = tuple(reader.fieldnames or ())
                missing = [c for c in columns if c not in header]
                if missing:
                    rule = f"missing {noun(len(missing), 'column')}: {', '.join(missing)}"
                    raise InstanceFileError(name, "line 1", rule)
                extra = [c for c in header if c not in columns]
                if extra:
                    rule = f"unknown {noun(len(extra), 'column')}: {', '.join(map(repr, extra))}"
                    raise InstanceFileError(name, "line 1", rule)
                for record in reader:
                    if None in record or any(v is None for v in record.values()):
                        where = f"line {reader.line_num}"
                        raise InstanceFileError(name, where, "wrong field count")
                    yield reader.line_num, record
    except OSError as err:
        raise InstanceFileError(name, "", f"cannot read file ({err.strerror or err})") from None
    except UnicodeDecodeError:
        raise InstanceFileError(name, "", "is not a UTF-8 CSV file (invalid UTF-8)") from None
    except csv.Error as err:
        raise InstanceFileError(name, "", f"is not a UTF-8 CSV file ({err})") from None


_INT = re.compile(r"([+-]?[0-9]{1,19})(?:\.0*)?")
_REAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_SPAN = re.compile(r"([0-9]{1,19})(?:-([0-9]{1,19}))?")


def _quote(text: str) -> str:
    """Return at most 40 characters of ``text``, control characters escaped (one line)."""
    short = text if len(text) <= 40 else text[:40] + "..."
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in short)


def _integer(name: str, line: int, column: str, text: str) -> int:
    """Parse an ASCII integer of at most 19 digits; ``12.0`` is 12, ``12.5`` is an error."""
    match = _INT.fullmatch(text)
    if match is None:
        rule = f"must be an integer of at most 19 digits, got '{_quote(text)}'"
        raise InstanceFileError(name, f"line {line}, column {column}", rule)
    return int(match.group(1))


def _real(name: str, line: int, column: str, text: str) -> float:
    value = float(text) if _REAL.fullmatch(text) else math.nan
    if not math.isfinite(value):
        rule = f"must be a finite decimal number, got '{_quote(text)}'"
        raise InstanceFileError(name, f"line {line}, column {column}", rule)
    return value


def parse_cpus(text: str) -> tuple[tuple[int, int], ...] | None:
    """Return the CPU ranges of ``"0-3 8"`` as ``((0, 3), (8, 8))``, or None when malformed.

    Tokens are separated by spaces; each is ``N`` or ``A-B`` with ASCII digits and
    ``A <= B``. Ranges are never expanded.
    """
    spans: list[tuple[int, int]] = []
    for token in text.split(" "):
        if not token:
            continue
        match = _SPAN.fullmatch(token)
        if match is None:
            return None
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) is not None else low
        if high < low:
            return None
        spans.append((low, high))
    return tuple(spans)


def _flag(name: str, line: int, text: str) -> bool | None:
    lowered = text.strip().lower()
    if lowered in ("", "none"):
        return None
    if lowered in ("1", "true", "1.0"):
        return True
    if lowered in ("0", "false", "0.0"):
        return False
    rule = f"must be 0 or 1, got '{_quote(text)}'"
    raise InstanceFileError(name, f"line {line}, column delayed", rule)


def read_jobs_csv(path: str | os.PathLike[str]) -> list[Row]:
    """Parse every row of a ``jobs.csv`` (syntax only; empty ``deadline`` = none)."""
    name = os.fspath(path)
    out = []
    spans = 0
    for line, r in _rows(path, JOB_COLUMNS):
        cpus = parse_cpus(r["allocated_resources"])
        if cpus is None:
            text = _quote(r["allocated_resources"])
            rule = f"malformed CPU ranges '{text}' (expected e.g. '0-3 8', ASCII digits)"
            raise InstanceFileError(name, f"line {line}, column allocated_resources", rule)
        spans += len(cpus)
        if spans > SPANS_MAX:
            rule = f"the file holds more than {num(SPANS_MAX)} CPU ranges"
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
            rule = f"must be one of {', '.join(RESERVATION_KINDS)}, got '{_quote(r['kind'])}'"
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
