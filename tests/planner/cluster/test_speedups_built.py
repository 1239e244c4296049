"""The optional C speedups are built where a build is required.

A build without a C compiler falls back to Python (tests/planner/cluster/test_speedups.py
then skips); CI sets ``PLANNER_REQUIRE_SPEEDUPS=1`` so that a build that silently fell
back there fails instead of leaving the compiled route untested.
"""

from __future__ import annotations

import importlib
import os

import pytest

REQUIRED = os.environ.get("PLANNER_REQUIRE_SPEEDUPS") == "1"


@pytest.mark.skipif(not REQUIRED, reason="PLANNER_REQUIRE_SPEEDUPS is not 1")
@pytest.mark.parametrize("module", ["planner.cluster._speedups", "instances.traces._swf_speedups"])
def test_speedups_built(module: str) -> None:
    """Each compiled module imports from the package the tests run."""
    assert importlib.import_module(module).__name__ == module
