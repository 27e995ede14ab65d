"""An assistant reply: Markdown text (streamed incrementally) and collapsible thinking.

While the reply streams, each text block feeds only its new characters to a MarkdownStream,
which appends to the last Markdown block instead of re-parsing the whole reply; ``sync`` is
called at most once per frame by the app, however many deltas arrived in between.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownStream

from tau_agent.content import TextContent, ThinkingContent
from tau_coding.tui.state import AssistantItem

THINKING_HINT = "Thinking… (Ctrl+T to show)"


class ThinkingView(Vertical):
    """A placeholder line, or the reasoning itself when the transcript has ``-show-thinking``."""

    def __init__(self, text: str = "") -> None:
        super().__init__(classes="thinking")
        self._text = text

    def compose(self) -> ComposeResult:
        yield Static(THINKING_HINT, classes="thinking-hint")
        yield Static(Text(self._text), classes="thinking-body")

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.query_one(".thinking-body", Static).update(Text(text))


@dataclass(slots=True)
class _Part:
    widget: Widget
    shown: int = 0
    stream: MarkdownStream | None = None


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
                widget: Widget = Markdown(block.text)
                self._parts[index] = _Part(widget, len(block.text))
            elif isinstance(block, ThinkingContent) and not block.redacted and block.thinking.strip():
                widget = ThinkingView(block.thinking)
                self._parts[index] = _Part(widget, len(block.thinking))
            else:
                continue
            yield widget
        self._finished = True

    async def sync(self) -> None:
        """Show what arrived since the last call; closes the streams once the reply is done."""
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
        if self.item.done:
            self._finished = True
            for part in self._parts.values():
                if part.stream is not None:
                    await part.stream.stop()
                    part.stream = None

    async def _sync_text(self, index: int, text: str) -> None:
        part = self._parts.get(index)
        if part is None:
            if not text:
                return
            markdown = Markdown()
            part = self._parts[index] = _Part(markdown, 0, Markdown.get_stream(markdown))
            await self.mount(markdown)
        if len(text) == part.shown:
            return
        assert isinstance(part.widget, Markdown)
        if len(text) > part.shown and part.stream is not None:
            await part.stream.write(text[part.shown :])
        else:  # the text was replaced rather than grown
            await part.widget.update(text)
        part.shown = len(text)
