"""The error of an SWF log that cannot be read (raised by the parser and its guards).

:mod:`instances.traces.swf` parses the records, :mod:`instances.traces.guards` checks
the file first; both raise :class:`SwfError` without importing each other.
"""

from __future__ import annotations


class SwfError(ValueError):
    """A log that cannot be read: the one-line message names the file and line.

    ``file``, ``line`` (None for the whole file) and ``rule`` hold the parts.
    """

    def __init__(self, file: str, rule: str, line: int | None = None) -> None:
        self.file = file
        self.rule = rule
        self.line = line
        super().__init__(f"{file}:{line}: {rule}" if line is not None else f"{file}: {rule}")
