"""Fuzzing jobs.csv files given to check-schedule: damaged cells, rows, headers and bytes.

The simulator's own schedule of a small workload is damaged; ``check-schedule``
must end in exit 0 (still clean), or exit 2 with one stderr line (a read error,
or violations listed on stdout), never exit 1.
"""

from __future__ import annotations

import csv
import io
import json

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.helpers import FUZZ, cli, run, scratch, write
from tests.fuzz.test_workload_json import VALID

CELL = st.sampled_from([
    "", "0", "-1", "1", "12.0", "12.5", "1e3", "1_0", "\uff11", "\u00b2", "nan", "inf",
    "99999999999999999999", "9223372036854775807", "0-3", "0-3 8", "5-4", "0-100000000000",
    "0-999999999999999999", "3 3", "1-2-3", "\ud800", "a\nb", '"', "\x00", "x" * 200_000,
]) | st.integers(-3, 40).map(str)  # fmt: skip


def _schedule() -> tuple[str, str]:
    """Return (workload JSON, the jobs.csv text EASY writes for it)."""
    with scratch() as tmp:
        flow = write(tmp / "w.json", json.dumps(VALID))
        assert run(["simulate", str(flow), "--policy", "easy", "-o", str(tmp / "j.csv")])[0] == 0
        return flow.read_text(encoding="utf-8"), (tmp / "j.csv").read_text(encoding="utf-8")


WORKLOAD, JOBS = _schedule()
ROWS = list(csv.reader(io.StringIO(JOBS)))


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """JOBS with 1-3 cells replaced, a row dropped or repeated, or raw bytes cut or inserted."""
    rows = [list(r) for r in ROWS]
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["cell", "cell", "cell", "drop", "repeat", "short"]))
        k = draw(st.integers(0, len(rows) - 1))
        if op == "cell" and rows[k]:
            rows[k][draw(st.integers(0, len(rows[k]) - 1))] = draw(CELL)
        elif op == "drop" and len(rows) > 1:
            del rows[k]
        elif op == "repeat":
            rows.append(list(rows[k]))
        elif op == "short" and rows[k]:
            rows[k] = rows[k][:-1]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    data = out.getvalue().encode("utf-8", errors="surrogatepass")
    if draw(st.integers(0, 8)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"", b"\xff", b"\x00", b"\r", b"\xe2\x82"]))
    return data


@FUZZ
@given(data=damaged())
def test_damaged_schedules_exit_0_2_or_3(data: bytes) -> None:
    """check-schedule: exit 0, 2 (bad input) or 3 (violations), one stderr line, never 1;
    violations go to stdout."""
    with scratch() as tmp:
        flow = write(tmp / "w.json", WORKLOAD)
        jobs = write(tmp / "jobs.csv", data)
        code, out, err = cli(["check-schedule", str(flow), str(jobs), "--json"])
        assert code in (0, 2, 3) and "Traceback" not in err, err
        assert err.count("\n") == 1 if code in (2, 3) else err == "", err
        if out:  # checked (not a read error): exit 3 exactly when violations are listed
            assert (json.loads(out)["violations"] > 0) == (code == 3), out


def test_the_undamaged_schedule_is_clean() -> None:
    """The base of the damage is itself a clean schedule (exit 0)."""
    with scratch() as tmp:
        flow = write(tmp / "w.json", WORKLOAD)
        assert run(["check-schedule", str(flow), str(write(tmp / "j.csv", JOBS))])[0] == 0
