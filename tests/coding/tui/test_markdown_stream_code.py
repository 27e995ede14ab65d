"""A streamed code block, rendered from its last lines (code_cut.py), draws exactly what one
render of the whole text draws, and keeps the lines it already drew while their colours hold.

The generated blocks mix what changes colours across lines (C comments and Python strings
opened on one line and closed lines later, a heredoc), tabs, trailing whitespace, blank lines,
lines that wrap, wide characters, languages pygments does not know, and fences of every kind,
and are streamed in random pieces, compared after every piece as every frame would show it.
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
