"""Errors raised by problem data and instance files."""

from __future__ import annotations

from collections.abc import Iterable


def did_you_mean(name: object, options: Iterable[object]) -> str:
    """Return `` (did you mean 'x'?)`` for the option closest to ``name`` (difflib), else ""."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(o) for o in options], n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


class DataError(ValueError):
    """A violated data rule, with the JSON-style path of the offending value.

    ``str(err)`` is one line: ``"jobs[3].nodes: must be an integer >= 1"``.
    """

    def __init__(self, path: str, rule: str) -> None:
        self.path = path
        self.rule = rule
        super().__init__(f"{path}: {rule}" if path else rule)

    def within(self, prefix: str) -> DataError:
        """Return the same error with ``prefix`` prepended to its path."""
        if not self.path:
            return DataError(prefix, self.rule)
        joiner = "" if self.path.startswith("[") else "."
        return DataError(f"{prefix}{joiner}{self.path}", self.rule)


class LimitError(DataError):
    """Valid data beyond what the chosen solver can handle (memory, integer range).

    The command line reports it like bad input: one line, exit code 2; the rule
    names the limit and what to do instead.
    """

    def __init__(self, rule: str) -> None:
        super().__init__("", rule)


class InstanceFileError(ValueError):
    """An instance file that cannot be read: names the file, the JSON path and the rule."""

    def __init__(self, file: str, path: str, rule: str) -> None:
        self.file = file
        self.path = path
        self.rule = rule
        where = f"{file}: {path}" if path else file
        super().__init__(f"{where}: {rule}")
