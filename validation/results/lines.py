"""Read result lines (``planner.result/1``, docs/formats.md) into plain records.

The lines of ``planner solve``/``exact``/``alternatives``/``combine --json``, or
the minimal form another program prints::

    {"job": "j1", "window": {"start": 5, "placements": [{"node": "n1", "start": 5, "end": 25}]}}
    {"job": "j2", "status": "not_found"}

Everything is read as stated (nothing recomputed, nothing coerced): the
checker of :mod:`validation.results.window` compares it with the instance. A
line that breaks the format raises :class:`instances.InstanceFileError` naming
the file, the line and JSON path, and the rule. This module imports only the
data layer; it never imports the code whose output it reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from instances.checks import is_int
from instances.errors import DataError, InstanceFileError
from instances.io import load_json, read_text

FORMAT = "planner.result/1"
"""The version of the result-line format (``instances/result.schema.json``)."""

KINDS: tuple[str, ...] = ("solve", "alternatives", "combine")
"""What a result file holds: single-job windows (solve, exact), the alternatives of a batch, or a
combination (one line per job, then a summary line)."""

STATUSES: dict[str, tuple[str, ...]] = {
    "solve": ("found", "not_found", "optimal", "feasible", "infeasible", "unknown"),
    "alternatives": ("found", "not_found"),
    "combine": ("placed", "postponed"),
}
WITH_WINDOW = frozenset({"found", "optimal", "feasible", "placed"})
"""Statuses that carry a window; the others carry none (null or absent)."""

INT_METRICS: tuple[str, ...] = ("finish", "runtime", "cost", "proc_time")
REAL_METRICS: tuple[str, ...] = ("q", "near_distance", "far_distance")
LINE_KEYS: tuple[str, ...] = (
    "format", "job", "algorithm", "status", "window", "alternative", "solver", "criterion",
    "objective", "bound", "runtime", "reason",
)  # fmt: skip
WINDOW_KEYS: tuple[str, ...] = ("start", *INT_METRICS, *REAL_METRICS, "placements")
PLACEMENT_KEYS: tuple[str, ...] = ("node", "start", "end", "cost", "slot")
SUMMARY_NUMBERS: tuple[str, ...] = ("objective", "bound", "gap", "constraint", "limit")


@dataclass(frozen=True)
class StatedPlacement:
    """One placement as a file states it: ``[start, end)`` on ``node``; cost and slot optional."""

    node: str
    start: int
    end: int
    cost: int | None = None
    slot: tuple[int, int] | None = None


@dataclass(frozen=True)
class StatedWindow:
    """A window as a file states it; ``metrics`` holds the optional metrics given."""

    start: int
    placements: tuple[StatedPlacement, ...]
    metrics: dict[str, float] = field(default_factory=dict)

    def key(self) -> tuple[int, frozenset[tuple[str, int, int]]]:
        """Return (start, {(node, start, end)}): two windows with equal keys are identical."""
        return self.start, frozenset((p.node, p.start, p.end) for p in self.placements)


@dataclass(frozen=True)
class ResultLine:
    """One job line: its number in the file (from 1), job, status and window as stated."""

    number: int
    job: str
    status: str
    window: StatedWindow | None
    alternative: int | None = None
    algorithm: str | None = None
    criterion: str | None = None
    objective: float | None = None
    bound: float | None = None


@dataclass(frozen=True)
class ResultFile:
    """The lines of one result file; ``summary`` is a combination's summary line."""

    name: str
    kind: str
    lines: tuple[ResultLine, ...]
    summary: dict[str, Any] | None = None
    summary_line: int | None = None

    @property
    def algorithm(self) -> str | None:
        """Return the algorithm the lines name, when they all name the same one."""
        names = {ln.algorithm for ln in self.lines if ln.algorithm is not None}
        return names.pop() if len(names) == 1 else None


def read_results(path: str, kind: str | None = None) -> ResultFile:
    """Read a result file (JSON Lines); ``kind`` is one of :data:`KINDS` or None to detect it."""
    return parse_results(read_text(path), path, kind)


def parse_results(text: str, name: str = "<string>", kind: str | None = None) -> ResultFile:
    """Parse result lines from ``text``; ``name`` names the source in errors.

    The kind is detected when not given: a line with ``problem`` or a status
    ``placed``/``postponed`` makes a combination, a line with ``alternative`` an
    alternatives file, anything else single-job windows.
    """
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    docs: list[tuple[int, Any]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            docs.append((number, load_json(raw, name)))
        except InstanceFileError as err:  # a line is one line: its column says where
            rule = err.rule.replace("invalid JSON at line 1 column", "invalid JSON at column")
            raise InstanceFileError(name, _at(number, err.path), rule) from None
    if not docs:
        raise InstanceFileError(name, "", "holds no result lines")
    for number, doc in docs:
        if not isinstance(doc, dict):
            raise InstanceFileError(name, f"line {number}", "must be a JSON object")
    detected = kind or _detect(docs)
    lines: list[ResultLine] = []
    summary: dict[str, Any] | None = None
    summary_line: int | None = None
    for number, doc in docs:
        try:
            if detected == "combine" and "job" not in doc:
                if summary is not None:
                    raise DataError("", f"a second summary line (the first is line {summary_line})")
                summary, summary_line = _summary(doc), number
                continue
            if summary is not None:
                raise DataError("", "a job line after the summary line")
            lines.append(_line(doc, number, detected))
        except DataError as err:
            raise InstanceFileError(name, _at(number, err.path), err.rule) from None
    if detected == "combine" and summary is None:
        raise InstanceFileError(name, "", "a combination needs its summary line (with 'problem')")
    return ResultFile(name, detected, tuple(lines), summary, summary_line)


def _at(number: int, path: str) -> str:
    return f"line {number}: {path}" if path else f"line {number}"


def _detect(docs: list[tuple[int, Any]]) -> str:
    if any("problem" in d or d.get("status") in STATUSES["combine"] for _, d in docs):
        return "combine"
    if any("alternative" in d for _, d in docs):
        return "alternatives"
    return "solve"


def _line(doc: dict[str, Any], number: int, kind: str) -> ResultLine:
    for key in doc:
        if key not in LINE_KEYS:
            raise DataError("", f"unknown key '{key}'")
    if doc.get("format", FORMAT) != FORMAT:
        raise DataError("format", f"must equal '{FORMAT}'")
    job = doc.get("job")
    if not isinstance(job, str) or not job:
        raise DataError("job", "is required and must be a non-empty string")
    raw = doc.get("window")
    status = doc.get("status")
    if status is None:  # the minimal form: a window means found, none needs "not_found"
        if raw is None:
            raise DataError("status", "is required when there is no window ('not_found')")
        status = "placed" if kind == "combine" else "found"
    if status not in STATUSES[kind]:
        raise DataError("status", f"must be one of {', '.join(STATUSES[kind])} in a {kind} file")
    if status in WITH_WINDOW and raw is None:
        raise DataError("window", f"is required with status '{status}'")
    if status not in WITH_WINDOW and raw is not None:
        raise DataError("window", f"must be null with status '{status}'")
    alternative = doc.get("alternative")
    if alternative is not None and (not is_int(alternative) or alternative < 1):
        raise DataError("alternative", "must be an integer >= 1 or null")
    if kind == "solve" and "alternative" in doc:
        raise DataError("alternative", "belongs to alternatives and combinations, not solve lines")
    for key in ("algorithm", "criterion", "solver"):
        if doc.get(key) is not None and not isinstance(doc[key], str):
            raise DataError(key, "must be a string")
    numbers = {}
    for key in ("objective", "bound"):
        value = doc.get(key)
        if value is not None:
            numbers[key] = _real(key, value)
    window = None
    if raw is not None:
        try:
            window = _window(raw)
        except DataError as err:
            raise err.within("window") from None
    return ResultLine(
        number=number,
        job=job,
        status=status,
        window=window,
        alternative=alternative,
        algorithm=doc.get("algorithm"),
        criterion=doc.get("criterion"),
        objective=numbers.get("objective"),
        bound=numbers.get("bound"),
    )


def _window(raw: Any) -> StatedWindow:
    if not isinstance(raw, dict):
        raise DataError("", "must be an object")
    for key in raw:
        if key not in WINDOW_KEYS:
            raise DataError("", f"unknown key '{key}'")
    start = _int("start", raw.get("start"), required=True)
    metrics: dict[str, float] = {}
    for key in INT_METRICS:
        if raw.get(key) is not None:
            metrics[key] = _int(key, raw[key])
    for key in REAL_METRICS:
        if raw.get(key) is not None:
            metrics[key] = _real(key, raw[key])
    items = raw.get("placements")
    if not isinstance(items, list) or not items:
        raise DataError("placements", "is required and must be a non-empty array")
    placements = []
    for i, item in enumerate(items):
        try:
            placements.append(_placement(item))
        except DataError as err:
            raise err.within(f"placements[{i}]") from None
    return StatedWindow(start, tuple(placements), metrics)


def _placement(raw: Any) -> StatedPlacement:
    if not isinstance(raw, dict):
        raise DataError("", "must be an object")
    for key in raw:
        if key not in PLACEMENT_KEYS:
            raise DataError("", f"unknown key '{key}'")
    node = raw.get("node")
    if not isinstance(node, str) or not node:
        raise DataError("node", "is required and must be a non-empty string")
    start = _int("start", raw.get("start"), required=True)
    end = _int("end", raw.get("end"), required=True)
    if end <= start:
        raise DataError("end", "must be greater than start")
    cost = None if raw.get("cost") is None else _int("cost", raw["cost"])
    slot = raw.get("slot")
    if slot is not None:
        if not (isinstance(slot, list) and len(slot) == 2 and all(map(is_int, slot))):
            raise DataError("slot", "must be two integers [start, end]")
        if slot[0] >= slot[1]:
            raise DataError("slot", "must have start < end")
        slot = (slot[0], slot[1])
    return StatedPlacement(node, start, end, cost, slot)


def _int(key: str, value: Any, *, required: bool = False) -> int:
    if value is None and required:
        raise DataError(key, "is required and must be an integer")
    if not is_int(value):
        raise DataError(key, "must be an integer")
    return value


def _real(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DataError(key, "must be a finite number")
    return value


def _summary(doc: dict[str, Any]) -> dict[str, Any]:
    problem = doc.get("problem")
    if problem not in (6, 7, 8, 9) or not is_int(problem):
        raise DataError("problem", "must be 6, 7, 8 or 9")
    if doc.get("time", "proc_time") not in ("proc_time", "runtime"):
        raise DataError("time", "must be proc_time or runtime")
    for key in SUMMARY_NUMBERS:
        if doc.get(key) is not None:
            _real(key, doc[key])
    return dict(doc)
