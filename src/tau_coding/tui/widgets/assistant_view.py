"""An assistant reply: Markdown text (streamed incrementally) and collapsible thinking.

Text renders as Rich Markdown (code blocks highlighted) in ``MarkdownChunk`` widgets of
bounded size: while a reply streams, only its last chunk is re-rendered, once per frame at
most, and a chunk closes at a paragraph break outside code once it passes ``CHUNK_CHARS``.
So the cost of a frame does not grow with the length of the reply, nor with the number of
deltas that arrived since the previous frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from tau_agent.content import TextContent, ThinkingContent
from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.markdown_render import answer_markdown
from tau_coding.tui.state import AssistantItem

THINKING_HINT = "Thinking… (Ctrl+T to show)"
CHUNK_CHARS = 3000


class MarkdownChunk(Static):
    """A piece of a reply's text, rendered as Markdown; ``source`` is the text it shows."""

    def __init__(self, source: str = "") -> None:
        super().__init__(classes="md")
        self.source = ""
        self.set_source(source)

    def set_source(self, source: str) -> None:
        if source != self.source:
            self.source = source
            self.update(answer_markdown(source))


class ThinkingView(Vertical):
    """A placeholder line, or the reasoning itself when the transcript has ``-show-thinking``."""

    def __init__(self, text: str = "") -> None:
        super().__init__(classes="thinking")
        self._text = text

    def compose(self) -> ComposeResult:
        yield Static(THINKING_HINT, classes="thinking-hint")
        yield Static(Text(safe_text(self._text)), classes="thinking-body")

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.query_one(".thinking-body", Static).update(Text(safe_text(text)))


@dataclass(slots=True)
class _Part:
    widget: Widget  # the ThinkingView, or the last MarkdownChunk of a text block
    shown: int = 0
    start: int = 0  # where the text of the last chunk begins
    fences: int = 0  # ``` marks before ``start`` (odd would mean inside a code block)


class AssistantView(Vertical):
    def __init__(self, item: AssistantItem) -> None:
        super().__init__(classes="assistant")
        self.item = item
        self._parts: dict[int, _Part] = {}
        self._finished = False

    def compose(self) -> ComposeResult:
        if not self.item.done:
            return
        for index, block in enumerate(self.item.message.content):
            if isinstance(block, TextContent) and block.text.strip():
                *earlier, last = split_chunks(block.text)
                for chunk in earlier:
                    yield MarkdownChunk(chunk)
                widget: Widget = MarkdownChunk(last)
                self._parts[index] = _Part(widget, len(block.text), len(block.text) - len(last))
            elif isinstance(block, ThinkingContent) and not block.redacted and block.thinking.strip():
                widget = ThinkingView(block.thinking)
                self._parts[index] = _Part(widget, len(block.thinking))
            else:
                continue
            yield widget
        self._finished = True

    def sources(self) -> list[str]:
        """The text of every Markdown chunk, in order (what the reply shows)."""
        return [chunk.source for chunk in self.query(MarkdownChunk)]

    async def sync(self) -> None:
        """Show what arrived since the last call."""
        if self._finished:
            return
        for index, block in enumerate(self.item.message.content):
            if isinstance(block, TextContent):
                await self._sync_text(index, block.text)
            elif isinstance(block, ThinkingContent) and not block.redacted:
                part = self._parts.get(index)
                if part is None:
                    part = self._parts[index] = _Part(ThinkingView())
                    await self.mount(part.widget)
                assert isinstance(part.widget, ThinkingView)
                part.widget.set_text(block.thinking)
        self._finished = self.item.done

    async def _sync_text(self, index: int, text: str) -> None:
        part = self._parts.get(index)
        if part is None:
            if not text:
                return
            part = self._parts[index] = _Part(MarkdownChunk())
            await self.mount(part.widget)
        if len(text) == part.shown:
            return
        if len(text) < part.start:  # replaced rather than grown: start over in one chunk
            part.start = part.fences = 0
        while len(text) - part.start > CHUNK_CHARS and await self._close_chunk(part, text):
            pass
        assert isinstance(part.widget, MarkdownChunk)
        part.widget.set_source(text[part.start :])
        part.shown = len(text)

    async def _close_chunk(self, part: _Part, text: str) -> bool:
        """End the last chunk at a paragraph break near ``CHUNK_CHARS`` outside code; open a new one.

        False when there is no such break yet (the chunk then grows until one arrives).
        """
        cut = next_cut(text, part.start, part.fences)
        if cut is None:
            return False
        assert isinstance(part.widget, MarkdownChunk)
        part.widget.set_source(text[part.start : cut])
        part.fences += text.count("```", part.start, cut)
        part.start = cut
        part.widget = MarkdownChunk()
        await self.mount(part.widget)
        return True


def next_cut(text: str, start: int, fences: int) -> int | None:
    """Where the chunk starting at ``start`` should end: after a paragraph break outside code,
    as near ``CHUNK_CHARS`` as possible; None when the text has no such break yet."""
    if len(text) - start <= CHUNK_CHARS:
        return None
    cut = text.rfind("\n\n", start + 1, start + CHUNK_CHARS)
    if cut < 0:
        cut = text.find("\n\n", start + CHUNK_CHARS)
    while cut >= 0 and (fences + text.count("```", start, cut)) % 2:
        closing = text.find("```", cut)
        cut = -1 if closing < 0 else text.find("\n\n", closing)
    return None if cut < 0 else cut + 2


def split_chunks(text: str) -> list[str]:
    """A finished text cut into chunks the way streaming would have cut it."""
    chunks: list[str] = []
    start = fences = 0
    while (cut := next_cut(text, start, fences)) is not None:
        chunks.append(text[start:cut])
        fences += text.count("```", start, cut)
        start = cut
    chunks.append(text[start:])
    return chunks
