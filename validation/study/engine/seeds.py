"""Seeds derived from a study seed and a unit index (``numpy.random.SeedSequence``).

A unit's seed depends on the study seed and its index only, so rows do not depend
on the executor, the worker count or the order in which units complete.
"""

from __future__ import annotations

import numpy as np


def instance_seed(study_seed: int, index: int) -> int:
    """Return the generator seed of instance ``index`` (independent of the instance count)."""
    ss = np.random.SeedSequence(study_seed, spawn_key=(index,))
    return int(ss.generate_state(1, np.uint32)[0])


def search_seed(study_seed: int, index: int) -> int:
    """Return the seed handed to randomised heuristics on instance ``index``."""
    ss = np.random.SeedSequence(study_seed, spawn_key=(index, 1))
    return int(ss.generate_state(1, np.uint32)[0])
