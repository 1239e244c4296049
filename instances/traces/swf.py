"""Read Standard Workload Format (SWF) logs of the Parallel Workloads Archive.

One job per line, 18 whitespace-separated numeric fields (``-1`` =
unknown); lines starting with ``;`` are header comments such as
``; MaxProcs: 100``. The format is defined on the archive's ``swf.html``
page; ``instances/data/traces/README.md`` lists the bundled logs. Files may be plain or
gzipped (detected from their first bytes, not their name).
"""

from __future__ import annotations

import gzip
import io
import math
import os
import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

FIELDS = 18


class SwfError(ValueError):
    """A log that cannot be read: the one-line message names the file and line.

    ``file``, ``line`` (None for the whole file) and ``rule`` hold the parts.
    """

    def __init__(self, file: str, rule: str, line: int | None = None) -> None:
        self.file = file
        self.rule = rule
        self.line = line
        super().__init__(f"{file}:{line}: {rule}" if line is not None else f"{file}: {rule}")


@dataclass(frozen=True)
class SwfRecord:
    """The fields of one SWF job that the slot lists use (times in seconds).

    ``wait`` is 0 when the log does not know it (counted in
    :attr:`SwfLog.wait_unknown`), so ``start = submit + wait``.
    """

    number: int
    submit: float
    wait: float
    run: float
    processors: int
    line: int

    @property
    def start(self) -> float:
        """Return the start time ``submit + wait``."""
        return self.submit + self.wait

    @property
    def end(self) -> float:
        """Return the end time ``start + run``."""
        return self.start + self.run


@dataclass(frozen=True)
class SwfLog:
    """A parsed log: header fields, usable records and counts of skipped records."""

    path: str
    header: dict[str, str]
    records: tuple[SwfRecord, ...]
    skipped: dict[str, int] = field(default_factory=dict)
    wait_unknown: int = 0

    @property
    def max_procs(self) -> int | None:
        """Return the header's MaxProcs (else MaxNodes) as an integer, or None."""
        return header_max_procs(self.header)


@dataclass(frozen=True)
class SwfTable:
    """Every job line of a log, unfiltered: ``rows`` holds (line number, 18 numbers).

    Lines are checked only for shape (18 finite numbers, an integer job number
    and, when positive, an integer allocated-processor count); what a reader
    keeps or drops is its own rule (:func:`read_swf` for slot lists,
    :mod:`instances.traces.swf_workload` for job flows).
    """

    path: str
    header: dict[str, str]
    rows: tuple[tuple[int, tuple[float, ...]], ...]

    @property
    def max_procs(self) -> int | None:
        """Return the header's MaxProcs (else MaxNodes) as an integer, or None."""
        return header_max_procs(self.header)


def header_max_procs(header: dict[str, str]) -> int | None:
    """Return a header's positive MaxProcs, else its positive MaxNodes, else None.

    Only ASCII integers count (:func:`instances.traces.guards.header_count` is the
    strict reader that names the line of a bad value).
    """
    for key in ("MaxProcs", "MaxNodes"):
        text = header.get(key, "").split()
        digits = text[0].lstrip("-") if text else ""
        if digits.isascii() and digits.isdigit() and int(text[0]) > 0:
            return int(text[0])
    return None


def read_swf(path: str | os.PathLike[str]) -> SwfLog:
    """Parse an SWF log, plain or gzipped.

    Records whose run time or allocated processors are unknown (negative) are
    skipped and counted in ``skipped`` by reason; an unknown wait counts as 0.

    Raises
    ------
    SwfError
        ``"FILE:LINE: rule"`` for a malformed line, ``"FILE: rule"`` when the
        file cannot be read.
    """
    name = os.fspath(path)
    return _log_cached(name, *_stamp(name))


def read_swf_table(path: str | os.PathLike[str]) -> SwfTable:
    """Parse every job line of an SWF log, plain or gzipped (cached by path and mtime).

    Raises
    ------
    SwfError
        For a malformed line (naming it) or a file that cannot be read,
        including a truncated or corrupt gzip stream.
    """
    name = os.fspath(path)
    return _table_cached(name, *_stamp(name))


def _stamp(name: str) -> tuple[int, int]:
    try:
        stat = os.stat(name)
    except OSError as err:
        raise SwfError(name, f"cannot read file ({err.strerror})") from None
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=4)
def _table_cached(name: str, _mtime: int, _size: int) -> SwfTable:
    header: dict[str, str] = {}
    rows: list[tuple[int, tuple[float, ...]]] = []
    try:
        with _open_text(name) as fh:
            for lineno, raw in enumerate(fh, start=1):
                text = raw.strip()
                if not text:
                    continue
                if text.startswith(";"):
                    key, sep, value = text[1:].partition(":")
                    if sep and key.strip() and " " not in key.strip():
                        header.setdefault(key.strip(), value.strip())
                    continue
                rows.append((lineno, _fields(name, lineno, text)))
    except (OSError, EOFError, gzip.BadGzipFile, zlib.error) as err:
        raise SwfError(name, f"cannot read file ({err})") from None
    return SwfTable(name, header, tuple(rows))


@lru_cache(maxsize=4)
def _log_cached(name: str, mtime: int, size: int) -> SwfLog:
    table = _table_cached(name, mtime, size)
    records: list[SwfRecord] = []
    skipped: Counter[str] = Counter()
    wait_unknown = 0
    for lineno, values in table.rows:
        number, submit, wait, run, procs = values[:5]
        if submit < 0:
            raise SwfError(table.path, "field 2 (submit time) must be >= 0", lineno)
        if run < 0:
            skipped["run_time_unknown"] += 1
            continue
        if procs < 1:
            skipped["processors_unknown"] += 1
            continue
        if wait < 0:
            wait_unknown += 1
            wait = 0.0
        records.append(SwfRecord(int(number), submit, wait, run, int(procs), lineno))
    return SwfLog(table.path, table.header, tuple(records), dict(sorted(skipped.items())),
                  wait_unknown)  # fmt: skip


def _open_text(name: str) -> io.TextIOBase:
    from instances.traces.guards import open_text  # file type and size guards

    return open_text(name)


def _fields(name: str, lineno: int, text: str) -> tuple[float, ...]:
    parts = text.split()
    if len(parts) != FIELDS:
        raise SwfError(name, f"expected {FIELDS} fields, found {len(parts)}", lineno)
    values: list[float] = []
    for k, part in enumerate(parts, start=1):
        try:
            value = float(part)
        except ValueError:
            raise SwfError(name, f"field {k} is not a number: '{part}'", lineno) from None
        if not math.isfinite(value):
            raise SwfError(name, f"field {k} is not a finite number: '{part}'", lineno)
        values.append(value)
    if values[0] != int(values[0]):
        raise SwfError(name, "field 1 (job number) must be an integer", lineno)
    if values[4] >= 1 and values[4] != int(values[4]):
        raise SwfError(name, "field 5 (allocated processors) must be an integer", lineno)
    return tuple(values)
