"""Read Alea-style machine descriptions (``<trace>.machines`` files).

The Alea simulator (Klusáček, Matyska & Rudová 2008) describes the machines
of a trace with one line per cluster::

    id  name  nodes  cpus_per_node  speed  [ram_kb]

tab- or space-separated. Alea builds each line as one resource of ``nodes``
nodes with ``cpus_per_node`` processors of rating ``speed`` each, and
co-allocates a parallel job over the nodes of one resource only, never
across lines. So each line is one :class:`~instances.workload.Machine` named
``name``, with ``nodes × cpus_per_node`` CPUs at relative speed ``speed``
(the Alea HPC2N file: ``0 seth 120 2 1 1048576`` → one machine "seth" of 240
CPUs at speed 1). ``id`` must be an integer and ``ram_kb`` a non-negative
integer when present; both are checked and otherwise unused. Blank lines and
lines starting with ``#`` or ``;`` are ignored.
"""

from __future__ import annotations

import math
import os

from instances.errors import DataError, InstanceFileError
from instances.io import read_text
from instances.workload import MAX_CPUS, Machine


def read_machines(path: str | os.PathLike[str]) -> tuple[Machine, ...]:
    """Return the machines of an Alea machines file, one per line, in file order.

    Raises
    ------
    InstanceFileError
        Naming the file, ``line N`` and the rule (wrong field count, a
        non-integer count, a non-positive speed, a repeated name, no machine).
    """
    name = os.fspath(path)
    machines: list[Machine] = []
    seen: dict[str, int] = {}
    for lineno, raw in enumerate(read_text(name).splitlines(), start=1):
        text = raw.strip()
        if not text or text[0] in "#;":
            continue
        where = f"line {lineno}"
        try:
            machine = _machine(text)
        except DataError as err:
            raise InstanceFileError(name, where, str(err)) from None
        if machine.id in seen:
            rule = f"machine name '{machine.id}' repeats (first on line {seen[machine.id]})"
            raise InstanceFileError(name, where, rule)
        seen[machine.id] = lineno
        machines.append(machine)
    if not machines:
        rule = "holds no machine line (id name nodes cpus_per_node speed)"
        raise InstanceFileError(name, "", rule)
    return tuple(machines)


def _machine(text: str) -> Machine:
    parts = text.split()
    if len(parts) not in (5, 6):
        raise DataError("", f"expected 5 or 6 fields (id name nodes cpus_per_node speed [ram_kb]), "
                            f"found {len(parts)}")  # fmt: skip
    ident, label, nodes, per_node, speed = parts[:5]
    _integer("id", ident, 0)
    count = _integer("nodes", nodes, 1) * _integer("cpus_per_node", per_node, 1)
    if count > MAX_CPUS:
        raise DataError("nodes", f"nodes x cpus_per_node must be <= {MAX_CPUS}")
    if len(parts) == 6:
        _integer("ram_kb", parts[5], 0)
    try:
        rating = float(speed)
    except ValueError:
        raise DataError("speed", f"must be a number > 0, got '{speed}'") from None
    if not math.isfinite(rating) or rating <= 0 or not speed.isascii() or "_" in speed:
        raise DataError("speed", f"must be a finite number > 0, got '{speed}'")
    return Machine(label, count, rating)


def _integer(field: str, text: str, minimum: int) -> int:
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(text) > 18 or int(text) < minimum:
        raise DataError(field, f"must be an integer >= {minimum}, got '{text}'")
    return int(text)
