"""The numpy-free job-flow reader agrees with the general reader, or declines.

``instances.traces.swf_plain`` reads a plain log into a workload; anything
else it leaves (returns None) to ``workload_from_swf`` over the table of
``instances.traces.swf``. On generated logs mixing good and bad lines, header
counts, blank lines, duplicates, drops and out-of-range values, it either
declines or returns exactly the general reader's workload (or raises its
error), and it never accepts a file the general reader refuses.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from instances import read_workload
from instances.errors import InstanceFileError
from instances.generators.swf import BUNDLED
from instances.traces import swf
from instances.traces.swf_plain import plain_workload
from instances.traces.swf_workload import workload_from_swf

TRACES = ["KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz", "hpc2n-alea.swf.gz"]


def general(path: str, data: bytes) -> object:
    """The general reader's outcome: the workload, or ("error", message)."""
    try:
        return workload_from_swf(swf._checked_table(path, data))
    except swf.SwfError as err:
        return ("error", str(err))
    except InstanceFileError as err:
        return ("error", str(err))


def plain(path: str, data: bytes) -> object:
    """The plain reader's outcome: a workload, None (declined), or ("error", message)."""
    try:
        return plain_workload(path, data, None)
    except InstanceFileError as err:
        return ("error", str(err))


@pytest.mark.parametrize("name", TRACES)
def test_bundled_logs_are_plain_and_read_alike(name: str) -> None:
    """The bundled logs take the plain path and give the general reader's workload."""
    path = str(BUNDLED / name)
    data = swf._read_bytes(path)
    got = plain(path, data)
    assert got is not None and got == general(path, data)
    assert got.columns == read_workload(path).columns  # type: ignore[union-attr]


INTS = st.one_of(st.integers(-2, 12), st.integers(0, 10**6)).map(str)
NUMBERS = st.one_of(
    INTS,
    st.sampled_from(["-1", "0", "+3", "007", "-0", "1.5", ".5", "5.", "2.0", "1" * 320,
                     str(10**12 + 1), str(2**31), str(2**53), "0.000000001"]),
)
BAD = st.sampled_from(["1-2", "1.2.3", "-", ".", "+.", "1e3", "1_0", "nan", "\uff11", "x", "--1"])
GOOD = st.lists(INTS, min_size=18, max_size=18).map(" ".join)
LINES = st.one_of(
    GOOD, GOOD, GOOD,  # mostly plain records (with drops and duplicates: small numbers)
    st.lists(NUMBERS, min_size=18, max_size=18).map(" ".join),
    st.lists(st.one_of(INTS, BAD), min_size=18, max_size=18).map("\t ".join),
    st.lists(INTS, min_size=17, max_size=19).map(" ".join),
    st.sampled_from(["", "   ", "; Note: a; b", "  ;x", "1 2 ; x", "\u00a0", "\x0b"]),
)
HEADERS = st.sampled_from(["; MaxProcs: 8", "; MaxNodes: 30", "; MaxProcs: -1\n; MaxNodes: 4",
                           "; MaxProcs: x", "; MaxProcs: 99999999999", ""])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HEADERS, st.lists(LINES, max_size=8), st.sampled_from(["\n", "\r\n", "\r"]),
       st.booleans())  # fmt: skip
def test_plain_reader_declines_or_agrees(header: str, lines: list[str], newline: str,
                                         last: bool) -> None:  # fmt: skip
    """plain_workload returns the general reader's workload or error, or None; never a
    workload where the general reader refuses the file."""
    text = newline.join([*header.split("\n"), *lines]) + (newline if last else "")
    data = text.encode("utf-8")
    fd, path = tempfile.mkstemp(suffix=".swf")  # header errors re-read the file for the line
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        got, ref = plain(path, data), general(path, data)
    finally:
        Path(path).unlink()
    if got is None:
        return
    assert got == ref
    if not isinstance(got, tuple):
        assert got.columns == got.__class__(got.machines, got.jobs, got.name, got.dropped).columns


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["; MaxProcs: 8", "; MaxNodes: 30\n;", "; MaxProcs: 12"]),
       st.lists(st.one_of(GOOD, GOOD, GOOD, st.sampled_from(["", " \t"])), max_size=30),
       st.sampled_from(["\n", "\r\n"]))  # fmt: skip
def test_plain_logs_take_the_plain_path(header: str, lines: list[str], newline: str) -> None:
    """A log of integer records (drops, duplicates and blank lines included) is read without
    declining, into the general reader's workload."""
    data = (newline.join([*header.split("\n"), *lines]) + newline).encode()
    got = plain("gen.swf", data)
    assert got is not None and got == general("gen.swf", data)
