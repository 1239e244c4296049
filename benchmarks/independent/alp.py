"""ALP written from docs/ alone (docs/algorithms.md "ALP and AMP"); see common.py for usage."""

from __future__ import annotations

import sys

from common import main
from first_fit import first_fit

if __name__ == "__main__":
    sys.exit(main(lambda inst, job: first_fit(inst, job, alp=True)))
