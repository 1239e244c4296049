"""The one table printer (``planner.table``): text and Markdown alignment by column."""

from __future__ import annotations

from planner import table


def test_text_aligns_left_columns_left_and_numbers_right() -> None:
    """The first ``left`` columns are flush left, the others flush right; a dashed rule."""
    out = table.text(["name", "n"], [["ab", 1], ["c", 100]], left=1)
    assert out.splitlines() == ["name    n", "----  ---", "ab      1", "c     100"]


def test_text_header_left_and_none_cells() -> None:
    """``header_left`` puts every header flush left; ``None`` is an empty cell."""
    out = table.text(["a", "bbb"], [[None, 7]], left=0, header_left=True)
    assert out.splitlines() == ["a  bbb", "-  ---", "     7"]


def test_markdown_rule_marks_the_left_columns() -> None:
    """A set of column indices aligns those columns left in the rule row."""
    out = table.markdown(["k", "s", "v"], [[1, "ok", 2.5]], left={1})
    assert out.splitlines() == ["| k | s | v |", "| ---: | --- | ---: |", "| 1 | ok | 2.5 |"]


def test_width_cuts_text_cells_never_numbers() -> None:
    """With ``width`` the longest text cell is cut (ending in "…"); numbers stay whole."""
    out = table.text(["name", "n"], [["a-very-long-name", 12345]], width=12)
    assert out.splitlines() == ["name       n", "-----  -----", "a-ve…  12345"]  # 12 wide
