"""Read Standard Workload Format (SWF) logs of the Parallel Workloads Archive.

One job per line, 18 whitespace-separated numeric fields (``-1`` =
unknown); lines starting with ``;`` are header comments such as
``; MaxProcs: 100``. The format is defined on the archive's ``swf.html``
page; ``instances/data/traces/README.md`` lists the bundled logs. Files may be plain or
gzipped (detected from their first bytes, not their name).
"""

from __future__ import annotations

import io
import math
import os
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from instances.traces.errors import SwfError

FIELDS = 18
_BLANKS = " \t\n\r\x0b\x0c"
"""ASCII white space: fields are separated by it and lines stripped of it."""
_SPACES = re.compile(r"[ \t\n\r\x0b\x0c]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
"""An SWF field: ASCII decimal, optionally signed, optionally with a fraction."""
_NON_FINITE = ("inf", "infinity", "nan")
_BULK_BYTES = b"0123456789+-. \t\r\n"


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


@dataclass(frozen=True, eq=False)
class SwfTable:
    """Every job line of a log, unfiltered: ``lines[i]`` is the line number of ``values[i]``.

    ``values`` is an (n, 18) float array. Lines are checked only for shape (18
    finite ASCII decimal numbers, an integer job number and, when positive, an
    integer allocated-processor count); what a reader keeps or drops is its own
    rule (:func:`read_swf` for slot lists, :mod:`instances.traces.swf_workload`
    for job flows).
    """

    path: str
    header: dict[str, str]
    lines: np.ndarray
    values: np.ndarray

    @cached_property
    def rows(self) -> tuple[tuple[int, tuple[float, ...]], ...]:
        """Return (line number, 18 numbers) per job line, as Python numbers."""
        return tuple(zip(self.lines.tolist(), map(tuple, self.values.tolist()), strict=True))

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
    data = _read_bytes(name)
    table = _fast_table(name, data)
    return table if table is not None else _checked_table(name, data)


def _read_bytes(name: str) -> bytes:
    from instances.traces.guards import read_bytes  # file type and size guards

    try:
        return read_bytes(name)
    except (OSError, EOFError, zlib.error) as err:
        raise SwfError(name, f"cannot read file ({err})") from None


def _checked_table(name: str, data: bytes) -> SwfTable:
    """Read line by line, checking every field (the rule book; exact messages)."""
    import numpy as np

    header: dict[str, str] = {}
    lines: list[int] = []
    rows: list[tuple[float, ...]] = []
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    for lineno, raw in enumerate(text, start=1):
        line = raw.strip(_BLANKS)
        if not line:
            continue
        if line.startswith(";"):
            _header_line(header, line)
            continue
        lines.append(lineno)
        rows.append(_fields(name, lineno, line))
    values = np.array(rows, dtype=np.float64).reshape(len(rows), FIELDS)
    return SwfTable(name, header, np.array(lines, dtype=np.int64), values)


def _header_line(header: dict[str, str], line: str) -> None:
    key, sep, value = line[1:].partition(":")
    if sep and key.strip() and " " not in key.strip():
        header.setdefault(key.strip(), value.strip())


def split_header(data: bytes, *, plain: bool = True) -> tuple[dict[str, str], bytes] | None:
    """Return (the header, the record lines) of a log whose records are plain ASCII numbers.

    Comment lines (``;`` after blanks only) fill the header and are cut out of the
    text; None when a ``;`` is inside a record, a carriage return is not part of a
    line break, or any other byte is not an ASCII digit, sign, point, space, tab
    or line break (the line-by-line reader then judges the file). ``plain``
    False leaves that last check to the caller.
    """
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None  # a lone carriage return is a line break of its own
    header: dict[str, str] = {}
    parts: list[bytes] = []
    done = 0
    semi = data.find(b";")
    while semi >= 0:
        start = data.rfind(b"\n", 0, semi) + 1
        if data[start:semi].strip(b" \t"):
            return None  # a ';' inside a record
        end = data.find(b"\n", semi)
        end = len(data) if end < 0 else end
        _header_line(header, data[semi:end].decode("utf-8", "replace").strip(_BLANKS))
        parts.append(data[done:start])
        done = end
        semi = data.find(b";", end)
    parts.append(data[done:])
    body = b"".join(parts)
    if plain and body.translate(None, _BULK_BYTES):
        return None
    return header, body


def _fast_table(name: str, data: bytes) -> SwfTable | None:
    """Read a well-formed log in bulk, or return None for :func:`_checked_table` to judge.

    Accepts only what the line-by-line reader accepts with the same values:
    comment lines are found first, every other byte must be an ASCII digit,
    sign, point, space, tab or line break, and numpy's parser refuses any
    malformed number (``1-2``, ``1.2.3``, a lone ``-``).
    """
    import numpy as np

    split = split_header(data)
    if split is None:
        return None
    header, body = split
    chars = np.frombuffer(body, dtype=np.uint8)
    breaks = np.flatnonzero(chars == 10)
    starts = np.concatenate(([0], breaks + 1))
    starts = starts[starts < len(chars)]
    filled = np.logical_or.reduceat(chars > 32, starts) if len(starts) else starts
    lines = np.flatnonzero(filled).astype(np.int64) + 1
    if not len(lines):
        return SwfTable(name, header, lines, np.empty((0, FIELDS)))
    try:
        values = np.loadtxt(io.BytesIO(body), dtype=np.float64, ndmin=2, comments=None)
    except ValueError:
        return None
    if values.shape != (len(lines), FIELDS) or not np.isfinite(values).all():
        return None
    number, procs = values[:, 0], values[:, 4]
    if (number != np.floor(number)).any() or ((procs >= 1) & (procs != np.floor(procs))).any():
        return None
    return SwfTable(name, header, lines, values)


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


def _fields(name: str, lineno: int, text: str) -> tuple[float, ...]:
    parts = _SPACES.split(text)
    if len(parts) != FIELDS:
        raise SwfError(name, f"expected {FIELDS} fields, found {len(parts)}", lineno)
    values: list[float] = []
    for k, part in enumerate(parts, start=1):
        if _NUMBER.fullmatch(part) is None:
            if part.lstrip("+-").lower() in _NON_FINITE:
                raise SwfError(name, f"field {k} is not a finite number: '{part}'", lineno)
            raise SwfError(name, f"field {k} is not a number: '{part}'", lineno)
        value = float(part)
        if not math.isfinite(value):  # hundreds of digits
            raise SwfError(name, f"field {k} is not a finite number: '{part}'", lineno)
        values.append(value)
    if values[0] != int(values[0]):
        raise SwfError(name, "field 1 (job number) must be an integer", lineno)
    if values[4] >= 1 and values[4] != int(values[4]):
        raise SwfError(name, "field 5 (allocated processors) must be an integer", lineno)
    return tuple(values)
