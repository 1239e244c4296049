"""Problem data for planner: nodes, slots, jobs, instances, files and generators.

The bottom layer of the package stack (instances ← planner ← models ← validation).
"""

from instances.errors import DataError, InstanceFileError, LimitError
from instances.subtract import subtract, subtract_interval  # the name is also a module's

_LAZY = {
    **dict.fromkeys(("CRITERIA", "GEOMETRIES", "Criterion"), "instances.criteria"),
    "Instance": "instances.instance",
    **dict.fromkeys(("dumps_instance", "loads_instance", "read_instance", "write_instance"),
                    "instances.io"),
    "Job": "instances.job",
    "Node": "instances.node",
    **dict.fromkeys(("Busy", "Slot"), "instances.slot"),
    **dict.fromkeys(("budget_from_price", "cost", "duration"), "instances.units"),
    **dict.fromkeys(("ClusterJob", "Machine", "Workload"), "instances.workload"),
    **dict.fromkeys(("dumps_workload", "loads_workload", "read_workload", "write_workload"),
                    "instances.workload_io"),
    **dict.fromkeys(("FAMILIES", "WORKLOAD_FAMILIES", "Family", "generate", "generate_workload"),
                    "instances.generators"),
    **dict.fromkeys(("SwfError", "SwfLog", "read_swf"), "instances.traces"),
}  # fmt: skip
"""Names imported on first use (PEP 562), so that a command loads only the modules it uses:
``planner simulate`` reads a log without the slot model, the generators or numpy."""


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'instances' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "CRITERIA",
    "FAMILIES",
    "GEOMETRIES",
    "WORKLOAD_FAMILIES",
    "Busy",
    "ClusterJob",
    "Criterion",
    "DataError",
    "Family",
    "Instance",
    "InstanceFileError",
    "Job",
    "LimitError",
    "Machine",
    "Node",
    "Slot",
    "SwfError",
    "SwfLog",
    "Workload",
    "budget_from_price",
    "cost",
    "dumps_instance",
    "dumps_workload",
    "duration",
    "generate",
    "generate_workload",
    "loads_instance",
    "loads_workload",
    "read_instance",
    "read_swf",
    "read_workload",
    "subtract",
    "subtract_interval",
    "write_instance",
    "write_workload",
]
