"""The trace files bundled with planner: the registry ``planner list traces`` and
``planner simulate --help`` read (the files and their credits: ``instances/data/traces/``)."""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "data" / "traces"
"""Where the bundled logs live; a bare file name that is not in the current directory
but is here reads the bundled file (:func:`instances.workload_io.bundled`)."""

KINDS = {".swf.gz": "SWF log (Parallel Workloads Archive)", ".machines": "Alea machines file"}
"""File suffix → what such a bundled file is."""


def bundled_traces() -> dict[str, str]:
    """Return ``{file name: kind}`` for every bundled trace file, sorted by name."""
    out = {}
    for path in sorted(FOLDER.iterdir()):
        kind = next((k for s, k in KINDS.items() if path.name.endswith(s)), None)
        if kind is not None and path.is_file():
            out[path.name] = kind
    return out
