"""Seeded instance generators, one family per seed experiment.

The README's "Instance families" section lists them with their sources.
"""

from instances.generators.base import Family
from instances.generators.registry import (
    FAMILIES,
    WORKLOAD_FAMILIES,
    generate,
    generate_workload,
)

__all__ = ["FAMILIES", "WORKLOAD_FAMILIES", "Family", "generate", "generate_workload"]
