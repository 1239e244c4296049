"""The reproductions' Findings and scoreboard: claims held / total, from saved results.

Each run of ``planner study reproduce NAME`` saves its result (every claim with
its verdict, the largest differences, seed, runs, planner version) as
``RESULTS/NAME.json``; ``planner study reproduce --summary`` reads the saved
results of every experiment in :data:`EXPERIMENTS` and prints the scoreboard,
marking each as current, quick (fewer runs than the default), stale (another
planner version) or missing. Nothing is re-run and no verdict is typed in: the
counts are those the reproductions computed. See docs/reproductions.md.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from instances.text import plural
from validation.study.engine.tables import WIDTH, render

FORMAT = "planner.reproduction-result/1"
DEFAULT_RESULTS = "study-out/reproduce"

DOC_SECTIONS: dict[str, tuple[str, str]] = {
    "amp-vs-alp": ("reproductions.md", "`amp-vs-alp` — Toporkov et al. 2011 §5"),
    "aep-criteria": ("reproductions.md", "`aep-criteria` — Toporkov et al. 2012 §3.2"),
    "maxq": ("reproductions.md", "`maxq` — Toporkov & Yemelyanov 2018 §4.2"),
    "dep-coord": ("reproductions.md", "`dep-coord` — Toporkov & Yemelyanov 2018 §4.3, Table 1"),
    "timing": ("reproductions.md", "`timing` — Toporkov et al. 2012 Tables 1–2; Toporkov & "
               "Yemelyanov 2018 Table 1"),
    "css-criteria": ("vo-flows.md", "`css-criteria` (Table 1), 5,000 cycles, seed 0"),
    "slicer": ("vo-flows.md", "`slicer` (Fig. 7), 200 cycles per level, seed 0"),
    "pricing": ("vo-flows.md", "`pricing` (Table 2, Fig. 8), 1,000 cycles, seed 0"),
    "bsf": ("slot-backfilling.md", "Reproduction: BSF, Fig. 9"),
    "estimates": ("slot-backfilling.md", "Reproduction: the run-time estimate stress test, "
                  "Table 3"),
    "egedf": ("schedule-based.md", "Reproducing Klusáček & Rudová 2008 (`planner study "
              "reproduce egedf`)"),
}  # fmt: skip
"""Where each experiment is documented: docs/ page and the heading of its section."""


def anchor(heading: str) -> str:
    """Return GitHub's anchor of a Markdown heading."""
    import re

    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def experiments() -> list[str]:
    """Return every experiment's name, in the registry's order (``egedf`` last)."""
    from validation.study.reproduce import REPRODUCTIONS

    return list(REPRODUCTIONS)


def result(name: str, claims: Sequence[tuple[str, bool | None]], *, seed: int, runs: int,
           default_runs: int, version: str, differences: Sequence[str] = (),
           options: Mapping[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """Return the saved form of one run: claims with verdicts, counts, the run's identity.

    ``options``: the sizes this run changed from the experiment's defaults (such a
    run is a quick one, whatever its run count).
    """
    verdicts = ["holds" if ok else "n/a" if ok is None else "differs" for _, ok in claims]
    return {"format": FORMAT, "name": name, "seed": seed, "runs": runs,
            "default_runs": default_runs, "version": version,
            "held": verdicts.count("holds"), "differs": verdicts.count("differs"),
            "undefined": verdicts.count("n/a"), "total": len(verdicts),
            "claims": [{"claim": c, "verdict": v} for (c, _), v in zip(claims, verdicts,
                                                                       strict=True)],
            "differences": list(differences), "options": dict(options or {})}  # fmt: skip


def findings_lines(res: Mapping[str, Any]) -> list[str]:
    """Return the Findings of one result: claims held / total and the largest differences."""
    undefined = f", {res['undefined']} undefined" if res["undefined"] else ""
    lines = [f"claims held: {res['held']} of {res['total']} ({res['differs']} differ"
             f"{undefined}); {plural(res['runs'], 'run')}, seed {res['seed']}"]  # fmt: skip
    lines += [f"largest difference: {d}" for d in res["differences"]]
    return lines


def save(res: Mapping[str, Any], directory: str | Path) -> Path:
    """Write ``directory/NAME.json``; return its path."""
    path = Path(directory) / f"{res['name']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load(directory: str | Path) -> dict[str, dict[str, Any]]:
    """Return the saved results in ``directory`` by name (unreadable files are skipped)."""
    out = {}
    for path in sorted(Path(directory).glob("*.json")):
        try:
            res = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(res, dict) and res.get("format") == FORMAT:
            out[res["name"]] = res
    return out


def status(res: Mapping[str, Any] | None, version: str) -> str:
    """Return ``missing``, ``stale (planner V)``, ``quick (R of D runs)`` or ``current``."""
    if res is None:
        return "missing"
    if res["version"] != version:
        return f"stale (planner {res['version']})"
    sizes = "".join(f"; {k}={_value(v)}" for k, v in sorted(res.get("options", {}).items()))
    if res["runs"] < res["default_runs"] or sizes:
        return f"quick ({res['runs']} of {res['default_runs']} runs{sizes})"
    return "current"


def _value(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, list | tuple) else str(v)


def rows(saved: Mapping[str, Mapping[str, Any]], version: str) -> list[list[str]]:
    """Return one scoreboard row per experiment: name, claims held / total, differ, status."""
    out = []
    for name in experiments():
        res = saved.get(name)
        held = f"{res['held']} / {res['total']}" if res else "-"
        differ = str(res["differs"]) if res else "-"
        out.append([name, held, differ, status(res, version)])
    return out


def text(saved: Mapping[str, Mapping[str, Any]], version: str, directory: str) -> str:
    """Return the scoreboard for the terminal (fits 100 columns)."""
    body = rows(saved, version)
    held = sum(saved[n]["held"] for n in saved if n in experiments())
    total = sum(saved[n]["total"] for n in saved if n in experiments())
    missing = [r[0] for r in body if r[3] == "missing"]
    lines = textwrap.wrap(f"reproductions: {len(body) - len(missing)} of {len(body)} with a "
                          f"saved result in {directory}; claims held {held} of {total}", WIDTH)
    lines.append("")
    lines.append(render(["experiment", "claims held", "differ", "result"], body, left=1,
                        width=WIDTH))  # fmt: skip
    if missing:
        lines += ["", *textwrap.wrap(f"missing: run 'planner study reproduce NAME' for "
                                     f"{', '.join(missing)}", WIDTH)]  # fmt: skip
    return "\n".join(lines)


def markdown(saved: Mapping[str, Mapping[str, Any]], version: str, link_from: str = "") -> str:
    """Return the scoreboard as a Markdown table linking each experiment's section."""
    head = ["| experiment | paper | claims held | differ | runs (default) |",
            "| --- | --- | ---: | ---: | --- |"]
    from validation.study.reproduce import REPRODUCTIONS

    body = []
    for name in experiments():
        res = saved.get(name)
        page, heading = DOC_SECTIONS[name]
        target = f"{'' if page == link_from else page}#{anchor(heading)}"
        paper = (REPRODUCTIONS[name].source if name in REPRODUCTIONS
                 else _egedf_source()).split(" (")[0]  # fmt: skip
        if res is None:
            body.append(f"| [`{name}`]({target}) | {paper} | not run | - | - |")
            continue
        sizes = "".join(f", {k}={_value(v)}" for k, v in sorted(res.get("options", {}).items()))
        runs = f"{res['runs']} ({res['default_runs']}){sizes}"
        body.append(f"| [`{name}`]({target}) | {paper} | {res['held']} / {res['total']} | "
                    f"{res['differs']} | {runs} |")  # fmt: skip
    return "\n".join(head + body)


def _egedf_source() -> str:
    return "Klusáček & Rudová 2008, Figs. 1–6"
