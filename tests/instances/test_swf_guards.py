"""The guards in front of the SWF parser: file type, decompressed size and header counts."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from instances import read_workload
from instances.errors import InstanceFileError
from instances.traces import guards

RECORD = "1 0 0 10 1 -1 -1 1 10 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"


def _log(path: Path, header: str, records: int = 1) -> Path:
    path.write_text(header + RECORD * records, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("header", "rule"),
    [
        ("; MaxProcs: \u00b2\n", "line 1: header MaxProcs must be an integer"),  # superscript
        ("; MaxProcs: \uff14\n", "line 1: header MaxProcs must be an integer"),  # full-width 4
        ("; MaxProcs: 1_000\n", "line 1: header MaxProcs must be an integer"),  # grouping
        ("; MaxProcs: 2147483648\n", "line 1: header MaxProcs must be <= 2147483647"),  # 2^31
        ("; Note: x\n; MaxNodes: 10" + "0" * 40 + "\n", "line 2: header MaxNodes must be <="),
    ],
)
def test_bad_header_counts_name_file_and_line(header: str, rule: str, tmp_path: Path) -> None:
    """A MaxProcs/MaxNodes that is not an ASCII integer in range names the file and line."""
    path = _log(tmp_path / "log.swf", header)
    with pytest.raises(InstanceFileError) as err:
        read_workload(path)
    assert str(err.value).startswith(str(path)) and rule in str(err.value)


def test_largest_header_count_is_one_machine(tmp_path: Path) -> None:
    """MaxProcs = 2^31 - 1 (the limit) is a machine of that many CPUs; -1 means unknown."""
    w = read_workload(_log(tmp_path / "log.swf", "; MaxProcs: 2147483647\n; MaxNodes: -1\n"))
    assert w.total_cpus == 2**31 - 1 and len(w.jobs) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_and_device_are_refused_before_reading(tmp_path: Path) -> None:
    """A FIFO with no writer and /dev/zero behind a .swf name are refused at once."""
    fifo = tmp_path / "log.swf"
    os.mkfifo(fifo)
    link = tmp_path / "zero.swf"
    link.symlink_to("/dev/zero")
    for path in (fifo, link):
        with pytest.raises(InstanceFileError, match="is not a regular file"):
            read_workload(path)


def test_size_bound_counts_decompressed_text(tmp_path: Path, monkeypatch) -> None:
    """Past SWF_TEXT_MAX bytes of text (here lowered to 4 KiB) a plain or gzipped log is
    refused with one line; a log within the bound reads."""
    monkeypatch.setattr(guards, "SWF_TEXT_MAX", 4096)
    header = "; MaxProcs: 4\n"
    small = _log(tmp_path / "small.swf", header, 10)
    assert len(read_workload(small).jobs) == 1  # ten records of job number 1: duplicates
    big = _log(tmp_path / "big.swf", header, 200)
    bomb = tmp_path / "bomb.swf.gz"
    bomb.write_bytes(gzip.compress((header + RECORD * 200).encode()))
    for path in (big, bomb):
        with pytest.raises(InstanceFileError, match=r"more than 4096 bytes of log text"):
            read_workload(path)
