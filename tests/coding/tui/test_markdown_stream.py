"""A streamed answer, rendered block by block, draws exactly what one render of the whole text draws.

The answers in golden/answers/ are written as a model writes them (code fences, an unclosed
one, lists, nested lists, tables, setext headings, block quotes, soft breaks, an HTML comment);
the generated ones are random sequences of such blocks. Each is streamed in random pieces and
compared after every piece, as every frame would show it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.strip import Strip
from textual.visual import Visual, visualize

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage
from tau_coding.tui.items import AssistantItem
from tau_coding.tui.markdown_render import answer_markdown
from tau_coding.tui.widgets.assistant_view import AssistantView
from tau_coding.tui.widgets.markdown_stream import MarkdownStream

ANSWERS = sorted((Path(__file__).parent / "golden" / "answers").glob("*.md"))
WIDTH = 60

PIECES = [
    "A paragraph of prose\nwith a soft break in it.\n",
    "# Heading\n",
    "Setext\n===\n",
    "- item one\n- item two\n  continued\n",
    "1. first\n2. second\n\n3. loose third\n",
    "```python\ndef f():\n\n    return 1\n```\n",
    "```\nunclosed fence\n",
    "> quoted\nlazy line\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "---\n",
    "***\n",
    "<div>\nhtml block\n</div>\n",
    "    indented code\n",
    "Text with `code`, **bold** and _em_.\n",
    "\n",
    "\n\n",
    "para\n-\n",
    "  - deep item\n",
]


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(classes="assistant"):
            yield MarkdownStream()


def full_render(stream: MarkdownStream, text: str, width: int = WIDTH) -> list[Strip]:
    if not text.strip():
        return []
    visual = visualize(stream, answer_markdown(text))
    return Visual.to_strips(stream, visual, width, None, stream.visual_style)


def pieces_of(text: str, rng: random.Random) -> list[str]:
    out, at = [], 0
    while at < len(text):
        size = rng.choice((1, 2, 3, 5, 8, 20, 40))
        out.append(text[at : at + size])
        at += size
    return out


async def stream_and_compare(
    stream: MarkdownStream, text: str, rng: random.Random, width: int = WIDTH
) -> None:
    stream.set_source("")
    shown = ""
    for piece in pieces_of(text, rng):
        shown += piece
        stream.set_source(shown)
        assert stream.lines(width) == full_render(stream, shown, width), f"differs after {len(shown)} chars"


@pytest.mark.parametrize("answer", ANSWERS, ids=[a.stem for a in ANSWERS])
async def test_a_recorded_answer_streamed_in_pieces_draws_what_a_full_render_draws(answer: Path) -> None:
    text = answer.read_text()
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for seed in range(4):
            await stream_and_compare(stream, text, random.Random(seed))


async def test_generated_answers_streamed_in_pieces_draw_what_a_full_render_draws() -> None:
    rng = random.Random(2026)
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for _ in range(60):
            text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 8)))
            await stream_and_compare(stream, text, rng)


async def test_finished_blocks_are_not_rendered_again_as_the_answer_grows() -> None:
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        stream.set_source("First paragraph.\n\nSecond paragraph.\n\nThird, still")
        first = stream.lines(WIDTH)
        stream.set_source("First paragraph.\n\nSecond paragraph.\n\nThird, still growing")
        second = stream.lines(WIDTH)
        assert second[0] is first[0] and second[2] is first[2]  # the same strips, kept
        assert second == full_render(stream, stream.source)


async def test_a_link_reference_defined_late_renders_the_links_before_it() -> None:
    text = "See [the docs][d] first.\n\nThen more.\n\n[d]: https://example.com/docs\n"
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        await stream_and_compare(stream, text, random.Random(1))
        shown = "".join(strip.text for strip in stream.lines(WIDTH))
        assert "See the docs first." in shown and "[d]" not in shown  # a link, not literal brackets


async def test_a_text_that_is_not_a_continuation_starts_over_and_a_new_width_renders_again() -> None:
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        stream.set_source("Old paragraph.\n\nOld tail")
        stream.lines(WIDTH)
        stream.set_source("New text\n\n- a list")
        assert stream.lines(WIDTH) == full_render(stream, "New text\n\n- a list")
        assert stream.lines(20) == full_render(stream, "New text\n\n- a list", 20)


async def test_the_widget_is_as_tall_as_the_rendered_text_once_laid_out() -> None:
    text = (ANSWERS[0]).read_text()
    async with _Host().run_test(size=(80, 200)) as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for piece in pieces_of(text, random.Random(3)):
            stream.set_source(stream.source + piece)
            await pilot.pause()
        assert stream.size.height == len(full_render(stream, text, stream.size.width))


class _CappedHost(App[None]):
    CSS = ".md { max-height: 8; }"

    def compose(self) -> ComposeResult:
        with Vertical(classes="assistant"):
            yield MarkdownStream()


def shown_lines(stream: MarkdownStream) -> list[Strip]:
    return [stream.render_line(y) for y in range(stream.size.height)]


async def test_with_a_max_height_the_newest_lines_show_and_growth_past_it_lays_nothing_out() -> None:
    # Inline mode caps a streaming answer (app.tcss): what shows is the end of one full render,
    # and once the answer is that tall a new line repaints the widget without a screen layout.
    text = "".join(f"line {n} of the answer\n" if n % 5 else f"\nparagraph {n}\n" for n in range(40))
    async with _CappedHost().run_test(size=(60, 30)) as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        layouts: list[object] = []
        pilot.app.screen.screen_layout_refresh_signal.subscribe(pilot.app.screen, layouts.append)
        shown, layouts_when_capped = "", None
        for piece in pieces_of(text, random.Random(5)):
            shown += piece
            stream.set_source(shown)
            await pilot.pause()
            full = full_render(stream, shown, stream.size.width)
            assert stream.size.height == min(len(full), 8)
            assert shown_lines(stream) == full[len(full) - stream.size.height :]
            if len(full) > 8 and layouts_when_capped is None:
                layouts_when_capped = len(layouts)
        # ~35 more lines came after the cap; without it each was a layout. (A style change, such
        # as the app losing focus on a loaded machine, may still bring one.)
        assert layouts_when_capped is not None and len(layouts) - layouts_when_capped <= 2


# Words of a growing paragraph: plain ones (which a cut may follow) and every kind of inline
# syntax that may pair with text after it, or change width, or change the block.
WORDS = [
    *("word", "streamed", "answer", "a", "longer", "Paragraph", "é", "naïve"),
    *("**bold**", "**two words**", "*em*", "_em_", "`code`", "`a b`", "~~gone~~", "[link](http://x.y/z)"),
    *("**", "*", "_", "`", "[", "]", "(", ")", "<", ">", "&amp;", "&", "\\*", "!", "|", "~~"),
    *("漢字テキスト", "日本語の文", "emoji🙂", "https://example.com/" + "long" * 20, "x" * 70),
    *("\t", "<kbd>", "</kbd>", "<http://a.b>", "a|b", "1.", "-", "#"),
    *("x*y", "**lead", "trail**", "*open", "close*", "pre`", "`post", "sn_ake", "[open", "close](u)"),
]
BREAKS = [" ", " ", " ", " ", " ", "  ", "\n", "  \n", "\n   "]
ENDINGS = ["", "\n===\n", "\n---\n", "\n|---|---|\n", "\n\nNext paragraph.\n", "\n- a list\n", "`", "**"]


def paragraph(rng: random.Random, words: int) -> str:
    weights = [12] * 8 + [3] * 8 + [1] * 16 + [1] * 5 + [1] * 8 + [2] * 10
    chosen = rng.choices(WORDS, weights, k=words)
    return "".join(word + rng.choice(BREAKS) for word in chosen).rstrip(" ") + rng.choice(ENDINGS)


@pytest.mark.parametrize("width", [60, 23])
async def test_a_growing_paragraph_rendered_from_its_last_lines_draws_what_a_full_render_draws(
    width: int,
) -> None:
    # A paragraph's finished lines are kept and only what follows them is rendered again
    # (paragraph_cut.py): wide characters, folded long words, soft and hard breaks, every
    # inline construct opened before a cut and closed after it, a paragraph that becomes a
    # setext heading or a table, all equal to one render of the whole text at every piece.
    rng = random.Random(width)
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        for _ in range(40):
            lead = rng.choice(["", "# Title\n\n", "Intro.\n\n", "- item\n\n"])
            await stream_and_compare(stream, lead + paragraph(rng, rng.randint(20, 160)), rng, width)


@pytest.mark.parametrize(
    "unit",
    ["word{n} ", "word{n} **bold** ", "see [the docs](https://example.com/docs) {n} ", "call `f({n})` then "],
    ids=["plain", "bold", "links", "code"],
)
async def test_a_long_paragraph_keeps_its_finished_lines_as_it_grows(unit: str) -> None:
    text = "".join(unit.format(n=n) for n in range(400))
    async with _Host().run_test() as pilot:
        stream = pilot.app.query_one(MarkdownStream)
        stream.set_source(text[:1500])
        first = stream.lines(WIDTH)
        stream.set_source(text[:1510])
        second = stream.lines(WIDTH)
        assert len(first) > 6 and all(second[n] is first[n] for n in range(len(first) - 4))
        assert second == full_render(stream, stream.source)
        for end in range(1510, len(text), 37):  # and stays exact when rendered only from a cut
            stream.set_source(text[:end])
            assert stream.lines(WIDTH) == full_render(stream, stream.source)


class _ReplyHost(App[None]):
    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield AssistantView(AssistantItem(AssistantMessage([TextContent("")]), done=False))


async def test_a_new_line_of_a_streaming_reply_lays_the_screen_out_once() -> None:
    # Full-screen, each new line of an answer changes its height: one layout. Textual would
    # follow it by a second, for the new virtual size of the answer and its reply view.
    async with _ReplyHost().run_test(size=(60, 30)) as pilot:
        view = pilot.app.query_one(AssistantView)
        layouts: list[object] = []
        pilot.app.screen.screen_layout_refresh_signal.subscribe(pilot.app.screen, layouts.append)
        content = view.item.message.content
        for n in range(12):
            content[0] = TextContent(f"{content[0].text}line {n}\n")  # type: ignore[union-attr]
            await view.sync()
            await pilot.pause()
            await pilot.pause()
        assert view.query_one(MarkdownStream).size.height == 12
        assert len(layouts) <= 12 + 1
