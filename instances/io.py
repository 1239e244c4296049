"""Read and write ``planner.instance/1`` files (docs/formats.md, "Instance file").

Every rejected file raises :class:`InstanceFileError` whose one-line message
names the file, the JSON path of the offending value and the rule, e.g.
``inst.json: jobs[3].nodes: must be an integer >= 1``.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable
from typing import Any

from instances.errors import DataError, InstanceFileError
from instances.instance import Instance
from instances.job import Job
from instances.limits import FILE_MAX
from instances.node import Node
from instances.slot import Busy, Slot

FORMAT = "planner.instance/1"

_TOP_KEYS = ("format", "name", "horizon", "geometry", "nodes", "slots", "busy", "jobs")
_NODE_KEYS = ("id", "performance", "price", "q", "attributes")
_SLOT_KEYS = ("node", "start", "end", "price")
_BUSY_KEYS = ("node", "start", "end")
_JOB_KEYS = (
    "id", "nodes", "volume", "min_performance", "budget", "max_price", "criterion",
    "requirements", "deadline", "release", "priority",
)  # fmt: skip


class _NonFinite:
    """Stands in for NaN/Infinity so the error can name its JSON path."""

    def __init__(self, text: str) -> None:
        self.text = text


def _parse_float(text: str) -> float | _NonFinite:
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


class _Object(dict):
    """A parsed JSON object that remembers its first duplicate key (None if none)."""

    duplicate: str | None = None


class _Parse:
    """JSON parsing hooks for one document: flags objects with duplicate keys."""

    def __init__(self) -> None:
        self.duplicates = False

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = _Object()
        for key, value in pairs:
            if key in out and out.duplicate is None:
                out.duplicate = key
                self.duplicates = True
            out[key] = value
        return out


def _find_duplicate(doc: Any) -> tuple[str, str] | None:
    """Return (JSON path, key) of the first object with a duplicate key, in document order."""
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _Object):
            if value.duplicate is not None:
                return path, value.duplicate
            children = [(f"{path}.{k}" if path else k, v) for k, v in value.items()]
        elif isinstance(value, list):
            children = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        stack.extend(reversed(children))
    return None


def _check_keys(
    path: str, obj: Any, allowed: tuple[str, ...], required: tuple[str, ...]
) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise DataError(path, "must be an object")
    for key in obj:
        if key not in allowed:
            raise DataError(path, f"unknown key '{key}'")
    for key in required:
        if key not in obj:
            raise DataError(path, f"missing required key '{key}'")
        if obj[key] is None:
            raise DataError(f"{path}.{key}" if path else key, "is required and must not be null")
    return {k: v for k, v in obj.items() if v is not None}


def _build_list(
    doc: dict[str, Any],
    key: str,
    allowed: tuple[str, ...],
    required: tuple[str, ...],
    make: Callable[..., Any],
) -> tuple[Any, ...]:
    items = doc[key]
    if not isinstance(items, list):
        raise DataError(key, "must be an array")
    out = []
    for i, raw in enumerate(items):
        path = f"{key}[{i}]"
        fields = _check_keys(path, raw, allowed, required)
        try:
            out.append(make(**fields))
        except DataError as err:
            raise err.within(path) from None
    return tuple(out)


def instance_from_dict(doc: Any) -> Instance:
    """Build an :class:`Instance` from a parsed JSON document; raise :class:`DataError`."""
    if not isinstance(doc, dict):
        raise DataError("", "the document must be a JSON object")
    doc = _check_keys("", doc, _TOP_KEYS, ("format", "nodes"))  # a null optional key is absent
    if doc["format"] != FORMAT:
        raise DataError("format", f"must equal '{FORMAT}'")
    if ("slots" in doc) == ("busy" in doc):
        raise DataError("", "exactly one of 'slots' and 'busy' must be present")
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise DataError("name", "must be a string")
    geometry = doc.get("geometry", "rough")
    horizon = doc.get("horizon")
    if horizon is not None and not isinstance(horizon, list):
        raise DataError("horizon", "must be two integers [start, end]")
    nodes = _build_list(doc, "nodes", _NODE_KEYS, ("id", "performance"), Node)
    slots = busy = None
    if "slots" in doc:
        slots = _build_list(doc, "slots", _SLOT_KEYS, ("node", "start", "end"), Slot)
    else:
        busy = _build_list(doc, "busy", _BUSY_KEYS, ("node", "start", "end"), Busy)
    jobs: tuple[Job, ...] = ()
    if "jobs" in doc:
        jobs = _build_list(doc, "jobs", _JOB_KEYS, ("id", "nodes", "volume"), Job)
    return Instance(
        nodes=nodes,
        slots=slots,
        jobs=jobs,
        name=name,
        horizon=tuple(horizon) if horizon is not None else None,
        geometry=geometry,
        busy=busy,
    )


def load_json(text: str, file: str = "<string>") -> Any:
    """Parse JSON text strictly; raise :class:`InstanceFileError` naming ``file``.

    Rejected: invalid JSON, duplicate keys (named with their JSON path) and
    integers beyond Python's digit limit. NaN and Infinity parse to a marker
    that every number check rejects, so the error names their JSON path.
    """
    hooks = _Parse()
    try:
        doc = json.loads(
            text,
            parse_float=_parse_float,
            parse_constant=_NonFinite,
            object_pairs_hook=hooks.pairs,
        )
    except json.JSONDecodeError as err:
        raise InstanceFileError(
            file, "", f"invalid JSON at line {err.lineno} column {err.colno}: {err.msg}"
        ) from None
    except RecursionError:
        raise InstanceFileError(file, "", "invalid JSON: nested too deeply") from None
    except ValueError as err:  # an integer literal beyond Python's digit limit
        rule = "a number has too many digits" if "digits" in str(err) else str(err)
        raise InstanceFileError(file, "", f"invalid JSON: {rule}") from None
    if hooks.duplicates:
        path, key = _find_duplicate(doc) or ("", "?")
        raise InstanceFileError(file, path, f"duplicate key '{key}'")
    return doc


def loads_instance(text: str, file: str = "<string>") -> Instance:
    """Parse instance JSON text; ``file`` names the source in error messages."""
    doc = load_json(text, file)
    try:
        return instance_from_dict(doc)
    except DataError as err:
        raise InstanceFileError(file, err.path, err.rule) from None


def _nonblocking(path: str, flags: int) -> int:
    """Open without blocking on a FIFO that has no writer (it is then refused as irregular)."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def read_text(path: str | os.PathLike[str]) -> str:
    """Return a regular file's UTF-8 text; raise :class:`InstanceFileError` if unreadable."""
    name = os.fspath(path)
    try:
        # stat the open file: a FIFO or a device would block or never end
        with open(name, "rb", opener=_nonblocking) as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise InstanceFileError(name, "", "is not a regular file")
            data = fh.read(FILE_MAX + 1)
    except OSError as err:
        raise InstanceFileError(name, "", f"cannot read file ({err.strerror or err})") from None
    if len(data) > FILE_MAX:
        raise InstanceFileError(name, "", f"is larger than {FILE_MAX // 2**20} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InstanceFileError(name, "", "is not UTF-8 text") from None
    return text


def read_instance(path: str | os.PathLike[str]) -> Instance:
    """Read a ``planner.instance/1`` file; raise :class:`InstanceFileError` naming the problem."""
    return loads_instance(read_text(path), os.fspath(path))


def instance_to_dict(inst: Instance) -> dict[str, Any]:
    """Return the JSON document of ``inst``, with keys in the docs/formats.md order."""
    doc: dict[str, Any] = {"format": FORMAT, "name": inst.name}
    if inst.horizon is not None:
        doc["horizon"] = list(inst.horizon)
    doc["geometry"] = inst.geometry
    doc["nodes"] = [_node_dict(n) for n in inst.nodes]
    if inst.busy is not None:
        doc["busy"] = [{"node": b.node, "start": b.start, "end": b.end} for b in inst.busy]
    else:
        doc["slots"] = [_slot_dict(s) for s in inst.slots or ()]
    doc["jobs"] = [_job_dict(j) for j in inst.jobs]
    return doc


def _node_dict(n: Node) -> dict[str, Any]:
    d: dict[str, Any] = {"id": n.id, "performance": n.performance, "price": n.price}
    if n.q != 0.0:
        d["q"] = n.q
    if n.attributes:
        d["attributes"] = dict(sorted(n.attributes.items()))
    return d


def _slot_dict(s: Slot) -> dict[str, Any]:
    d: dict[str, Any] = {"node": s.node, "start": s.start, "end": s.end}
    if s.price is not None:
        d["price"] = s.price
    return d


def _job_dict(j: Job) -> dict[str, Any]:
    d: dict[str, Any] = {"id": j.id, "nodes": j.nodes, "volume": j.volume}
    if j.min_performance != 0.0:
        d["min_performance"] = j.min_performance
    for key in ("budget", "max_price"):
        if getattr(j, key) is not None:
            d[key] = getattr(j, key)
    d["criterion"] = j.criterion
    if j.requirements:
        d["requirements"] = dict(sorted(j.requirements.items()))
    for key in ("deadline", "release", "priority"):
        if getattr(j, key) is not None:
            d[key] = getattr(j, key)
    return d


def dumps_instance(inst: Instance) -> str:
    """Return the file text of ``inst``: deterministic, one array element per line.

    Equal instances give the same text: attribute and requirement names are
    written sorted (their order does not make instances differ).
    """
    return dumps_document(instance_to_dict(inst))


def dumps_document(doc: dict[str, Any]) -> str:
    """Return a file document as deterministic JSON text: one array element per line.

    Shared by the instance and workload writers, so both formats look alike.
    """
    lines = ["{"]
    keys = list(doc)
    for k, key in enumerate(keys):
        comma = "," if k < len(keys) - 1 else ""
        value = doc[key]
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"  {json.dumps(key)}: [")
            for i, item in enumerate(value):
                sep = "," if i < len(value) - 1 else ""
                lines.append(f"    {json.dumps(item, ensure_ascii=False)}{sep}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_instance(inst: Instance, path: str | os.PathLike[str]) -> None:
    """Write ``inst`` to ``path`` as a ``planner.instance/1`` file (same instance, same bytes)."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(dumps_instance(inst))
