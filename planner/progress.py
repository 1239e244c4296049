"""planner's one progress mechanism: a counter, a timed phase and a ticking line on stderr.

Everything that makes a user wait more than about two seconds shows one of
these: :class:`Progress` (or :func:`track` over a loop) counts items
(instances of a study, jobs of a replay, cycles of a flow; :func:`counting`
gathers the loops of a whole experiment on one line), :func:`phase` times a
step that cannot count (reading a trace, drawing a figure), and
:class:`Ticker` rewrites any line once a second (the CP-SAT incumbent and
bound of :mod:`models.progress`).

Progress is shown only where someone watches: stderr is a terminal and the
``CI`` variable is unset. ``PLANNER_PROGRESS=1`` forces it on (e.g. in a
pipe), ``PLANNER_PROGRESS=0`` forces it off; an explicit ``enabled=`` wins
over both. Algorithms never print: they take a callback (e.g.
``simulate(..., progress=...)``) and the caller renders it here.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import TYPE_CHECKING, TextIO, TypeVar

if TYPE_CHECKING:
    import threading

T = TypeVar("T")
_Self = TypeVar("_Self", bound="Ticker")

ENV: str = "PLANNER_PROGRESS"
"""Environment variable forcing progress on (``1``) or off (``0``) whatever stderr is."""

INTERVAL: float = 1.0
"""Seconds between two renderings of a ticking line (also the longest a phase stays silent)."""


def interactive(stream: TextIO | None = None) -> bool:
    """Return True when progress should be shown on ``stream`` (default: stderr).

    ``PLANNER_PROGRESS=1``/``0`` decides when set; otherwise a terminal and no ``CI`` variable.
    """
    forced = os.environ.get(ENV, "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    stream = stream or sys.stderr
    return not os.environ.get("CI") and hasattr(stream, "isatty") and stream.isatty()


def _clock(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, sec = divmod(int(seconds), 60)
    return f"{minutes}m{sec:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"


class Ticker:
    """Rewrite ``render()`` in place on ``stream`` every :data:`INTERVAL` seconds while open.

    The first rendering is immediate; :meth:`close` writes the last one and ends the line.
    Silent (no thread) when disabled.
    """

    def __init__(self, render: Callable[[], str], *, enabled: bool | None = None,
                 stream: TextIO | None = None, interval: float = INTERVAL) -> None:  # fmt: skip
        self.render, self.interval = render, interval
        self.stream = stream or sys.stderr
        self.enabled = interactive(self.stream) if enabled is None else enabled
        self._closed = False
        self._thread: threading.Thread | None = None
        self._width = 0
        if self.enabled:  # threading only here: a silent ticker does not import it
            import threading

            self._stop = threading.Event()
            self._lock = threading.Lock()
            self.draw()
            self._thread = threading.Thread(target=self._loop, daemon=True)
            self._thread.start()

    def draw(self, end: str = "") -> None:
        """Write the current line now (padded over a longer previous one)."""
        if not self.enabled:
            return
        text = self.render()
        if hasattr(self.stream, "isatty") and self.stream.isatty():
            import shutil

            text = text[: shutil.get_terminal_size().columns - 1]  # a wrapped line: no redraw
        with self._lock:
            pad = " " * max(0, self._width - len(text))
            self._width = 0 if end else len(text)
            self.stream.write("\r" + text + pad + end)
            self.stream.flush()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.draw()

    @property
    def closed(self) -> bool:
        """Return True once :meth:`close` has run."""
        return self._closed

    def close(self) -> None:
        """Stop ticking and end the line (idempotent)."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        self.draw("\n")

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        self.close()


class Progress(Ticker):
    """``label [done/total] pct%  elapsed  left`` — a counter that also ticks while idle.

    ``total=None`` counts without a percentage (``label [done unit]``). ``done``
    starts the count (e.g. instances a resumed study already holds); the
    estimate of the time left uses only the items counted here.
    """

    def __init__(self, total: int | None, done: int = 0, *, label: str = "", unit: str = "",
                 enabled: bool | None = None, stream: TextIO | None = None,
                 interval: float = INTERVAL) -> None:  # fmt: skip
        self.total, self.done, self.start_done, self.label = total, done, done, label
        self.unit = unit
        self.began = time.perf_counter()
        self._last = 0.0
        super().__init__(self.line, enabled=enabled, stream=stream, interval=interval)

    def line(self) -> str:
        """Return the current progress text."""
        elapsed = time.perf_counter() - self.began
        head = f"{self.label} " if self.label else ""
        if self.total is None:
            unit = f" {self.unit}" if self.unit else ""
            return f"{head}[{self.done}{unit}]  {_clock(elapsed)} elapsed"
        new = self.done - self.start_done
        left = _clock(elapsed / new * (self.total - self.done)) if new else "?"
        if self.done >= self.total:
            left = _clock(0.0)
        pct = 100.0 * self.done / self.total if self.total else 100.0
        count = f"[{self.done}/{self.total}] {pct:5.1f}%"
        return f"{head}{count}  {_clock(elapsed)} elapsed  {left} left"

    def step(self, n: int = 1) -> None:
        """Count ``n`` more items done (redrawn at most ten times a second)."""
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self._last >= 0.1 or self.done == self.total):
            self._last = now
            self.draw()

    def update(self, done: int) -> None:
        """Set the count to ``done`` items."""
        self.step(done - self.done)


_OUTER: ContextVar[Progress | None] = ContextVar("planner_progress_outer", default=None)


@contextmanager
def counting(label: str, unit: str = "", *, enabled: bool | None = None,
             stream: TextIO | None = None) -> Iterator[Progress]:  # fmt: skip
    """One counter for a whole experiment: every :func:`track` and :func:`advance` inside
    the block counts on it instead of drawing a line of its own."""
    with Progress(None, label=label, unit=unit, enabled=enabled, stream=stream) as bar:
        token = _OUTER.set(bar)
        try:
            yield bar
        finally:
            _OUTER.reset(token)


def advance(n: int = 1) -> None:
    """Count ``n`` items on the enclosing :func:`counting` counter (nothing outside one)."""
    bar = _OUTER.get()
    if bar is not None:
        bar.step(n)


def track(items: Iterable[T], label: str = "", *, total: int | None = None,
          enabled: bool | None = None, stream: TextIO | None = None) -> Iterator[T]:  # fmt: skip
    """Yield ``items`` while a :class:`Progress` counts them (``total``: ``len(items)`` if sized).

    Inside :func:`counting` the items count on that counter instead.
    """
    if _OUTER.get() is not None:
        for item in items:
            yield item
            advance()
        return
    if total is None and isinstance(items, Sized):
        total = len(items)
    with Progress(total, label=label, enabled=enabled, stream=stream) as bar:
        for item in items:
            yield item
            bar.step()


@contextmanager
def phase(label: str, *, enabled: bool | None = None,
          stream: TextIO | None = None) -> Iterator[Ticker]:  # fmt: skip
    """Show ``label ... 3.0s`` while the block runs, then ``label: done in 3.2s``.

    For steps that cannot count their work (reading a trace, drawing a figure).
    """
    began = time.perf_counter()
    finished: list[bool] = []

    def render() -> str:
        elapsed = _clock(time.perf_counter() - began)
        return f"{label}: done in {elapsed}" if finished else f"{label} ... {elapsed}"

    ticker = Ticker(render, enabled=enabled, stream=stream)
    try:
        yield ticker
        finished.append(True)
    finally:
        ticker.close()


def say(text: str, *, enabled: bool | None = None, stream: TextIO | None = None) -> None:
    """Write one progress message line (e.g. a finished repetition) when progress is shown."""
    stream = stream or sys.stderr
    if interactive(stream) if enabled is None else enabled:
        stream.write(text + "\n")
        stream.flush()
