"""Run the CLI in-process and check the contract: exit 0, or exit 2 with one stderr line.

Hypothesis profiles of the fuzz suite, applied to its tests only (``@FUZZ``):
``ci`` (the default) is small and derandomized, a few seconds per test, so the
suite stays fast and reproducible; ``long`` explores with 2,000 fresh random
examples per test::

    HYPOTHESIS_PROFILE=long python -m pytest tests/fuzz

Neither profile has a per-example deadline: no test races the wall clock.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, settings

from planner.cli import main

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
settings.register_profile("fuzz-ci", max_examples=25, derandomize=True, **_COMMON)
settings.register_profile("fuzz-long", max_examples=2000, derandomize=False, **_COMMON)
FUZZ = settings.get_profile("fuzz-" + os.environ.get("HYPOTHESIS_PROFILE", "ci"))
"""The settings of every fuzz test (decorator): the profile named by HYPOTHESIS_PROFILE."""


def cli(argv: list[str]) -> tuple[int, str, str]:
    """Return (exit code, stdout, stderr) of ``planner ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def clean(code: int, err: str, argv: list[str]) -> None:
    """Assert the contract: 0 or 2 (never 1), no traceback, exactly one stderr line on 2."""
    assert code in (0, 2), (argv, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        assert err.count("\n") == 1 and err.endswith("\n"), (argv, err)


def run(argv: list[str]) -> tuple[int, str]:
    """Run ``argv``, assert the contract, return (exit code, stdout)."""
    code, out, err = cli(argv)
    clean(code, err, argv)
    return code, out


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A fresh temporary folder (Hypothesis examples cannot use pytest's tmp_path)."""
    with tempfile.TemporaryDirectory(prefix="planner-fuzz-") as folder:
        yield Path(folder)


def write(path: Path, data: str | bytes) -> Path:
    """Write text (UTF-8, lone surrogates kept as surrogateescape bytes) or bytes to ``path``."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    path.write_bytes(data)
    return path

