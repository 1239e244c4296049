"""The tallies that the fuzz scripts (``fuzz_joint.py``, ``fuzz_snapshot.py``) print: a line
every 250 cases on stderr, then the counts, the statuses per scale and the wrong results."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable


def every_250(tally: Counter[str], began: float) -> None:
    """Print the tallies so far every 250 cases, should the run be stopped."""
    if tally["cases"] % 250 == 0:
        print(f"... {tally['cases']} cases, {tally['wrong']} wrong, "
              f"{time.perf_counter() - began:.0f} s: {json.dumps(dict(tally))}",
              file=sys.stderr, flush=True)  # fmt: skip


def summary(tally: Counter[str], scales: dict[int, Counter[str]], title: str,
            label: Callable[[int], str]) -> int:  # fmt: skip
    """Print every count, the statuses per scale (``title``; ``label`` names a scale) and the
    wrong results by kind; return the exit code (1 when any result was wrong)."""
    for key in sorted(tally):
        print(f"  {key}: {tally[key]}")
    print(f"{title} (cases; statuses):")
    for scale in sorted(scales):
        parts = ", ".join(f"{k} {v}" for k, v in sorted(scales[scale].items()))
        print(f"  {label(scale)}: {parts}")

    def kind(name: str) -> int:
        return sum(v for k, v in tally.items() if k.endswith(f"wrong: {name}"))

    print(f"wrong results: {tally['wrong']} (false optimal: {kind('false optimal')}, "
          f"infeasible: {kind('infeasible')}, "
          f"bound past the optimum: {kind('bound past the optimum')})")
    return 1 if tally["wrong"] else 0
