"""``planner validate FILE``: check an instance or workload file (exit 0 valid, 2 invalid).

A ``.swf``/``.swf.gz`` log, a JSON document whose ``format`` is
``planner.workload/1`` or a Batsim workload (``nb_res``, no ``format``) is read
as a workload (``instances.read_workload``); any other file as a
``planner.instance/1`` instance.
"""

from __future__ import annotations

import argparse

from instances.text import plural
from planner.cli.common import load


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``validate`` command."""
    p = sub.add_parser("validate", help="check an instance or workload file; exit 0 if valid")
    p.add_argument("file", help="a planner.instance/1, planner.workload/1 or Batsim workload JSON "
                   "file, or an SWF log")  # fmt: skip
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the file; print a one-line summary when it is valid."""
    if _is_workload(args.file):
        from instances import read_workload
        from planner.cli.generate import workload_summary

        print(f"{args.file}: valid workload ({workload_summary(read_workload(args.file))})")
        return 0
    inst = load(args.file)
    print(
        f"{args.file}: valid ({plural(len(inst.nodes), 'node')}, "
        f"{plural(len(inst.slots), 'slot')}, {plural(len(inst.jobs), 'job')}, "
        f"{inst.geometry} geometry)"
    )
    return 0


def _is_workload(path: str) -> bool:
    """Return True for an SWF log, a JSON file that declares ``planner.workload/1``, or a
    Batsim workload."""
    from instances.batsim import is_batsim
    from instances.io import load_json, read_text
    from instances.workload_io import FORMAT

    if path.lower().endswith((".swf", ".swf.gz")):
        return True
    doc = load_json(read_text(path), path)
    return is_batsim(doc) or (isinstance(doc, dict) and doc.get("format") == FORMAT)
