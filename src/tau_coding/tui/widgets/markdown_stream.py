"""MarkdownStream: a reply's text as Markdown, re-rendering only what can still change.

While a reply streams, its text only grows, and only its last top-level Markdown block can
still change (markdown_blocks.py). The widget keeps the rendered lines of the finished blocks
and, on each new text, renders the last block alone: a frame costs the size of that block,
not of the reply. The lines are drawn through Textual's line API, so a frame also repaints
only the lines of the last block, and asks for a new layout only when the height changed.

With a ``max-height`` (inline mode's live region sets one) the widget is at most that tall and
shows the newest lines: once an answer has grown to it, the height stops changing, and a
frame repaints the widget alone, with no new layout of the screen (Textual's costliest step,
and inline it also resizes the region, which lays the screen out a second time).

A caller may rely on: ``source`` is the text shown; what is drawn equals one Rich render of
``answer_markdown(source)`` at the same width, line for line, however the text arrived
(``tests/coding/tui/test_markdown_stream.py``); a text that is not an extension of the
previous one starts over.
"""

from __future__ import annotations

from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.markdown_blocks import Block, split_finished
from tau_coding.tui.markdown_render import answer_markdown

_LEAD = "x\n\n"  # a paragraph of one line, which Rich follows by a blank line


class MarkdownStream(Widget):
    DEFAULT_CSS = "MarkdownStream { height: auto; }"

    def __init__(self, source: str = "") -> None:
        super().__init__(classes="md")
        self.source = ""
        self._blocks: list[Block] = []  # finished blocks, in order
        self._rest = 0  # where the text after them begins
        self._looked = 0  # no block can have begun before this offset that was not seen
        self._whole = False  # link references: render the text in one piece
        self._key: tuple[int, object] | None = None  # (width, style) the lines are for
        self._done: list[Strip] = []  # lines of the first ``_drawn`` finished blocks
        self._drawn = 0
        self._last: list[Strip] | None = None  # lines of the rest, when rendered
        self._lines: list[Strip] = []
        self._cap: int | None = None  # the most lines shown (max-height), as of the last layout
        self.set_source(source)

    def set_source(self, source: str) -> None:
        """Show ``source``: a longer version of the text is rendered from its last block on."""
        if source == self.source:
            return
        if not source.startswith(self.source):
            self._blocks, self._rest, self._looked, self._whole = [], 0, 0, False
            self._done, self._drawn, self._key = [], 0, None
        self.source = source
        self._last = None
        self._repaint()

    # -- drawing -------------------------------------------------------------------------------

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        limit = self.styles.max_height
        self._cap = None if limit is None else max(0, int(limit.resolve(container, viewport)))
        return self._shown(len(self.lines(width)))

    def _shown(self, count: int) -> int:
        """How many of ``count`` lines are shown (the newest ones)."""
        return count if self._cap is None else min(count, self._cap)

    def render_line(self, y: int) -> Strip:
        # The lines of the last layout (a new width or new styles always bring one first, and
        # new text resets them); ``self.size`` walks the DOM, too slow to ask for every line.
        lines = self._lines if self._last is not None else self.lines(self.size.width)
        y += len(lines) - self._shown(len(lines))
        return lines[y] if 0 <= y < len(lines) else Strip.blank(self.size.width, self.visual_style.rich_style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._last = None

    def lines(self, width: int) -> list[Strip]:
        """Every line of the text rendered at ``width`` (cached; only new text is rendered)."""
        style = self.visual_style  # one object until the styles change: compared by identity
        if self._key is None or self._key[0] != width or self._key[1] is not style:
            self._key, self._done, self._drawn, self._last = (width, style), [], 0, None
        elif self._last is not None:
            return self._lines
        self._settle()
        for block in self._blocks[self._drawn :]:
            self._done.extend(self._render_source(block.source, width, self._gap_before(self._drawn)))
            self._drawn += 1
        self._last = self._render_source(self.source[self._rest :], width, self._gap_before(self._drawn))
        self._lines = [*self._done, *self._last]
        return self._lines

    def _gap_before(self, index: int) -> bool:
        return index > 0 and self._blocks[index - 1].gap

    def _render_source(self, source: str, width: int, after_gap: bool) -> list[Strip]:
        """``source`` rendered as it renders after a block Rich follows by a blank line, or not.

        Whether Rich writes that blank line depends on the block before and, for a block with
        blocks inside (a list, a quote, a table), on its own last inner block. Rendering it
        after a one-line paragraph and dropping that line gets both right without knowing how.
        """
        if not safe_text(source).strip():
            return []
        lead = _LEAD if after_gap else ""
        visual = visualize(self, answer_markdown(lead + source))
        strips = Visual.to_strips(self, visual, width, None, self.visual_style)
        return strips[1:] if after_gap else strips

    def _settle(self) -> None:
        """Move the blocks finished since the last look out of the text still rendered whole."""
        text = self.source
        # A block begins at a line start, decided by that line's first character: look again
        # only once a character follows a line feed not looked past yet.
        if self._whole or text.find("\n", self._looked, len(text) - 1) < 0:
            return
        split = split_finished(text[self._rest :])
        if split.references:
            self._whole = True
            self._blocks, self._rest, self._done, self._drawn = [], 0, [], 0
            return
        self._blocks.extend(split.blocks)
        self._rest += split.rest
        self._looked = text.rfind("\n", 0, len(text) - 1) + 1

    def _repaint(self) -> None:
        """Ask Textual for the least work: the last block's lines, or a layout when the height changed."""
        width = self.size.width
        if not self.is_mounted or self._key is None or self._key[0] != width or not width:
            self.refresh(layout=True)
            return
        key, count, top = self._key, len(self._lines), len(self._done)
        lines = self.lines(width)
        height = self._shown(len(lines))
        if self._key is not key or height != self._shown(count) or len(self._done) < top:
            self.refresh(layout=True)
        elif len(lines) != count:  # as tall as before, the newest lines: all of them moved up
            self.refresh()
        else:
            first = len(lines) - height  # the first line shown
            self.refresh(Region(0, max(0, top - first), width, len(lines) - max(top, first)))
