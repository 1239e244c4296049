"""planner.progress: the one progress mechanism — when it shows, and what it writes."""

from __future__ import annotations

import io

import pytest

from planner.progress import (
    ENV,
    Progress,
    Ticker,
    advance,
    counting,
    interactive,
    phase,
    say,
    track,
)


class _Tty(io.StringIO):
    """A StringIO that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "tty", "shown"),
    [
        ({}, True, True),  # a terminal, no CI: shown
        ({}, False, False),  # a pipe or a file: quiet
        ({"CI": "true"}, True, False),  # CI: quiet even on a terminal
        ({ENV: "1"}, False, True),  # forced on in a pipe
        ({ENV: "1", "CI": "true"}, False, True),  # forcing wins over CI
        ({ENV: "0"}, True, False),  # forced off on a terminal
        ({ENV: "yes"}, False, False),  # not 0/1: ignored, the pipe decides
    ],
)
def test_interactive(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], tty: bool,
                     shown: bool) -> None:  # fmt: skip
    """Terminal and no CI, unless PLANNER_PROGRESS=0/1 forces the answer."""
    monkeypatch.delenv("CI", raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert interactive(_Tty() if tty else io.StringIO()) is shown


def test_progress_counts_and_ends_its_line() -> None:
    """A forced-on counter starts at once, shows done/total, and ends with a newline."""
    buf = io.StringIO()
    bar = Progress(4, 1, label="study", enabled=True, stream=buf)
    assert buf.getvalue().startswith("\rstudy [1/4]")
    bar.step()
    bar.step(2)
    bar.close()
    bar.close()
    text = buf.getvalue()
    assert "[4/4] 100.0%" in text and text.endswith("\n") and text.count("\n") == 1


def test_progress_without_total() -> None:
    """``total=None`` counts without a percentage."""
    buf = io.StringIO()
    with Progress(None, label="cycles", enabled=True, stream=buf) as bar:
        bar.update(3)
    assert "cycles [3]" in buf.getvalue() and "%" not in buf.getvalue()


def test_disabled_writes_nothing() -> None:
    """In a pipe (StringIO is no terminal) no counter, phase or message writes a byte."""
    buf = io.StringIO()
    with Progress(4, stream=buf) as bar:
        bar.step()
    with phase("reading", stream=buf):
        pass
    say("repetition 1 done", stream=buf)
    Ticker(lambda: "x", stream=buf).close()
    assert buf.getvalue() == ""


def test_phase_reports_done_or_leaves_the_running_line() -> None:
    """A finished phase ends ``label: done in``; a failed one keeps ``label ...``."""
    buf = io.StringIO()
    with phase("reading KTH", enabled=True, stream=buf):
        pass
    assert buf.getvalue().startswith("\rreading KTH ... ")
    assert buf.getvalue().rstrip().endswith("s") and "reading KTH: done in" in buf.getvalue()
    failed = io.StringIO()
    with pytest.raises(KeyError), phase("drawing", enabled=True, stream=failed):
        raise KeyError("x")
    assert "done" not in failed.getvalue() and failed.getvalue().endswith("\n")


def test_ticker_pads_a_shorter_line() -> None:
    """A shorter rewrite blanks the tail of the longer line before it."""
    texts = iter(["a long first line", "short"])
    buf = io.StringIO()
    ticker = Ticker(lambda: next(texts), enabled=True, stream=buf, interval=3600)
    ticker.close()
    assert buf.getvalue() == "\ra long first line\rshort" + " " * 12 + "\n"


def test_track_counts_a_loop() -> None:
    """``track`` yields every item and counts each one, total taken from ``len``."""
    buf = io.StringIO()
    seen = list(track(range(3), "runs", enabled=True, stream=buf))
    assert seen == [0, 1, 2]
    assert "runs [3/3] 100.0%" in buf.getvalue() and buf.getvalue().endswith("\n")
    assert list(track(iter("ab"), stream=io.StringIO())) == ["a", "b"]  # unsized, quiet


def test_counting_gathers_every_loop_on_one_line() -> None:
    """Inside ``counting`` the loops and ``advance`` count on one line; none of their own."""
    buf = io.StringIO()
    with counting("aep-criteria", "runs", enabled=True, stream=buf):
        for _ in track(range(2), "reading 1", enabled=True, stream=buf):
            pass
        advance(3)
    text = buf.getvalue()
    assert "aep-criteria [5 runs]" in text and "reading 1" not in text
    assert text.count("\n") == 1
    advance()  # outside any counter: nothing to count on, no error


def test_a_line_never_wraps_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the line is cut to its width: a wrapped line could not be rewritten."""
    import os
    import shutil

    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((20, 5)))
    buf = _Tty()
    Ticker(lambda: "x" * 50, enabled=True, stream=buf, interval=3600).close()
    assert buf.getvalue() == "\r" + "x" * 19 + "\r" + "x" * 19 + "\n"
