"""Tests of models.progress: the joint solve's progress line fits an 80-column terminal at any
magnitude, and its clock keeps moving while a stage blocks (a SCIP or GLOP call of minutes),
checked with a fake clock, not with timings."""

from __future__ import annotations

import io
import threading

import pytest

from models.progress import WIDTH, SearchProgress, fit
from planner.deadline import Deadline
from planner.progress import Ticker


class FakeClock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


STAGES = [
    "root LP",
    "set packing of 24,940 windows below 14297",
    "jobs placed: 99 found, at most 100",
    "x" * 200,  # a stage longer than the terminal
]


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize(
    ("incumbent", "bound", "rounds", "nodes", "seconds"),
    [
        (None, None, 0, 0, 0.0),  # nothing found yet
        (14303, 14288, 17, 0, 25.1),  # css2015 problem (8)
        (-3999999985, -3999999982, 1234, 98765, 3599.0),  # maximised, 10 digits
        (4 * 10**15 + 1, 4 * 10**15 - 3, 10**6, 10**7, 10**6),  # 16 digits, days
        (0.123456789, -1e-300, 3, 3, 59.95),  # floats of either sign
    ],
)
def test_the_line_fits_80_columns_and_keeps_its_numbers(
    stage: str, incumbent: float | None, bound: float | None, rounds: int, nodes: int,
    seconds: float,
) -> None:
    """Whatever the stage text and the values, the line has at most 79 characters and the
    incumbent, the bound and the gap are never cut (the stage text gives way first)."""
    clock = FakeClock()
    track = SearchProgress("joint (cpsat)", enabled=False, clock=clock,
                           deadline=Deadline(7200.0, clock=clock))
    track.update(stage=stage, incumbent=incumbent, bound=bound, rounds=rounds, nodes=nodes,
                 open=nodes // 2)
    clock.now = seconds
    line = track.line()
    assert len(line) <= WIDTH
    assert line.startswith("joint (cpsat) ") and "best " in line and "bound " in line
    if incumbent is not None and bound is not None:
        gap = line.split("gap ")[1].split()[0]
        assert gap.endswith("%") and float(gap[:-1]) >= 0.0  # whole, never cut
    if isinstance(incumbent, int) and abs(incumbent) < 10**12:
        assert f"best {incumbent}" in line and f"bound {bound}" in line  # exact integers


def test_fit_drops_the_extras_then_shortens_the_stage() -> None:
    """Extras go from the last; then the stage is cut with an ellipsis."""
    values = ["best 1", "bound 0"]
    full = fit("head", "stage", values, ["rounds 3", "nodes 4"], width=80)
    assert full == "head  stage  best 1  bound 0  rounds 3  nodes 4"
    assert fit("head", "stage", values, ["rounds 3", "nodes 4"], width=40).endswith("rounds 3")
    short = fit("head", "a long stage text", values, ["rounds 3"], width=30)
    assert short == "head  a long…  best 1  bound 0" and len(short) <= 30


def test_the_clock_moves_while_a_stage_blocks() -> None:
    """While the main thread is blocked in one stage (an Event standing for a SCIP call that
    takes minutes), the ticker thread keeps drawing the line, and each drawing reads the
    clock afresh: the elapsed time advances with no update from the solve. Every drawing
    moves the fake clock one second, so the content is exact."""
    clock = FakeClock()
    track = SearchProgress("joint (cg)", enabled=True, clock=clock,
                           deadline=Deadline(60.0, clock=clock))
    track.update(stage="set packing of 7018 windows", incumbent=14331, bound=14288)
    enough = threading.Event()

    class Stream(io.StringIO):
        def write(self, text: str) -> int:
            clock.now += 1.0
            if self.getvalue().count("\r") >= 5:
                enough.set()
            return super().write(text)

    stream = Stream()
    track.stream = stream
    with Ticker(track.line, enabled=True, stream=stream, interval=0.001):
        assert enough.wait(60)  # the blocked stage: only the ticker thread runs
    lines = [x for x in stream.getvalue().replace("\n", "\r").split("\r") if x.strip()]
    clocks = [float(x.split()[2].rstrip("s")) for x in lines]
    assert len(lines) >= 6 and clocks == sorted(clocks) and clocks[-1] > clocks[0]
    assert all("set packing" in x and "best 14331" in x for x in lines)
