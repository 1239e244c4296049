"""The representable ranges of problem data: one place, used by every data class.

The exact models compute in 64-bit integers (CP-SAT needs sums within about
2^62) and doubles; these ranges keep every derived number inside them:

- a task lasts ``ceil(V / p) <= 10^9 / 10^-3 = 10^12`` quanta, and a time
  (slot edge, horizon, release, deadline) lies within ``±10^12``;
- a task costs at most ``10^3 · 10^12 = 10^15`` and a window of at most 10^3
  tasks at most ``10^18 < 2^62``; a derived budget ``floor(C · V · n)`` is at
  most ``10^15``, the largest explicit budget;
- ``|q| <= 10^15``, so any sum of q stays far inside the doubles.

The cluster job-flow layers (workloads, SWF logs, policy options, generator
parameters) have their own ranges below, with the same aim.

Each rule message states its range (``docs/guarantees.md`` lists them all).
"""

from __future__ import annotations

TIME_MAX = 10**12
"""Every time value t satisfies -TIME_MAX <= t <= TIME_MAX (integer quanta)."""
VOLUME_MAX = 10**9
"""0 < volume <= VOLUME_MAX."""
PERFORMANCE_MIN = 1e-3
PERFORMANCE_MAX = 1e6
"""PERFORMANCE_MIN <= performance <= PERFORMANCE_MAX; min_performance <= PERFORMANCE_MAX."""
PRICE_MAX = 10**3
"""0 <= price, slot price, max_price <= PRICE_MAX (money per quantum)."""
BUDGET_MAX = 10**15
"""0 <= budget <= BUDGET_MAX (integer money)."""
NODES_MAX = 10**3
"""1 <= a job's node count <= NODES_MAX."""
Q_MAX = 10**15
"""-Q_MAX <= q <= Q_MAX."""
REAL_MAX = 10**15
"""|priority| and numeric attributes or requirements <= REAL_MAX."""
FILE_MAX = 2**30
"""Largest instance file read, in bytes (1 GiB); only regular files are read."""
TEXT_MAX = 10**4
"""Ids and other strings: at most TEXT_MAX characters of valid Unicode text."""


def span(lo: float, hi: float) -> str:
    """Return ``[lo, hi]`` with powers of ten written as 10^k (for rule messages)."""
    return f"[{num(lo)}, {num(hi)}]"


def num(x: float) -> str:
    """Return ``x`` for a rule message: powers of ten from 10^3 on (and 10^-3 down) as 10^k."""
    for k in range(-9, 19):
        for sign in (1, -1):
            if x == sign * 10.0**k and abs(k) >= 3:
                return f"{'-' if sign < 0 else ''}10^{k}"
    return f"{x:g}" if isinstance(x, float) else str(x)


# --- Cluster job flows (planner.workload/1, SWF logs, ``planner simulate``) -------------------
#
# The replay computes in Python integers, but its outputs (jobs.csv, JSON) are read by tools
# that use 64-bit integers, so every derived time stays below 2^62:
#
# - a duration is ceil(x / s) <= CLUSTER_TIME_MAX / SPEED_MIN = 10^15 seconds (exact in a
#   double, so the vectorised rounding is exact too);
# - a planned or actual end is at most max r_j + sum_j ceil(e_j / s_min) (every job run one
#   after another on the slowest machine, after the last submission); the workload check
#   bounds that sum by HORIZON_MAX.

CLUSTER_TIME_MAX = 10**12
"""0 <= submit, work, estimate, deadline <= CLUSTER_TIME_MAX (integer seconds; ~31,700 years)."""
SPEED_MIN = 1e-3
SPEED_MAX = 1e6
"""SPEED_MIN <= machine speed <= SPEED_MAX (finite; 1 is the reference machine)."""
CPUS_MAX = 2**31 - 1
"""1 <= a machine's or a job's CPU count <= CPUS_MAX (the replay never allocates per CPU)."""
HORIZON_MAX = 2**62
"""max r_j + sum_j ceil(e_j / s_min) <= HORIZON_MAX: every planned and actual end fits int64."""
CSV_INT_DIGITS = 19
"""Integers in jobs.csv and reservation logs: at most 19 digits (every int64 fits)."""

# --- Options of the policies and parameters of the generators ---------------------------------

OPTION_WEIGHT_MAX = 1e6
"""Flexible backfilling: each weight is a finite number in [0, OPTION_WEIGHT_MAX]."""
OPTION_ITERATIONS_MAX = 10**5
"""Tabu search: iterations per run <= OPTION_ITERATIONS_MAX."""
OPTION_PER_JOB_MAX = 100
"""Tabu search: extra iterations per waiting job <= OPTION_PER_JOB_MAX."""
OPTION_COUNT_MAX = 10**9
"""Tabu search: tabu_size, every <= OPTION_COUNT_MAX (they bound no loop beyond the jobs)."""
SEED_MAX = 2**63 - 1
"""0 <= a seed <= SEED_MAX."""
PARAM_COUNT_MAX = 10**6
"""Generator parameters that count things (nodes, jobs, slots, machines, cpus): <= 10^6."""
PARAM_INT_MAX = 10**12
"""Other integer generator parameters: |value| <= 10^12."""
PARAM_REAL_MAX = 1e15
"""Real generator parameters: finite, |value| <= 10^15."""
SWF_NODES_MAX = 10**4
"""The slot family ``swf``: at most 10^4 processors, each one a node of the instance."""
DOMAIN_TASKS_MAX = 10**5
"""Loaded domains (Toporkov et al.): nodes x (interval x load_max / task_length_min + 1) local
tasks at most, so a generator's work is bounded before it starts."""
