"""Full-screen, a streamed reply that grows a line keeps the rows Textual already drew for it,
for the reply, its Markdown and the transcript around them, and what stays drawn is what a
fresh draw of every row gives.

Textual draws every row of a widget again when its height changes and every row of a
scrolling container when its content grows; the reply views and the transcript keep the rows
that did not change (markdown_stream.py, assistant_view.py, transcript.py). Checked here at
every piece of a streamed answer with every kind of block, by drawing each widget's rows from
Textual's row cache and again after emptying it.
"""

from __future__ import annotations

import random

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage
from tau_coding.tui.items import AssistantItem
from tau_coding.tui.widgets.assistant_view import AssistantView
from tau_coding.tui.widgets.markdown_stream import MarkdownStream
from tau_coding.tui.widgets.transcript import Transcript
from tests.coding.tui.test_markdown_stream import ANSWERS, pieces_of

CSS = """
#transcript { height: 1fr; padding: 0 1; }
.assistant { height: auto; }
.assistant .md { padding: 0 1; background: transparent; }
"""


class _TranscriptHost(App[None]):
    CSS = CSS

    def compose(self) -> ComposeResult:
        yield Transcript()


def rows_drawn_and_fresh(widget: Widget) -> tuple[list[object], list[object]]:
    crop = Region(0, 0, *widget.outer_size)
    drawn = widget.render_lines(crop)
    widget._styles_cache.clear()
    return drawn, widget.render_lines(crop)


async def test_a_growing_reply_keeps_its_drawn_rows_and_they_equal_a_fresh_draw() -> None:
    text = "\n".join(answer.read_text() for answer in ANSWERS * 2)
    item = AssistantItem(AssistantMessage([TextContent("")]), done=False)
    async with _TranscriptHost().run_test(size=(80, 30)) as pilot:
        transcript = pilot.app.query_one(Transcript)
        await transcript.append([item], range(1))
        view = pilot.app.query_one(AssistantView)
        shown = ""
        kept = 0  # rows of the answer drawn before a new line and not drawn again for it
        before: dict[int, object] = {}
        height = 0
        for piece in pieces_of(text, random.Random(11)):
            shown += piece
            item.message.content[0] = TextContent(shown)
            await view.sync()
            await pilot.pause()
            stream = view.query_one(MarkdownStream)
            if stream.size.height != height:
                rows = stream._styles_cache._cache
                kept += sum(1 for y, strip in before.items() if rows.get(y) is strip)
            for widget in (transcript, view, stream):
                drawn, fresh = rows_drawn_and_fresh(widget)
                assert drawn == fresh, f"{type(widget).__name__} after {len(shown)} characters"
            before, height = dict(stream._styles_cache._cache), stream.size.height
        assert stream.size.height > 40  # the reply outgrew the screen: the transcript scrolled
        assert kept > 100
