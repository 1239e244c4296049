"""The bulk SWF reader agrees with an independent reader and with the line-by-line rule book.

``instances.traces.swf`` reads a well-formed log in bulk (numpy) and hands
anything else to its line-by-line reader, whose messages name the line. Two
checks keep the bulk path honest: on the bundled logs, every field of every
record equals what a ten-line reader written here from the format's
definition (Feitelson et al. 2014, the archive's ``swf.html``) finds, and the
job flow equals the documented mapping (``docs/workloads.md``); on generated
logs mixing good and bad lines, the bulk path either declines or returns
exactly what the line-by-line reader returns, and declines whenever that
reader refuses the file.
"""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from instances import read_workload
from instances.generators.swf import BUNDLED
from instances.traces import swf
from instances.traces.swf import SwfError, read_swf_table

TRACES = ["KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz", "hpc2n-alea.swf.gz"]
HERE = Path(__file__).parent / "data"


def independent_records(path: Path) -> list[tuple[int, list[float]]]:
    """Return (line, 18 fields) per record: lines split at newlines, ';' lines skipped."""
    data = path.read_bytes()
    text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("ascii")
    out = []
    for number, line in enumerate(text.split("\n"), start=1):
        fields = line.split()
        if fields and not fields[0].startswith(";"):
            assert len(fields) == 18, f"line {number}"
            out.append((number, [float(f) for f in fields]))
    return out


def independent_jobs(records: list[tuple[int, list[float]]], widest: int) -> list[tuple]:
    """The documented mapping: (id, submit, cpus, work, estimate) of every kept record."""
    up = lambda x: math.ceil(round(x, 9))  # noqa: E731
    jobs, seen = [], set()
    for _, f in records:
        cpus = f[4] if f[4] > 0 else f[7]
        if f[1] < 0 or f[3] < 0 or cpus <= 0 or cpus > widest or int(f[0]) in seen:
            continue
        seen.add(int(f[0]))
        work = up(f[3])
        jobs.append((str(int(f[0])), up(f[1]), int(cpus), work, up(f[8]) if f[8] > 0 else work))
    return sorted(jobs, key=lambda j: j[1])  # queue order: submit, then file order


@pytest.mark.parametrize("name", [*TRACES, "flow.swf", "hand.swf"])
def test_bulk_reader_matches_an_independent_reader(name: str) -> None:
    """Every line number and field of every record equals the independent reader's."""
    path = BUNDLED / name if name in TRACES else HERE / name
    table = read_swf_table(path)
    expected = independent_records(path)
    assert table.lines.tolist() == [n for n, _ in expected]
    assert table.values.tolist() == [f for _, f in expected]


@pytest.mark.parametrize("name", TRACES)
def test_bundled_logs_take_the_bulk_path_and_map_as_documented(name: str) -> None:
    """The bundled logs are read in bulk, and their jobs are the documented mapping's."""
    path = BUNDLED / name
    data = swf._read_bytes(str(path))
    assert swf._fast_table(str(path), data) is not None
    workload = read_workload(path)
    jobs = [(j.id, j.submit, j.cpus, j.work, j.requested) for j in workload.jobs]
    assert jobs == independent_jobs(independent_records(path), workload.machines[0].cpus)


TOKENS = st.one_of(
    st.integers(-3, 10**7).map(str),
    st.sampled_from(["1.5", ".5", "5.", "+3", "-0", "-1", "0.000000001", "9" * 400]),
    # refused by the rule book: not ASCII decimal, or malformed
    st.sampled_from(["1-2", "1.2.3", "-", ".", "1e3", "1_0", "nan", "inf", "\uff11", "0x1", "2.5"]),
)
LINES = st.one_of(
    st.lists(TOKENS, min_size=18, max_size=18).map(" ".join),
    st.lists(st.integers(0, 99).map(str), min_size=18, max_size=18).map("\t ".join),
    st.lists(TOKENS, max_size=19).map(" ".join),
    st.sampled_from(["; MaxProcs: 8", "  ;Note: a; b", "", "   ", "\u00a0", "1 2 ; x", ";;"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=6), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_bulk_path_declines_or_agrees(lines: list[str], newline: str, last: bool) -> None:
    """The bulk path returns the line-by-line reader's table or None; None when it refuses."""
    data = (newline.join(lines) + (newline if last else "")).encode("utf-8")
    fast = swf._fast_table("gen.swf", data)
    try:
        slow = swf._checked_table("gen.swf", data)
    except SwfError:
        assert fast is None
        return
    if fast is not None:
        assert fast.header == slow.header
        assert fast.lines.tolist() == slow.lines.tolist()
        assert fast.values.tolist() == slow.values.tolist()


@pytest.mark.parametrize("name", [*TRACES, "flow.swf"])
@pytest.mark.parametrize("limit", [0, 1, 3, 2000])
def test_bulk_mapping_equals_the_record_by_record_mapping(name: str, limit: int) -> None:
    """workload_from_swf (bulk) builds the same workload as the record-by-record loop."""
    from instances.traces.swf_workload import _by_rows, swf_machines, workload_from_swf

    table = read_swf_table(BUNDLED / name if name in TRACES else HERE / name)
    machines = swf_machines(table)
    slow = _by_rows(table, machines, machines[0].cpus, limit)
    assert workload_from_swf(table, limit=limit) == slow
