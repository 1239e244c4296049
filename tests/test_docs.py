"""The documentation stands on its own: links resolve, anchors exist, citations are the papers'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
OWN = ["index", "concepts", "algorithms", "exact-models", "formats", "studies", "families",
       "benchmarks", "references", "api"]  # fmt: skip
# pages written alongside (by the other parts of the project); linked, checked when present
OTHERS = ["guarantees", "study-reliability", "reproductions", "workloads", "job-flows",
          "cluster-benchmarks", "vo-flows"]  # fmt: skip
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # no headings inside code blocks
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


def sources() -> list[Path]:
    return [ROOT / "README.md"] + [DOCS / f"{p}.md" for p in OWN]


@pytest.mark.parametrize("page", sources(), ids=lambda p: p.name)
def test_links_resolve(page: Path) -> None:
    """Every relative link names an existing file (or a sibling page) and an existing anchor."""
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        if path.stem in OTHERS and path.parent == DOCS and not path.exists():
            continue  # a page of another part of the project, not in this build
        assert path.exists(), f"{page.name}: broken link {target}"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{page.name}: no anchor #{anchor} in {path.name}"


def test_index_links_every_page() -> None:
    """docs/index.md links every documentation page, the other parts' included."""
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in OWN[1:] + OTHERS:
        assert f"]({page}.md)" in text, page


@pytest.mark.parametrize("page", sources(), ids=lambda p: p.name)
def test_cites_papers_not_developer_files(page: Path) -> None:
    """Shipped text cites docs pages and papers by author and year, never the developers' notes."""
    text = page.read_text(encoding="utf-8")
    for banned in ("SPEC §", "SPEC.md", "FORMATS", "seed 00", "seeds/", "../shared"):
        assert banned not in text, f"{page.name} cites {banned!r}"


def test_every_cited_paper_is_in_the_references() -> None:
    """Each author-year citation used in the docs has an entry in references.md."""
    refs = (DOCS / "references.md").read_text(encoding="utf-8")
    cited = set()
    for page in sources():
        cited |= set(re.findall(r"(Toporkov et al\. 20\d\d|Toporkov & Yemelyanov 20\d\d|"
                                r"Klusáček & Rudová 20\d\d|Mu'alem & Feitelson 20\d\d)",
                                page.read_text(encoding="utf-8")))  # fmt: skip
    assert cited
    for c in sorted(cited):
        assert f"**{c}**" in refs, c


def test_figure_and_citation_files() -> None:
    """The concepts figure, its script and CITATION.cff are present; the CFF names the papers."""
    assert (DOCS / "figures" / "windows.png").stat().st_size > 10_000
    assert (DOCS / "figures" / "make_figures.py").is_file()
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert cff.startswith("cff-version: 1.2.0")
    for needle in ("Metascheduling and heuristic co-allocation", "Parallel Workloads Archive",
                   "IBM SP2 with backfilling", "Klusáček"):  # fmt: skip
        assert needle in cff


def test_family_table_lists_every_default() -> None:
    """docs/families.md's family table gives each family's defaults as the registry has them."""
    from instances import FAMILIES

    rows = {}
    for line in (DOCS / "families.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"`\w+`", cells[0]) and "=" in cells[2]:
            rows.setdefault(cells[0].strip("`"), cells[2].strip("`"))
    paper_families = [n for n in FAMILIES if n in rows]
    assert len(paper_families) >= 6
    for name in paper_families:
        expected = " ".join(f"{k}={v}" for k, v in FAMILIES[name].defaults.items())
        assert rows[name] == expected, name


def _text_block(page: str, first_header: str) -> list[dict[str, str]]:
    """Return the rows of the aligned text table in ``page`` whose header starts with
    ``first_header``, as {header: cell}; the dashes line gives the columns."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith(first_header))
    spans = [m.span() for m in re.finditer(r"-+", lines[at + 1])]
    end = next(k for k in range(at + 2, len(lines)) if not lines[k] or lines[k].startswith("```"))
    body = lines[at + 2 : end]
    head = [lines[at][a:b].strip() for a, b in spans]
    return [dict(zip(head, [ln[a:b].strip() for a, b in spans], strict=True)) for ln in body]


def test_studies_example_is_recomputed(tmp_path: Path) -> None:
    """docs/studies.md's example excerpt (the narrow table) and its reading are what the quick
    default's rows give today (recomputed on the excerpt's algorithms and geometry; the
    ``ms`` column is a time and varies)."""
    from validation.study import Store, StudySpec, run_study, summarise
    from validation.study.gap import QUICK
    from validation.study.gap.report import text_table

    shown = _text_block("studies.md", "geometry  algorithm")
    assert len(shown) >= 3
    spec = StudySpec(QUICK["family"], instances=QUICK["instances"], seed=QUICK["seed"],
                     algorithms=tuple(r["algorithm"] for r in shown),
                     geometries=tuple(dict.fromkeys(r["geometry"] for r in shown)))  # fmt: skip
    with Store(tmp_path / "db.sqlite") as store:
        summary = summarise(store.rows(run_study(spec, store, progress=False).study))
    for row in shown:
        got = next(s for s in summary if s["algorithm"] == row["algorithm"])
        lines = text_table([got]).splitlines()
        spans = [m.span() for m in re.finditer(r"-+", lines[1])]
        cells = {lines[0][a:b].strip(): lines[2][a:b].strip() for a, b in spans}
        for header, cell in row.items():
            if header in cells and header != "ms":
                assert cells[header] == cell, (row["algorithm"], header)
    text = (DOCS / "studies.md").read_text(encoding="utf-8")
    reading = " ".join(text[text.index("Read: of") :].split("\n\n")[0].split())
    coord = next(s for s in summary if s["algorithm"] == "coord_lite")
    maxq = next(s for s in summary if s["algorithm"] == "max_q_lite")
    jobs = coord["jobs"]
    for fact in (f"of {jobs} rows ({QUICK['instances']} instances",
                 f"matched the COORD optimum in {round(coord['exact_match_rate'] * 45)} of 45",
                 f"on average {coord['abs_gap_mean']:.2f} quanta",
                 f"matched in {round(maxq['exact_match_rate'] * 45)} of 45",
                 f"lost {100 * maxq['gap_mean']:.1f}% of Σq"):  # fmt: skip
        assert fact in reading, fact


def test_reproductions_list_is_the_registry() -> None:
    """docs/reproductions.md lists every experiment ``planner study reproduce`` runs, in the
    command's order, each with a link that resolves."""
    from validation.study.reproduce import REPRODUCTIONS

    page = DOCS / "reproductions.md"
    rows = [ln for ln in page.read_text(encoding="utf-8").splitlines()
            if re.match(r"\| `[a-z-]+` \|", ln)]  # fmt: skip
    names = [re.match(r"\| `([a-z-]+)`", ln).group(1) for ln in rows]  # type: ignore[union-attr]
    assert names[: len(REPRODUCTIONS)] == list(REPRODUCTIONS)
    for line in rows:
        for target in LINK.findall(line):
            file, _, anchor = target.partition("#")
            path = DOCS / file if file else page
            assert path.exists() and anchor in anchors(path), (line[:40], target)


def test_quick_default_is_described_as_it_is() -> None:
    """README and docs/studies.md describe the quick default study with the CLI's values."""
    from validation.study.gap import QUICK

    n, family = QUICK["instances"], QUICK["family"]
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").replace("#", "").split())
    assert f"on {n} generated instances, both geometries" in readme
    assert QUICK["geometries"] == ("rough", "square")
    studies = (DOCS / "studies.md").read_text(encoding="utf-8")
    assert f"quick default: {n} {family} instances, both geometries" in studies
    assert f"{n} `{family}` instances, seed {QUICK['seed']}" in studies
def test_reproductions_scoreboard_lists_every_experiment() -> None:
    """docs/reproductions.md opens with a scoreboard row per registered experiment (all of
    them, egedf included), each linking to an existing section."""
    from validation.study.reproduce.scoreboard import experiments

    text = (DOCS / "reproductions.md").read_text(encoding="utf-8")
    board = text[: text.index("\n## ")]
    rows = re.findall(r"^\| \[`([\w-]+)`\]\(([^)]+)\) \|", board, flags=re.M)
    assert [name for name, _ in rows] == experiments()
    for name, target in rows:
        file, _, anchor = target.partition("#")
        path = DOCS / (file or "reproductions.md")
        assert anchor in anchors(path), f"{name}: no anchor #{anchor} in {path.name}"
    counts = re.findall(r"\| (\d+) / (\d+) \| (\d+) \|", board)
    held, total = (sum(int(c[i]) for c in counts) for i in (0, 1))
    assert f"In all, {held} of {total} claims hold." in " ".join(text.split())
