"""A one-line progress indicator on stderr for interactive runs (quiet under CI)."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO


def interactive(stream: TextIO | None = None) -> bool:
    """Return True when progress should be shown: a TTY and no ``CI`` variable."""
    stream = stream or sys.stderr
    return not os.environ.get("CI") and hasattr(stream, "isatty") and stream.isatty()


class Progress:
    """``[done/total] pct% elapsed eta`` rewritten in place; silent when disabled."""

    def __init__(self, total: int, done: int = 0, *, enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:  # fmt: skip
        self.total, self.done, self.start_done = total, done, done
        self.stream = stream or sys.stderr
        self.enabled = interactive(self.stream) if enabled is None else enabled
        self.began = time.perf_counter()

    def step(self, n: int = 1) -> None:
        """Count ``n`` more instances done."""
        self.done += n
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.began
        new = self.done - self.start_done
        eta = elapsed / new * (self.total - self.done) if new else 0.0
        pct = 100.0 * self.done / self.total if self.total else 100.0
        self.stream.write(
            f"\r[{self.done}/{self.total}] {pct:5.1f}%  {elapsed:6.1f}s elapsed  {eta:6.1f}s left"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the progress line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
