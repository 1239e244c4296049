"""min_finish written from docs/ alone (docs/algorithms.md); see common.py for usage."""

from __future__ import annotations

import sys

from aep import aep
from common import main
from swap import finish, swap

if __name__ == "__main__":
    sys.exit(main(lambda inst, job: aep(inst, job, swap, finish, exact=False)))
