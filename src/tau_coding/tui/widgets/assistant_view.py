"""An assistant reply: Markdown text (streamed incrementally) and collapsible thinking.

Each text block of the reply is one ``MarkdownStream``: while the reply streams, only its last
Markdown block is re-rendered, once per frame at most (the app's frame scheduler coalesces
the deltas), so the cost of a frame does not grow with the length of the reply.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from tau_agent.content import TextContent, ThinkingContent
from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.state import AssistantItem
from tau_coding.tui.widgets.markdown_stream import MarkdownStream

THINKING_HINT = "Thinking… (Ctrl+T to show)"


class ThinkingView(Vertical):
    """A placeholder line (``hint``: an extension's, else Tau's), or the reasoning itself when
    the transcript has ``-show-thinking``."""

    def __init__(self, text: str = "", hint: str | None = None) -> None:
        super().__init__(classes="thinking")
        self._text = text
        self._hint = hint or THINKING_HINT

    def compose(self) -> ComposeResult:
        yield Static(self._hint, classes="thinking-hint")
        yield Static(Text(safe_text(self._text)), classes="thinking-body")

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.query_one(".thinking-body", Static).update(Text(safe_text(text)))


class AssistantView(Vertical):
    def __init__(self, item: AssistantItem, thinking_hint: str | None = None) -> None:
        super().__init__(classes="assistant")
        self.item = item
        self._hint = thinking_hint  # what hidden thinking says (None: Tau's THINKING_HINT)
        self._parts: dict[int, Widget] = {}  # content index -> its MarkdownStream or ThinkingView
        self._finished = False

    def compose(self) -> ComposeResult:
        if not self.item.done:
            return
        for index, block in enumerate(self.item.message.content):
            if isinstance(block, TextContent) and block.text.strip():
                widget: Widget = MarkdownStream(block.text)
            elif isinstance(block, ThinkingContent) and not block.redacted and block.thinking.strip():
                widget = ThinkingView(block.thinking, self._hint)
            else:
                continue
            self._parts[index] = widget
            yield widget
        self._finished = True

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # As MarkdownStream's: a reply grows as it streams; its new size needs no second layout.
        if (
            size.width == self._size.width
            and not self.styles.border_bottom[0]
            and not self.styles.padding.bottom
        ):
            # Taller or shorter, its own rows (background, behind its parts) are the same at every
            # height: Textual would draw every one of them again for the new size.
            self._size = size
        return super()._size_updated(size, virtual_size, container_size, layout=False)

    def sources(self) -> list[str]:
        """The text of every Markdown block, in order (what the reply shows)."""
        return [stream.source for stream in self.query(MarkdownStream)]

    async def sync(self) -> None:
        """Show what arrived since the last call."""
        if self._finished:
            return
        for index, block in enumerate(self.item.message.content):
            if isinstance(block, TextContent):
                stream = self._parts.get(index)
                if stream is None:
                    if not block.text:
                        continue
                    stream = self._parts[index] = MarkdownStream()
                    await self.mount(stream)
                assert isinstance(stream, MarkdownStream)
                stream.set_source(block.text)
            elif isinstance(block, ThinkingContent) and not block.redacted:
                view = self._parts.get(index)
                if view is None:
                    view = self._parts[index] = ThinkingView(hint=self._hint)
                    await self.mount(view)
                assert isinstance(view, ThinkingView)
                view.set_text(block.thinking)
        self._finished = self.item.done
