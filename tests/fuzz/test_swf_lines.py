"""Fuzzing SWF logs: header fields and record lines, plain and gzipped.

Every log is refused with exit 2 and one stderr line naming the file, or
replayed; an accepted log's schedule passes the independent checker.
"""

from __future__ import annotations

import gzip

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.helpers import FUZZ, run, scratch, write

FIELD = st.sampled_from([
    "-1", "0", "1", "2", "4", "10", "3.5", "1e3", "-0", "+3", "00", "2147483647", "2147483648",
    "1000000000000", "99999999999999999999", "1e400", "nan", "inf", "-inf", "1_000", "\uff14",
    "\u00b2", "\u0664", "0x10", "1,5", "", "é", "\ud800", "1e-300",
]) | st.integers(-5, 50).map(str)  # fmt: skip
HEADER = st.sampled_from([
    "", "; MaxProcs: 8\n", "; MaxProcs: -1\n; MaxNodes: 4\n", "; MaxProcs: \u00b2\n",
    "; MaxProcs: 2147483647\n", "; MaxProcs: 2147483648\n", "; MaxProcs: 1_0\n",
    "; MaxNodes: 99999999999999999999999\n", "; MaxProcs: x\n", "; MaxProcs:\n",
])  # fmt: skip
GOOD = ["1", "0", "0", "10", "2", "-1", "-1", "2", "12", "-1", "1", "1", "1", "1", "-1", "-1",
        "-1", "-1"]  # fmt: skip


@st.composite
def logs(draw: st.DrawFn) -> str:
    """A header and 1-4 records: a good record with 0-3 fields replaced, or a bad field count."""
    lines = [draw(HEADER)]
    for number in range(1, draw(st.integers(1, 4)) + 1):
        fields = [str(number), *GOOD[1:]]
        for _ in range(draw(st.integers(0, 3))):
            fields[draw(st.integers(0, 17))] = draw(FIELD)
        if draw(st.integers(0, 10)) == 0:
            fields = fields[: draw(st.integers(0, 17))]
        lines.append(" ".join(fields) + "\n")
    return "".join(lines)


@FUZZ
@given(text=logs(), zipped=st.booleans(), policy=st.sampled_from(["easy", "conservative"]))
def test_hostile_swf_logs_are_refused_or_replayed(text: str, zipped: bool, policy: str) -> None:
    """Exit 2 with one line, or a replay that the checker passes."""
    with scratch() as tmp:
        data = text.encode("utf-8", errors="surrogatepass")
        log = write(tmp / ("log.swf.gz" if zipped else "log.swf"),
                    gzip.compress(data, mtime=0) if zipped else data)  # fmt: skip
        argv = ["simulate", str(log), "--policy", policy, "-o", str(tmp / "jobs.csv"),
                "--reservations", str(tmp / "res.csv")]  # fmt: skip
        if "MaxProcs: 8" not in text and "MaxNodes: 4" not in text and "2147483647" not in text:
            argv += ["--machines", "hpc2n-alea.swf.machines"]
        code, _ = run(argv)
        if code == 0:
            check = ["check-schedule", str(log), str(tmp / "jobs.csv"), "--policy", policy,
                     "--reservations", str(tmp / "res.csv")]  # fmt: skip
            if "--machines" in argv:
                check += ["--machines", "hpc2n-alea.swf.machines"]
            assert run(check)[0] == 0, text
