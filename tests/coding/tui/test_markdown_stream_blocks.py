"""A streamed code block or list, rendered from its last lines or items (code_cut.py,
list_cut.py), draws exactly what one render of the whole text draws, and keeps the lines it
already drew while they hold.

The generated code blocks mix what changes colours across lines (C comments and Python strings
opened on one line and closed lines later, a heredoc), tabs, trailing whitespace, blank lines,
lines that wrap, wide characters, languages pygments does not know, and fences of every kind,
and the generated lists mix bullets and numbers (as counted and not, across a power of ten),
nested and loose items, code and quotes inside items, lazy lines and a change of marker; all
are streamed in random pieces, compared after every piece as every frame would show it.
"""

from __future__ import annotations

import random

import pytest

from tau_coding.tui.widgets.markdown_stream import MarkdownStream
from tests.coding.tui.test_markdown_stream import WIDTH, _Host, full_render, stream_and_compare

LANGUAGES = ["python", "c", "js", "rust", "bash", "go", "", "nosuchlanguage", "python extra-info"]
LINES = [
    "def handler(request):",
    "    return compute(request, 1)  # a comment",
    "int main(void) { return 0; }",
    "/* a comment opened here",
    "   and closed here */ int x = 1;",
    '"""a docstring opened',
    'closed"""',
    "'''",
    'text = "an unclosed string',
    "// a line comment",
    "cat <<EOF",
    "EOF",
    "\tindented with a tab\tand another",
    "trailing spaces   ",
    "",
    "   ",
    "let value = some_function_with_a_long_name(argument_one, argument_two, argument_three);",
    "漢字の変数 = '日本語の文字列'",
    "`backticks` and ~~~ inside",
    "    ```",
]
FENCES = ["```", "~~~", "````"]


def code_block(rng: random.Random) -> str:
    fence = rng.choice(FENCES)
    lines = rng.choices(LINES, k=rng.randint(1, 30))
    closing = rng.choice(["", f"{fence}\n", f"{fence}\n\nA paragraph after it.\n"])
    return f"{fence}{rng.choice(LANGUAGES)}\n" + "".join(line + "\n" for line in lines) + closing


@pytest.mark.parametrize("width", [WIDTH, 23])
async def test_a_growing_code_block_rendered_from_its_last_lines_draws_what_a_full_render_draws(
    width: int,
) -> None:
    rng = random.Random(width + 7)
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for _ in range(40):
            lead = rng.choice(["", "# Title\n\n", "Intro.\n\n", "- item\n\n", "Intro:\n"])
            await stream_and_compare(stream, lead + code_block(rng), rng, width)


async def test_a_long_code_block_keeps_the_lines_it_drew_until_their_colours_change() -> None:
    body = "".join(f"    value_{n} = compute({n})  # step {n}\n" for n in range(60))
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        stream.set_source("Intro.\n\n```python\n" + body)
        first = stream.lines(WIDTH)
        stream.set_source(stream.source + "    more = 1\n")
        second = stream.lines(WIDTH)
        assert len(first) > 50 and all(second[n] is first[n] for n in range(len(first) - 4))
        assert second == full_render(stream, stream.source)
        # A string opened above and never closed recolours every line after it: drawn anew.
        stream.set_source("Intro.\n\n```python\n" + 'x = """\n' + body)
        stream.lines(WIDTH)
        stream.set_source(stream.source + "y = 2\n")
        stream.lines(WIDTH)
        stream.set_source(stream.source + 'end"""\n' + "z = 3\n")
        assert stream.lines(WIDTH) == full_render(stream, stream.source)


ITEM_BODIES = [
    "a short item",
    "an item long enough to wrap over more than one line at the narrower of the two widths",
    "an item with `code` and **bold**",
    "an item\n  continued on its next line",
    "an item\nwith a lazy line",
    "an item with a hard break  \n  after it",
    "an item\n\n  with a second paragraph",
    "an item\n  - nested one\n  - nested two",
    "an item\n\n  ```\n  code in it\n  ```",
    "an item\n  > quoted in it",
    "",
]


def a_list(rng: random.Random) -> str:
    count = rng.randint(1, 14)
    kind = rng.choice(["-", "*", "+", ".", ")"])
    start = rng.choice([1, 3, 5, 8, 95, 98])
    counted = rng.random() < 0.7
    out = []
    for n in range(count):
        marker = kind if kind in "-*+" else f"{start + n if counted else start}{kind}"
        if rng.random() < 0.05:
            marker = "*" if marker == "-" else "-"  # another marker: another list
        out.append(f"{marker} {rng.choice(ITEM_BODIES)}\n" + ("\n" if rng.random() < 0.2 else ""))
    return "".join(out) + rng.choice(["", "\nA paragraph after it.\n", "\n# A heading\n"])


@pytest.mark.parametrize("width", [WIDTH, 23])
async def test_a_growing_list_rendered_from_its_last_items_draws_what_a_full_render_draws(width: int) -> None:
    rng = random.Random(width + 11)
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for _ in range(50):
            lead = rng.choice(["", "# Title\n\n", "Intro.\n\n", "Intro:\n"])
            await stream_and_compare(stream, lead + a_list(rng), rng, width)


async def test_a_long_list_keeps_the_lines_of_its_finished_items() -> None:
    text = "Intro.\n\n" + "".join(
        f"{n}. step {n}: run the thing and read what it says\n" for n in range(1, 40)
    )
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        stream.set_source(text[: text.index("30. ")])
        first = stream.lines(WIDTH)
        stream.set_source(text[: text.index("31. ")])
        second = stream.lines(WIDTH)
        assert len(first) > 25 and all(second[n] is first[n] for n in range(len(first) - 2))
        assert second == full_render(stream, stream.source)


async def test_a_numbered_list_whose_numbers_widen_draws_its_kept_items_again() -> None:
    # " 5 item" becomes "  5 item" when the list reaches its tenth number.
    text = "Intro.\n\n" + "".join(f"{n}. item {n}\n" for n in range(5, 13))
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for end in range(1, len(text) + 1):
            stream.set_source(text[:end])
            assert stream.lines(WIDTH) == full_render(stream, text[:end]), f"after {end} characters"
