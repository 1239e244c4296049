"""What an SWF log file may be before a byte of it is parsed: type, size and header counts.

The parsing of the records is :mod:`instances.traces.swf`; this module owns the
guards around it, each failing with one :class:`~instances.traces.errors.SwfError`
line naming the file (and the line for a header field):

- only regular files are read: a FIFO or a device (``/dev/zero`` behind a
  ``.swf`` name) is refused before any read;
- at most :data:`SWF_TEXT_MAX` bytes of log text (128 MiB), counted after gzip
  decompression: a plain file by its size, a gzip file by a streaming
  pre-pass that stops at the bound (a gzip bomb is refused in about a second,
  holding at most 32 MiB of it) before any record is parsed; the pre-pass
  keeps the text of a log of up to 32 MiB, which is then not decompressed
  again. CEA-Curie (295,000 jobs) is about a quarter of the bound;
- the header's ``MaxProcs`` and ``MaxNodes``, when they hold a number, are
  ASCII integers; a positive one is at most :data:`instances.limits.CPUS_MAX`.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import stat
import zlib

from instances.limits import CPUS_MAX
from instances.traces.errors import SwfError

SWF_TEXT_MAX = 2**27
"""Largest SWF log text read, in bytes after decompression (128 MiB, ~1.3 million records)."""

_CHUNK = 2**20
_KEPT = 2**25
"""Bytes of gzip-decompressed text kept from the size-counting pass (32 MiB)."""
_INTEGER = re.compile(r"[+-]?[0-9]+")


def _nonblocking(path: str, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


class _Bounded(io.RawIOBase):
    """A binary stream that raises :class:`SwfError` once more than ``limit`` bytes are read."""

    def __init__(self, name: str, source: io.IOBase, raw: io.IOBase, limit: int) -> None:
        self.name_, self.source, self.raw, self.left = name, source, raw, limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.source.read(min(len(buffer), _CHUNK))
        self.left -= len(data)
        if self.left < 0:
            raise SwfError(self.name_, _too_large())
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.source.close()
        self.raw.close()
        super().close()


def _too_large() -> str:
    size = f"{SWF_TEXT_MAX // 2**20} MiB" if SWF_TEXT_MAX % 2**20 == 0 else f"{SWF_TEXT_MAX} bytes"
    return f"holds more than {size} of log text (after decompression)"


def _unzipped(name: str, raw: io.BufferedReader, keep: bool) -> tuple[int, bytes | None]:
    """Decompress, no further than SWF_TEXT_MAX + 1 bytes: (the size, the text or None).

    With ``keep`` the text is kept up to :data:`_KEPT` bytes (None beyond: the
    caller reads the file again), so memory stays bounded for any input.
    """
    size, chunks = 0, []
    try:
        with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
            while size <= SWF_TEXT_MAX:
                chunk = unzipped.read(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if keep and size <= _KEPT:
                    chunks.append(chunk)
    except (OSError, EOFError, zlib.error) as err:
        raw.close()
        raise SwfError(name, f"cannot read file ({err})") from None
    return size, b"".join(chunks) if size <= _KEPT else None


def _open_regular(name: str) -> tuple[io.BufferedReader, bool]:
    """Open a regular file (a FIFO or a device is refused unread); (file, gzip magic?)."""
    try:
        raw = open(name, "rb", opener=_nonblocking)  # noqa: SIM115 (closed by the callers)
    except OSError as err:
        raise SwfError(name, f"cannot read file ({err.strerror or err})") from None
    if not stat.S_ISREG(os.fstat(raw.fileno()).st_mode):
        raw.close()
        raise SwfError(name, "is not a regular file")
    zipped = raw.read(2) == b"\x1f\x8b"
    raw.seek(0)
    return raw, zipped


def open_binary(name: str) -> io.BufferedReader:
    """Open a regular file, gunzipped when it starts with the gzip magic, bounded in size."""
    raw, zipped = _open_regular(name)
    if zipped:
        size = _unzipped(name, raw, keep=False)[0]
        raw.seek(0)
    else:
        size = os.fstat(raw.fileno()).st_size
    if size > SWF_TEXT_MAX:
        raw.close()
        raise SwfError(name, _too_large())
    source: io.IOBase = gzip.GzipFile(fileobj=raw, mode="rb") if zipped else raw
    return io.BufferedReader(_Bounded(name, source, raw, SWF_TEXT_MAX), buffer_size=_CHUNK)


def open_text(name: str) -> io.TextIOWrapper:
    """Return the log's text stream (UTF-8, undecodable bytes replaced), guarded as above."""
    return io.TextIOWrapper(open_binary(name), encoding="utf-8", errors="replace")


def read_bytes(name: str) -> bytes:
    """Return the whole log text as bytes (decompressed), guarded as above; a gzip log of
    at most :data:`_KEPT` bytes of text is decompressed once."""
    raw, zipped = _open_regular(name)
    with raw:
        if zipped:
            size, data = _unzipped(name, raw, keep=True)
        else:
            data = raw.read(SWF_TEXT_MAX + 1)
            size = len(data)
    if size > SWF_TEXT_MAX:
        raise SwfError(name, _too_large())
    if data is None:
        with open_binary(name) as fh:
            return fh.read()
    return data


def header_count(name: str, header: dict[str, str], key: str) -> int | None:
    """Return the header's positive ``key`` (``MaxProcs``, ``MaxNodes``) or None when absent
    or not positive (``-1``: unknown).

    Raises
    ------
    SwfError
        Naming the file and the header line: the value is not an ASCII integer,
        or it exceeds ``CPUS_MAX``.
    """
    text = header.get(key, "").split()
    if not text:
        return None
    if _INTEGER.fullmatch(text[0]) is None:
        rule = f"header {key} must be an integer (ASCII digits), got '{text[0][:20]}'"
        raise SwfError(name, rule, header_line(name, key))
    value = int(text[0])
    if value > CPUS_MAX:
        rule = f"header {key} must be <= {CPUS_MAX}, got {text[0][:30]}"
        raise SwfError(name, rule, header_line(name, key))
    return value if value > 0 else None


def header_line(name: str, key: str) -> int | None:
    """Return the number of the first ``; key:`` header line of the log (None if not found)."""
    with open_text(name) as fh:
        for lineno, raw in enumerate(fh, start=1):
            text = raw.strip()
            if text.startswith(";") and text[1:].partition(":")[0].strip() == key:
                return lineno
    return None
