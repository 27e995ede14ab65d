"""An answer's blocks are separated by one blank line, tables and code blocks included."""

from __future__ import annotations

import re

from rich.console import Console

from tau_coding.tui.markdown_render import answer_markdown

ANSWER = (
    "Fixed it.\n\n| file | change |\n|---|---|\n| calc.py | - to + |\n\n"
    "```python\ndef add(a, b):\n    return a + b\n```\n\nDone."
)


def _lines(source: str) -> list[str]:
    console = Console(width=60, color_system=None, record=True)
    console.print(answer_markdown(source))
    return [line.rstrip() for line in console.export_text().rstrip("\n").split("\n")]


def test_a_table_and_a_code_block_sit_between_single_blank_lines() -> None:
    assert _lines(ANSWER) == [
        "Fixed it.",
        "",
        "file     change",
        "───────────────",
        "calc.py  - to +",
        "",
        " def add(a, b):",
        "     return a + b",
        "",
        "Done.",
    ]


def test_single_line_breaks_stay_line_breaks() -> None:
    assert _lines("one\ntwo") == ["one", "two"]


def test_an_answer_renders_as_richs_own_markdown_where_tau_changes_nothing() -> None:
    # answer_markdown parses with one shared parser instead of Rich's parser per text: the same
    # text, headings, emphasis, links, lists and quotes, must come out as Rich draws it.
    from rich.markdown import Markdown

    source = "# Title\n\nSome *em*, **bold**, `code` and [a link](https://example.com).\n\n- one\n- two\n\n> quoted\n"
    console = Console(width=60, color_system="truecolor", record=True)
    console.print(Markdown(source, code_theme="ansi_dark", inline_code_theme="ansi_dark"))
    richs = console.export_text(styles=True)
    console.print(answer_markdown(source))
    ours = console.export_text(styles=True)
    assert re.sub(r"id=\d+;", "", ours) == re.sub(r"id=\d+;", "", richs)  # a link's id is random


def test_an_unmatched_kbd_tag_is_left_out_instead_of_failing_the_render() -> None:
    # Rich's Markdown pops a style for every </kbd>, pushed or not, and fails at the end of the
    # paragraph (IndexError); a model may write one alone. A matched pair still draws its keys.
    assert _lines("press </kbd> now") == ["press  now"]
    assert _lines("a <kbd>b\n\nc") == ["a b", "", "c"]
    assert _lines("press <kbd>Ctrl</kbd> now") == ["press Ctrl now"]
