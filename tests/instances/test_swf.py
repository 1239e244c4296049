"""Tests of the SWF reader, the processor packing and the ``swf`` family."""

from __future__ import annotations

import gzip
import itertools
import shutil
from collections import Counter
from pathlib import Path

import pytest

from instances import Instance, Node, dumps_instance, generate, loads_instance, read_swf
from instances.generators.swf import BUNDLED, DEFAULT_TRACE
from instances.traces import SwfError, pack, window_busy
from planner.cli import main

HAND = Path(__file__).parent / "data" / "hand.swf"
KTH = BUNDLED / DEFAULT_TRACE
IDS = ["n1", "n2", "n3", "n4"]


def _slots(start: float, length: float, quantum: float) -> list[tuple[str, int, int]]:
    packing = pack(read_swf(HAND), 4)
    busy, horizon = window_busy(packing, IDS, start, length, quantum)
    inst = Instance(nodes=[Node(i, 1.0) for i in IDS], busy=busy, horizon=(0, horizon))
    return sorted((s.node, s.start, s.end) for s in inst.slots)


def test_hand_log_records_and_skips() -> None:
    """Jobs 3 (run time -1) and 5 (processors -1) are skipped and counted; the header is read."""
    log = read_swf(HAND)
    assert [r.number for r in log.records] == [1, 2, 4, 6, 7, 8]
    assert log.skipped == {"processors_unknown": 1, "run_time_unknown": 1}
    assert log.max_procs == 4
    assert log.header["Acknowledge"] == "the planner authors"
    assert log.records[1].start == 120.0 and log.records[3].end == 590.5


def test_hand_log_packing() -> None:
    """First fit by start time: job 4 waits for three processors (delayed to 600).

    Job 1 holds processors 0-1 on [0, 600), job 2 processor 2 on [120, 420);
    at 300 job 4 finds one free processor, so it starts at 600 on 0-2; job 6
    (start 500) then finds only processor 3 free. Job 7 runs 0 s and job 8
    asks for 5 > MaxProcs processors.
    """
    packing = pack(read_swf(HAND), 4)
    got = [(j.number, j.start, j.end, j.processors) for j in packing.jobs]
    assert got == [
        (1, 0.0, 600.0, (0, 1)),
        (2, 120.0, 420.0, (2,)),
        (4, 600.0, 960.0, (0, 1, 2)),
        (6, 500.0, 590.5, (3,)),
    ]
    assert packing.counts == {"delayed": 1, "too_many_processors": 1, "zero_run_time": 1}


def test_packing_never_exceeds_processors() -> None:
    """On the KTH log no processor runs two jobs at once (so at most MaxProcs are busy)."""
    packing = pack(read_swf(KTH), 100)
    per_proc: dict[int, list[tuple[float, float]]] = {}
    for job in packing.jobs:
        for p in job.processors:
            per_proc.setdefault(p, []).append((job.start, job.end))
    for spans in per_proc.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


@pytest.mark.parametrize(
    ("start", "length", "expected"),
    [
        # Whole log, 20 one-minute quanta: job 6's [500, 590.5) s widens to quanta [8, 10).
        (
            0,
            1200,
            [
                ("n1", 16, 20),
                ("n2", 16, 20),
                ("n3", 0, 2),
                ("n3", 7, 10),
                ("n3", 16, 20),
                ("n4", 0, 8),
                ("n4", 10, 20),
            ],
        ),
        # Window [300, 900) s: n1, n2 busy throughout; job 6 covers quanta [3, 5).
        (300, 600, [("n3", 2, 5), ("n4", 0, 3), ("n4", 5, 10)]),
    ],
)
def test_hand_log_slots(start: int, length: int, expected: list[tuple[str, int, int]]) -> None:
    """The free slots of the hand-made log, checked by hand (see the packing test)."""
    assert _slots(start, length, 60) == expected


def test_family_on_hand_log() -> None:
    """The ``swf`` family gives the hand-checked slots and draws nodes by seed."""
    inst = generate("swf", 1, trace=str(HAND), start=0, length=1200)
    assert inst.horizon == (0, 20)
    assert sorted((s.node, s.start, s.end) for s in inst.slots) == _slots(0, 1200, 60)
    assert all(2 <= n.performance <= 10 for n in inst.nodes)
    assert generate("swf", 2, trace=str(HAND), start=0, length=1200).slots == inst.slots


def test_gzip_equals_plain(tmp_path: Path) -> None:
    """A gzipped copy parses to the same records (detected by content, not name)."""
    gz = tmp_path / "hand.log"
    with open(HAND, "rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert read_swf(gz).records == read_swf(HAND).records


@pytest.mark.parametrize("kept", [2**25, 100])  # one pass; the text past 100 bytes: read again
def test_gzip_text_read_once_or_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      kept: int) -> None:  # fmt: skip
    """guards.read_bytes gives the same text whether the size-counting pass keeps it or not."""
    from instances.traces import guards

    monkeypatch.setattr(guards, "_KEPT", kept)
    gz = tmp_path / "hand.swf.gz"
    gz.write_bytes(gzip.compress(HAND.read_bytes()))
    assert guards.read_bytes(str(gz)) == HAND.read_bytes() == guards.read_bytes(str(HAND))


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("9 900 0 100 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1", "expected 18 fields, found 17"),  # short
        ("9 900 0 1x0 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 4 is not a number"),  # typo
        ("9.5 900 0 100 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "job number"),  # fractional id
        ("9 -5 0 100 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "submit time"),  # negative submit
        (
            "9 900 0 100 1.5 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1",
            "allocated processors",
        ),  # 1.5 procs
        # float() accepts these words, SWF does not: no NaN run time, no infinite job number
        ("9 900 0 nan 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 4 is not a finite"),
        ("inf 900 0 100 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 1 is not a finite"),
        ("9 900 0 100 NaN -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 5 is not a finite"),
        # SWF fields are ASCII decimal: Python's float() reads these, no SWF tool does
        ("9 1_000 0 100 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 2 is not a number"),
        (
            "9 \uff19\uff10\uff10 0 100 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1",
            "field 2 is not a number",
        ),  # full-width digits
        ("9 900 0 1e2 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 4 is not a"),  # exponent
        ("9 900 0 0x64 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 4 is not a"),  # hex
        ("9 900 0 1-2 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1", "field 4 is not a"),  # sign inside
        (
            "9 900 0 100\u00a01 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1",
            "expected 18 fields, found 17",
        ),  # a no-break space separates nothing
        (
            "9 900 0 " + "9" * 400 + " 1 -1 -1 1 100 -1 1 3 3 -1 -1 -1 -1 -1",
            "field 4 is not a finite",
        ),  # 400 digits overflow a double
    ],
)
def test_malformed_line_names_file_and_line(tmp_path: Path, line: str, needle: str) -> None:
    """A malformed record raises SwfError ``FILE:LINE: rule`` (the line after the hand file's)."""
    bad = tmp_path / "bad.swf"
    bad.write_text(HAND.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")
    with pytest.raises(SwfError, match=needle) as err:
        read_swf(bad)
    assert str(err.value).startswith(f"{bad}:{len(HAND.read_text().splitlines()) + 1}: ")


def test_corrupt_gzip(tmp_path: Path) -> None:
    """A gzip stream with damaged data (a zlib error) is a one-line SwfError naming the file."""
    data = bytearray(gzip.compress(HAND.read_bytes() * 20))
    for i in range(20, 60):
        data[i] ^= 0xFF
    bad = tmp_path / "bad.swf.gz"
    bad.write_bytes(bytes(data))
    with pytest.raises(SwfError, match="cannot read file") as err:
        read_swf(bad)
    assert str(err.value).startswith(f"{bad}: ") and "\n" not in str(err.value)


def test_missing_file() -> None:
    """A missing log is a one-line SwfError naming it."""
    with pytest.raises(SwfError, match=r"nope\.swf: cannot read file"):
        read_swf("nope.swf")


def test_kth_log() -> None:
    """The bundled KTH log keeps its header and parses completely."""
    log = read_swf(KTH)
    assert log.header["Acknowledge"] == "Lars Malinowsky"
    assert log.max_procs == 100
    assert len(log.records) + sum(log.skipped.values()) == 28476


def test_kth_family_real_fragmentation() -> None:
    """A KTH window is valid, deterministic and fragmented: busy share and slots per node vary."""
    inst = generate("swf", 1, start=3_000_000)
    text = dumps_instance(inst)
    assert text == dumps_instance(generate("swf", 1, start=3_000_000))
    assert dumps_instance(loads_instance(text)) == text
    horizon = inst.horizon[1]
    assert horizon == 1440 and len(inst.nodes) == 100
    free = sum(s.length for s in inst.slots)
    assert 0.2 < 1 - free / (100 * horizon) < 0.98
    per_node = Counter(s.node for s in inst.slots)
    assert len(inst.slots) > 200 and max(per_node.values()) >= 3
    assert len({s.length for s in inst.slots}) > 20


def test_cli_swf(tmp_path: Path, capsys) -> None:
    """``planner generate swf --trace FILE`` writes a valid file and notes what was skipped."""
    out = tmp_path / "w.json"
    argv = ["generate", "swf", "--trace", str(HAND), "--start", "0", "--length", "1200"]
    assert main([*argv, "--seed", "1", "-o", str(out)]) == 0
    assert "run_time_unknown 1" in capsys.readouterr().err
    assert main(["validate", str(out)]) == 0


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("1 2 3\n", ":1: expected 18 fields"),  # malformed first line
        ("; Computer: no MaxProcs here\n", "no MaxProcs header"),  # header lacks MaxProcs
    ],
)
def test_cli_swf_bad_log_exits_2(tmp_path: Path, capsys, text: str, needle: str) -> None:
    """A malformed or incomplete log is one line on stderr and exit 2."""
    log = tmp_path / "bad.swf"
    log.write_text(text, encoding="utf-8")
    assert main(["generate", "swf", "--seed", "1", "--trace", str(log)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
