"""Hypothesis profiles of the job-flow fuzz suite.

``ci`` (the default) is small and derandomized, a few seconds per test, so the
suite stays fast and reproducible; ``long`` explores with fresh random examples::

    HYPOTHESIS_PROFILE=long python -m pytest tests/fuzz

Neither profile has a per-example deadline: no test races the wall clock.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("ci", max_examples=25, derandomize=True, **_COMMON)
settings.register_profile("long", max_examples=2000, derandomize=False, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
