"""Seeded instance generators, one family per seed experiment (see ``docs/readme/families.md``)."""

from instances.generators.base import Family
from instances.generators.registry import FAMILIES, generate

__all__ = ["FAMILIES", "Family", "generate"]
