"""The optional C speedups write the same bytes as the Python code they stand in for."""

from __future__ import annotations

import math
import random
import struct
import subprocess
import sys
from itertools import repeat
from operator import mod
from pathlib import Path

import pytest

from instances import read_workload
from instances.traces import swf_plain
from planner.cluster import output, simulate
from planner.cluster.output import write_jobs_csv
from tests.planner.cluster.test_invariants import random_workload

speedups = pytest.importorskip("planner.cluster._speedups")
swf_speedups = pytest.importorskip("instances.traces._swf_speedups")

KTH = Path(__file__).parents[3] / "instances" / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"


def _python_rows(fmt: str, columns: list[list[object]]) -> bytes:
    """Return the rows as the Python writer builds them, in UTF-8."""
    return "".join(map(mod, repeat(fmt), zip(*columns, strict=True))).encode()


def _value(rng: random.Random, kind: str) -> object:
    """Return a random value for a ``%s``, ``%d`` or ``%.6f`` conversion, edge cases included."""
    if kind == "d":
        return rng.choice((rng.randint(-(10**6), 10**6), rng.randint(-(2**70), 2**70),
                           2**63 - 1, -(2**63), 2**63, True, False, 0, 7.9))  # fmt: skip
    if kind == "f":
        return rng.choice((rng.uniform(-1e6, 1e6), rng.random() * 10 ** rng.randint(-12, 300),
                           -0.0, math.inf, -math.inf, math.nan, 5e-7, 2.5e-7, 3, True))  # fmt: skip
    return rng.choice(("", "a", "é,x", "100%", "0-3 8", "ü" * 3, 42, None))


def test_format_rows_random_columns() -> None:
    """300 random formats and columns: C rows are the bytes of Python's ``fmt % row``."""
    rng = random.Random(3)
    for _ in range(300):
        kinds = [rng.choice("sdf") for _ in range(rng.randint(0, 8))]
        pieces = [rng.choice(("", ",", "%%", "é", "lit,")) for _ in range(len(kinds) + 1)]
        fmt = pieces[0] + "".join(f"%{'.6f' if k == 'f' else k}{p}"
                                  for k, p in zip(kinds, pieces[1:], strict=True))  # fmt: skip
        n = rng.randint(0, 20) if kinds else 0
        columns = [[_value(rng, k) for _ in range(n)] for k in kinds]
        assert speedups.format_rows(fmt, columns) == _python_rows(fmt, columns)


def test_format_rows_floats_near_ties() -> None:
    """30,000 doubles (uniform, halves and near-halves at the 7th decimal, random bit
    patterns, tiny and huge, signed zeros, inf, nan): C ``%.6f`` is Python's, byte for byte."""
    rng = random.Random(1)
    values = [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-7, 2.5e-7, 1.5e-6, -1e-9,
              2**50 / 1e6, 2**50 / 1e6 - 1e-6, 1e-300, -1e-300]  # fmt: skip
    for _ in range(30000):
        kind = rng.randrange(5)
        if kind == 0:
            v = rng.uniform(-1e6, 1e6)
        elif kind == 1:
            v = rng.randint(-(10**9), 10**9) / 2 / 10**6  # a tie in binary or close to one
        elif kind == 2:
            v = (rng.randint(0, 10**7) + 0.5) / 1e6
        elif kind == 3:
            v = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        else:
            v = rng.random() * 10 ** rng.randint(-12, 20) * rng.choice((1, -1))
        values.append(v)
    assert speedups.format_rows("%.6f\n", [values]) == _python_rows("%.6f\n", [values])


@pytest.mark.parametrize(
    ("fmt", "columns", "error"),
    [
        ("%d,%d", [[1], [1, 2]], ValueError),  # columns of different lengths (zip strict)
        ("%d", [[1], [2]], TypeError),  # more columns than conversions
        ("%x", [[1]], ValueError),  # a conversion the writer never uses
    ],
)
def test_format_rows_refuses(fmt: str, columns: list[list[int]], error: type) -> None:
    """Shapes the Python writer would reject are rejected, never formatted silently."""
    with pytest.raises(error):
        speedups.format_rows(fmt, columns)


def test_spans_texts_random() -> None:
    """Random allocations (shared and repeated tuples too): C texts equal Python's."""
    rng = random.Random(5)
    for _ in range(200):
        alloc = []
        for _ in range(rng.randint(0, 30)):
            lo, spans = rng.randint(0, 10), []
            for _ in range(rng.randint(0, 4)):
                hi = lo + rng.choice((0, 0, rng.randint(1, 9)))
                spans.append((lo, hi))
                lo = hi + rng.randint(2, 2**40)
            alloc.append(tuple(spans))
            if alloc and rng.random() < 0.3:
                alloc.append(alloc[-1])
        expected = [output.span_text(s) for s in alloc]
        assert speedups.spans_texts(alloc) == expected
        assert speedups.spans_texts(alloc) == expected  # no state kept between calls


@pytest.mark.parametrize(
    "alloc",
    [
        [((0, 3),), ((1, 2.0),)],  # a float end (Python writes "1-2.0")
        [((0, 2**70),)],  # an end beyond 64 bits
        [((0, True),)],  # a bool, not an exact int
    ],
)
def test_spans_texts_leaves_the_rest_to_python(alloc: list) -> None:
    """Items C does not handle give None, and the writer's texts come from Python."""
    assert speedups.spans_texts(alloc) is None
    assert output._spans_texts(alloc) == [output.span_text(s) for s in alloc]


def _random_body(rng: random.Random) -> bytes:
    """Return an SWF body of plain numbers, sometimes off the plain shape."""
    lines = []
    for _ in range(rng.randint(0, 12)):
        if rng.random() < 0.1:
            lines.append(rng.choice(("", "  ", "\t\r")))  # a blank line
            continue
        words = [rng.choice((str(rng.randint(-5, 10**6)), "-1", "+7", "007", "0",
                             str(rng.randint(0, 9)) * rng.randint(19, 40),
                             "1.5" if rng.random() < 0.05 else "3"))
                 for _ in range(18 + (rng.random() < 0.05) * rng.choice((-1, 1)))]  # fmt: skip
        lines.append(rng.choice((" ", "  ", "\t")).join(words) + rng.choice(("", " ", "\r")))
    body = "\n".join(lines) + rng.choice(("", "\n", "\n\n  "))
    return body.encode()


def test_swf_columns_random_bodies(monkeypatch) -> None:
    """500 random bodies (blank lines, signs, zeros, long and fractional words, short lines):
    the C columns equal the Python reader's, None included."""
    rng = random.Random(11)
    seen_none = 0
    for _ in range(500):
        body = _random_body(rng)
        with_c = swf_plain._columns(body)
        monkeypatch.setattr(swf_plain, "_swf_speedups", None)
        with_python = swf_plain._columns(body)
        monkeypatch.undo()
        assert with_c == with_python
        seen_none += with_c is None
    assert 0 < seen_none < 500  # both outcomes were exercised


LINE = "1 0 -1 10 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 {}\n"
"""A plain record whose last (unused) word is filled in."""


def _both(body: bytes, monkeypatch) -> tuple[object, object]:
    """Return ``_columns(body)`` with the C speedup and with Python only."""
    with_c = swf_plain._columns(body)
    monkeypatch.setattr(swf_plain, "_swf_speedups", None)
    with_python = swf_plain._columns(body)
    monkeypatch.undo()
    return with_c, with_python


@pytest.mark.parametrize(
    ("word", "plain"),
    [
        ("-1", True),  # a sign
        ("+3.5", True),  # a sign and a point
        ("1.", True),  # a point after a digit
        ("-.5", True),  # a point before a digit
        ("9" * 299, True),  # the longest number
        ("9" * 300, False),  # one digit too long
        ("-", False),  # a sign alone
        ("1-2", False),  # a sign inside a number
        ("--1", False),  # two signs
        ("1.2.3", False),  # two points in one number
        (".", False),  # a point alone
        ("-.", False),  # a point after a sign, no digit
        ("1e5", False),  # a letter
        ("1\v2", False),  # a vertical tab is not a blank here
        ("1\f2", False),  # nor a form feed
        ("é", False),  # a byte beyond ASCII
    ],
)
def test_swf_columns_numbers_rows(word: str, plain: bool, monkeypatch) -> None:
    """Hand rows: the one C pass refuses exactly the words the Python check refuses."""
    with_c, with_python = _both(LINE.format(word).encode(), monkeypatch)
    assert with_c == with_python
    assert (with_c is not None) is plain


def test_swf_columns_random_words(monkeypatch) -> None:
    """2,000 records with a random word of number bytes, signs, points and a few others
    in an unused field: the C columns equal the Python reader's, both outcomes seen."""
    rng = random.Random(5)
    alphabet = "0123456789" * 3 + "..+-" + "x\v\f;é"
    seen = set()
    for _ in range(2000):
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))
        if rng.random() < 0.05:
            word += "7" * rng.randint(295, 301)
        with_c, with_python = _both(LINE.format(word).encode(), monkeypatch)
        assert with_c == with_python, word
        seen.add(with_c is None)
    assert seen == {True, False}


def test_int_texts() -> None:
    """Ints of every size (64-bit edges, beyond them), bools and other objects: the C
    texts are ``list(map(str, values))``."""
    rng = random.Random(2)
    values = [0, -1, 7, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 10**30, True, False, 1.5,
              "7", *(rng.randint(-(10**12), 10**12) for _ in range(2000))]  # fmt: skip
    assert swf_speedups.int_texts(values) == list(map(str, values))
    assert swf_speedups.int_texts(()) == []


@pytest.mark.slow
def test_kth_sp2_same_bytes(tmp_path: Path, monkeypatch) -> None:
    """KTH-SP2 under FCFS, EASY and conservative backfilling: the workload read and
    jobs.csv written with and without the C speedups agree, byte for byte."""
    from planner.cluster import cluster, records

    swf_plain._cached.cache_clear()
    fast = read_workload(KTH)
    for policy in ("fcfs", "easy", "conservative"):
        write_jobs_csv(simulate(fast, policy), tmp_path / f"c-{policy}.csv")
    for module, name in ((swf_plain, "_swf_speedups"), (output, "_speedups"),
                         (cluster, "_speedups"), (records, "_speedups")):  # fmt: skip
        monkeypatch.setattr(module, name, None)
    swf_plain._cached.cache_clear()
    slow = read_workload(KTH)
    swf_plain._cached.cache_clear()
    assert slow.columns == fast.columns
    for policy in ("fcfs", "easy", "conservative"):
        write_jobs_csv(simulate(slow, policy), tmp_path / f"py-{policy}.csv")
        assert (tmp_path / f"c-{policy}.csv").read_bytes() == (
            tmp_path / f"py-{policy}.csv").read_bytes()  # fmt: skip


FALLBACK = """
import sys
sys.modules["planner.cluster._speedups"] = None  # as if never built
sys.modules["instances.traces._swf_speedups"] = None
from instances.traces import swf_plain
from planner.cluster import cluster, output, records, simulate
from tests.planner.cluster.test_invariants import random_workload
assert output._speedups is cluster._speedups is records._speedups is None
assert swf_plain._swf_speedups is None
for seed in range(20):
    output.write_jobs_csv(simulate(random_workload(seed), "easy"), f"{sys.argv[1]}/{seed}.csv")
"""


def test_fallback_without_the_module(tmp_path: Path) -> None:
    """Without the compiled modules the package imports, uses Python, and writes the same bytes."""
    (tmp_path / "py").mkdir()
    subprocess.run([sys.executable, "-c", FALLBACK, str(tmp_path / "py")], check=True,
                   cwd=Path(__file__).parents[3])  # fmt: skip
    for seed in range(20):
        write_jobs_csv(simulate(random_workload(seed), "easy"), tmp_path / f"{seed}.csv")
        assert (tmp_path / f"{seed}.csv").read_bytes() == (tmp_path / "py" / f"{seed}.csv"
                                                           ).read_bytes()  # fmt: skip


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_allocate_random_workloads(policy: str, monkeypatch) -> None:
    """300 random workloads of 1-3 machines: the C allocation equals Python's, range by range."""
    from planner.cluster import cluster

    multi = 0
    for seed in range(300):
        workload = random_workload(seed)
        replay = simulate(workload, policy)
        with_c = cluster.allocate(workload, replay.machine, replay.events)
        monkeypatch.setattr(cluster, "_speedups", None)
        with_python = cluster.allocate(workload, replay.machine, replay.events)
        monkeypatch.undo()
        assert with_c == with_python
        multi += any(len(s) > 1 for s in with_c)
    assert multi > 0  # jobs split over several free ranges were exercised


@pytest.mark.parametrize(
    ("bounds", "cpus", "machine", "events"),
    [
        ([(0, 3)], [5], [0], [0]),  # more CPUs than the machine has: Python raises
        ([(0, 3)], [1], [0], [~0]),  # an end of a job that never started
        ([(0, 3)], [1], [1], [0]),  # a machine that does not exist
        ([(0, 3)], (1,), [0], [0]),  # a tuple where the lists are expected
    ],
)
def test_allocate_leaves_odd_input_to_python(bounds, cpus, machine, events) -> None:
    """Input the C code would not replay exactly as Python gives None (Python then runs)."""
    assert speedups.allocate(bounds, cpus, machine, events) is None


@pytest.mark.parametrize("policy", ["fcfs", "easy", "conservative"])
def test_job_columns_random_workloads(policy: str, monkeypatch) -> None:
    """300 random workloads (kills, zero lengths, speeds): the C columns equal Python's,
    value for value and type for type (floats compared by their bits)."""
    from planner.cluster import records

    for seed in range(300):
        replay = simulate(random_workload(seed), policy)
        with_c = records.Columns.of(replay)
        monkeypatch.setattr(records, "_speedups", None)
        with_python = records.Columns.of(replay)
        monkeypatch.undo()
        for name in with_c.__dataclass_fields__:
            a, b = getattr(with_c, name), getattr(with_python, name)
            assert [(type(x), repr(x)) for x in a] == [(type(x), repr(x)) for x in b], name


@pytest.mark.parametrize(
    "columns",
    [
        ([0], [1], [5], [5], [2**53], [2**53 + 1]),  # a time beyond 2**53: Python computes
        ([0], [1], [5], [5], [0], [True]),  # a bool, not an exact int
        ([0], [1], [5], [5], [0], []),  # columns of different lengths
    ],
)
def test_job_columns_leaves_odd_input_to_python(columns: tuple) -> None:
    """Values the C code would not compute exactly as Python give None."""
    assert speedups.job_columns(*columns) is None
