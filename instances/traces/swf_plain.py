"""The job-flow reader of SWF logs: a plain log into a workload without numpy.

A log is *plain* when every record line holds 18 ASCII decimal numbers, the
fields a job is built from (1, 2, 4, 5, 8 and 9) are integers, job numbers are
below 2^53 and every kept record is within :class:`~instances.workload.ClusterJob`'s
bounds: the bundled logs and most of the Parallel Workloads Archive are. Such a
log is read with operations on the whole text and on whole columns (no Python
loop per line) into exactly the workload that
:func:`~instances.traces.swf_workload.workload_from_swf` builds from
:func:`~instances.traces.swf.read_swf_table` (the mapping of ``docs/workloads.md``,
"From SWF to jobs"); any other log is left to those readers, whose messages
name the line. ``planner simulate`` starts without importing numpy this way.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from operator import le

from instances.errors import InstanceFileError
from instances.workload import (
    MAX_CPUS,
    MAX_TIME,
    JobColumns,
    Machine,
    Workload,
    trusted_workload,
)  # fmt: skip

try:  # optional C speedup; _columns' Python code is the reference and the fallback
    from instances.traces import _swf_speedups
except ImportError:  # pragma: no cover - a build without a C compiler
    _swf_speedups = None

FIELDS = 18
USED = (0, 1, 3, 4, 7, 8)
"""The fields a job is built from (0-based): number, submit, run time, CPUs, requested
CPUs, requested time."""
_LONGEST = 300
"""Characters of the longest number read here (a longer one might not be a finite double)."""
_BAD_POINT = re.compile(rb"\.[0-9]*\.|(?<![0-9])\.(?![0-9])")
"""Two points in one number, or a point with no digit beside it."""
_BLANK_LINES = re.compile(rb"\n[ \t\r]*(?=\n)")
_SHAPE = bytes(ord("0") if chr(b) in "0123456789." else ord("-") if chr(b) in "+-" else
               ord(" ") if chr(b) in " \t\r\n" else ord("x") for b in range(256))  # fmt: skip
"""Each byte's class: digit or point 0, sign -, blank space, anything else x."""


def read_swf_workload(path: str | os.PathLike[str],
                      machines: Sequence[Machine] | None = None) -> Workload:  # fmt: skip
    """Read an SWF log as a job flow on ``machines`` (default: the header's cluster).

    The same workload, and the same errors, as
    ``workload_from_swf(swf_table(path), machines)``; a plain log is read
    without numpy (cached by path, modification time and size).

    Raises
    ------
    InstanceFileError
        The file cannot be read, a line is malformed (naming it), or a header
        count or a record is out of range.
    """
    from instances.traces.swf import SwfError, _stamp

    name = os.fspath(path)
    try:
        stamp = _stamp(name)
    except SwfError as err:
        raise InstanceFileError(err.file, "", err.rule) from None
    given = tuple(machines) if machines is not None else None
    workload = _cached(name, *stamp, given)
    if workload is None:
        from instances.traces.swf_workload import swf_table, workload_from_swf

        workload = workload_from_swf(swf_table(name), given)
    return workload


@lru_cache(maxsize=4)
def _cached(name: str, _mtime: int, _size: int,
            machines: tuple[Machine, ...] | None) -> Workload | None:  # fmt: skip
    from instances.traces.swf import SwfError, _read_bytes

    try:
        data = _read_bytes(name)
    except SwfError as err:
        raise InstanceFileError(err.file, "", err.rule) from None
    return plain_workload(name, data, machines)


def plain_workload(name: str, data: bytes,
                   machines: tuple[Machine, ...] | None) -> Workload | None:  # fmt: skip
    """Return the job flow of the log text ``data``, or None when the log is not plain."""
    from instances.traces.swf import split_header
    from instances.traces.swf_workload import DROP_REASONS, _printable, header_machines

    split = split_header(data, plain=False)  # _numbers checks the bytes
    if split is None:
        return None
    header, body = split
    columns = _columns(body)
    if columns is None:
        return None
    machines = Workload(machines if machines is not None else header_machines(name, header)
                        ).machines  # fmt: skip
    number, submit, run, cpus, estimate, reasons = _mapped(columns, max(m.cpus for m in machines))
    if (cpus and max(cpus) > MAX_CPUS) or any(x and max(x) > MAX_TIME
                                              for x in (submit, run, estimate)):  # fmt: skip
        return None  # a record out of range: the general reader names its line
    if not all(map(le, submit, submit[1:])):  # queue order: submit, then file order
        order = sorted(range(len(submit)), key=submit.__getitem__)
        number, submit, cpus, run, estimate = ([col[i] for i in order]
                                               for col in (number, submit, cpus, run, estimate))
    ids = list(map(str, number)) if _swf_speedups is None else _swf_speedups.int_texts(number)
    counts = tuple((DROP_REASONS[r], c) for r, c in sorted(Counter(reasons.values()).items()))
    columns = JobColumns(ids, submit, cpus, run, estimate, [None] * len(ids))
    return trusted_workload(machines, None, _printable(os.path.basename(name)), counts, columns)


def _columns(body: bytes) -> list[list[int]] | None:
    """Return the used fields of every record as integer columns, or None if not plain."""
    body = body.lstrip(b" \t\r\n")  # the line breaks of the header
    if _swf_speedups is not None:  # the same checks and columns, or None, in one pass in C
        columns = _swf_speedups.swf_columns(body, FIELDS, USED, True)
        if columns is None:
            return None
    else:
        if not _numbers(body):
            return None
        if body and not body.endswith(b"\n"):
            body += b"\n"
        tokens = _tokens(body)
        if tokens is None:
            tokens = _tokens(_BLANK_LINES.sub(b"", body))
            if tokens is None:
                return None
        del tokens[FIELDS :: FIELDS + 1]
        try:
            columns = [list(map(int, tokens[k::FIELDS])) for k in USED]
        except ValueError:
            return None  # a fraction in a used field
    if columns[0] and (max(columns[0]) >= 2**53 or min(columns[0]) <= -(2**53)):
        return None
    return columns


def _numbers(body: bytes) -> bool:
    """Return True when ``body`` holds ASCII digits, signs, points, spaces, tabs and line
    breaks only, and each of its words is a decimal number of fewer than 300 digits: an
    optional sign, then digits with at most one point among them."""
    shape = body.translate(_SHAPE)
    if b"x" in shape:
        return False  # a byte that is no part of a number nor a blank
    if b"0-" in shape or b"--" in shape or b"- " in shape or shape.endswith(b"-"):
        return False  # a sign inside a number, or a sign without digits
    if b"0" * _LONGEST in shape:
        return False  # too long to be sure it is a finite double
    return b"." not in body or _BAD_POINT.search(body) is None


def _tokens(body: bytes) -> list[bytes] | None:
    """Return the words of ``body``, each line's followed by a ``;``, when every line
    holds exactly 18 (``body`` ends with a line break and holds no ``;``)."""
    tokens = body.replace(b"\n", b" ; ").split()
    lines = body.count(b"\n")  # one ';' per line: if every 19th word is one, all lines hold 18
    if len(tokens) != lines * (FIELDS + 1) or tokens[FIELDS :: FIELDS + 1].count(b";") != lines:
        return None
    return tokens


def _mapped(columns: list[list[int]], widest: int) -> tuple[list[int], ...] | tuple:
    """Return the kept records' number, submit, run, CPUs and estimate columns and the
    dropped records' reasons (row -> index in ``DROP_REASONS``: the first rule that applies)."""
    number, submit, run, allocated, requested, estimate = columns
    cpus = allocated if not allocated or min(allocated) > 0 else [
        a if a > 0 else r for a, r in zip(allocated, requested, strict=True)]
    reasons: dict[int, int] = {}
    if number:
        found = (
            [i for i, x in enumerate(submit) if x < 0] if min(submit) < 0 else [],
            [i for i, x in enumerate(run) if x < 0] if min(run) < 0 else [],
            [i for i, x in enumerate(cpus) if x <= 0] if min(cpus) <= 0 else [],
            [i for i, x in enumerate(cpus) if x > widest] if max(cpus) > widest else [],
        )
        for r, rows in enumerate(found):
            for i in rows:
                reasons.setdefault(i, r)
    if len(set(number)) < len(number):  # the first kept record of a number stays
        seen: set[int] = set()
        for i, x in enumerate(number):
            if i not in reasons:
                if x in seen:
                    reasons[i] = 4
                seen.add(x)
    if estimate and min(estimate) <= 0:
        estimate = [e if e > 0 else w for e, w in zip(estimate, run, strict=True)]
    kept = (number, submit, run, cpus, estimate)
    if reasons:
        keep = [True] * len(number)
        for i in reasons:
            keep[i] = False
        kept = tuple(list(compress(col, keep)) for col in kept)  # type: ignore[assignment]
    return (*kept, reasons)
