"""MarkdownStream: a reply's text as Markdown, re-rendering only what can still change.

While a reply streams, its text only grows, and only its last top-level Markdown block can
still change (markdown_blocks.py). The widget keeps the rendered lines of the finished blocks
and, on each new text, renders the last block alone: a frame costs the size of that block,
not of the reply. Of a last block that is a paragraph, a code block or a list, the lines that
can no longer change are kept too (paragraph_cut.py, code_cut.py, list_cut.py). The lines are
drawn through Textual's line API, so a frame also repaints only the lines after those kept,
and asks for a new layout only when the height changed; the rows Textual already drew above
them are kept through that layout too.

With a ``max-height`` (inline mode's live region sets one) the widget is at most that tall and
shows the newest lines: once an answer has grown to it, the height stops changing, and a
frame repaints the widget alone, with no new layout of the screen (Textual's costliest step,
and inline it also resizes the region, which lays the screen out a second time).

A caller may rely on: ``source`` is the text shown; what is drawn equals one Rich render of
``answer_markdown(source)`` at the same width, line for line, however the text arrived
(``tests/coding/tui/test_markdown_stream.py``, ``test_markdown_stream_blocks.py``); a text that is not an extension of the
previous one starts over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.geometry import Region, Size
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.code_cut import (
    Fence,
    Tokens,
    block_source,
    fence_of,
    highlight_tokens,
    segment,
    split_lines,
)
from tau_coding.tui.list_cut import list_items
from tau_coding.tui.markdown_blocks import Block, split_finished
from tau_coding.tui.markdown_render import answer_markdown, given_code_tokens
from tau_coding.tui.paragraph_cut import KEEP, line_start, no_controls, paragraph_inline, self_contained

if TYPE_CHECKING:
    from markdown_it.token import Token

_LEAD = "x\n\n"  # a paragraph of one line, which Rich follows by a blank line
_FENCE_STEP = 4  # a growing code block's lines are kept this many at a time
_LIST_STEP = 2  # and a growing list's items


class MarkdownStream(Widget):
    DEFAULT_CSS = "MarkdownStream { height: auto; }"

    def __init__(self, source: str = "") -> None:
        super().__init__(classes="md")
        self.source = ""
        self._blocks: list[Block] = []  # finished blocks, in order
        self._rest = 0  # where the text after them begins
        self._looked = 0  # the lines before this offset were split into blocks (plus one: and a begun one)
        self._whole = False  # link references: render the text in one piece
        self._key: tuple[int, object] | None = None  # (width, style) the lines are for
        self._done: list[Strip] = []  # lines of the first ``_drawn`` finished blocks
        self._drawn = 0
        self._last: list[Strip] | None = None  # lines of the rest, when rendered
        self._cut = 0  # in a last block that is one paragraph: where its lines not kept begin
        self._head: list[Strip] = []  # the lines of the rest before ``_cut`` (paragraph_cut.py)
        self._tried = 0  # how many lines the text after the cut had when a cut last failed
        self._fence_line = 0  # in a last block that is a code block: its lines in ``_head`` (code_cut.py)
        self._fence_head: Tokens = []  # the tokens that coloured them
        self._fence_opening = ""  # the block's opening line
        self._item = 0  # in a last block that is a list: its items in ``_head`` (list_cut.py)
        self._item_start = 0  # where the first item not in ``_head`` begins (in the escape-free rest)
        self._item_width = 0  # the width of the list's numbers when its first items were kept
        self._lines: list[Strip] = []
        self._cap: int | None = None  # the most lines shown (max-height), as of the last layout
        self._uncuts = 0  # how many times the lines kept of the last block were dropped
        self._keeps_lines = False  # the next new size changes no line drawn but the ones marked
        self.set_source(source)

    def set_source(self, source: str) -> None:
        """Show ``source``: a longer version of the text is rendered from its last block on."""
        if source == self.source:
            return
        if not source.startswith(self.source):
            self._blocks, self._rest, self._looked, self._whole = [], 0, 0, False
            self._done, self._drawn, self._key = [], 0, None
            self._uncut()
        self.source = source
        self._last = None
        self._repaint()

    # -- drawing -------------------------------------------------------------------------------

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        limit = self.styles.max_height
        self._cap = None if limit is None else max(0, int(limit.resolve(container, viewport)))
        return self._shown(len(self.lines(width)))

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # Textual gives a widget its virtual size after a layout and, when that changed, asks for
        # a second layout of the whole screen (the size is reactive with layout=True); nothing
        # scrolls inside this widget, so that pass would find nothing to do, at 3-5 ms a line.
        if self._keeps_lines and size.width == self._size.width:
            self._size = size  # see _repaint: Textual marks every line of a resized widget to redraw
        self._keeps_lines = False
        return super()._size_updated(size, virtual_size, container_size, layout=False)

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
            self._uncut()
        elif self._last is not None:
            return self._lines
        rest = self._rest
        self._settle()
        if self._rest != rest or self._whole:
            self._uncut()
        for block in self._blocks[self._drawn :]:
            self._done.extend(self._render_source(block.source, width, self._gap_before(self._drawn)))
            self._drawn += 1
        self._last = self._render_rest(width)
        self._lines = [*self._done, *self._head, *self._last]
        return self._lines

    def _gap_before(self, index: int) -> bool:
        return index > 0 and self._blocks[index - 1].gap

    def _render_source(self, source: str, width: int, after_gap: bool) -> list[Strip]:
        return self._render_text(source, width, after_gap)[0]

    def _render_text(self, source: str, width: int, after_gap: bool) -> tuple[list[Strip], Token | None]:
        """``source`` rendered as it renders after a block Rich follows by a blank line, or not;
        and the inline token of its paragraph when it is one paragraph.

        Whether Rich writes that blank line depends on the block before and, for a block with
        blocks inside (a list, a quote, a table), on its own last inner block. Rendering it
        after a one-line paragraph and dropping that line gets both right without knowing how.
        """
        if not safe_text(source).strip():
            return [], None
        lead = _LEAD if after_gap else ""
        markdown = answer_markdown(lead + source)
        strips = Visual.to_strips(self, visualize(self, markdown), width, None, self.visual_style)
        inline = paragraph_inline(markdown.parsed, 3 if after_gap else 0)
        return (strips[1:] if after_gap else strips), inline

    def _uncut(self) -> None:
        """Render the last block whole again (no lines of it kept)."""
        self._uncuts += 1
        self._cut, self._head, self._tried = 0, [], 0
        self._fence_line, self._fence_head = 0, []
        self._item, self._item_start = 0, 0

    def _render_rest(self, width: int) -> list[Strip]:
        """The lines of the last block not in ``_head``: after the cut, or all of them; and a
        new cut when the block is one paragraph and enough of it is final (paragraph_cut.py)."""
        rest = self.source[self._rest :]
        if not self._cut and not self._whole:
            text = safe_text(rest)
            code = self._render_code(text, width)
            if code is None:
                code = self._render_list(text, width)
            if code is not None:
                return code
        if self._cut:
            tail = rest[self._cut :]
            first_line = tail.split("\n", 1)[0]
            lines, inline = self._render_text(tail, width, False)
            if inline is None or (rest[self._cut - 1] != "\n" and "\t" in first_line):
                # the paragraph became something else (a heading, a table): whole again
                self._uncut()
        if not self._cut:
            tail = rest
            lines, inline = self._render_text(tail, width, self._gap_before(self._drawn))
        if inline is None or self._whole or len(lines) < 2 * KEEP or len(lines) == self._tried:
            return lines
        self._tried = len(lines)  # a cut that failed is tried again when a line is added
        start = None
        for kept in range(len(lines) - KEEP, max(0, len(lines) - KEEP - 4), -1):
            # the newest of the last few lines whose beginning can be a cut
            start = line_start(tail, [strip.text for strip in lines[kept:]])
            if start is not None:
                break
        if start is None or not no_controls(tail[:start]):
            return lines
        region, region_inline = self._render_text(
            tail[:start], width, not self._cut and self._gap_before(self._drawn)
        )
        if region_inline is None or not self_contained(region_inline) or region != lines[:kept]:
            return lines
        self._head.extend(lines[:kept])
        self._cut += start
        self._tried = 0
        return lines[kept:]

    def _render_code(self, text: str, width: int) -> list[Strip] | None:
        """When ``text`` is one fenced code block: the lines of its code not in ``_head``, after
        moving into ``_head`` those of its finished lines before the last few (code_cut.py)."""
        fence = fence_of(text)
        if fence is None:
            if self._fence_line:
                self._uncut()
            return None
        tokens = highlight_tokens(fence)
        head, tail = split_lines(tokens, self._fence_line)
        if self._fence_line and (fence.opening != self._fence_opening or head != self._fence_head):
            self._uncut()  # a line above the cut is coloured otherwise now: render the block whole
            head, tail = [], tokens
        lines = fence.code.split("\n")
        if self._fence_line >= len(lines):
            return []  # a closing line arrived: the block ends with the lines kept
        stop = len(lines) - KEEP
        # the text Rich highlights is the block's code with its trailing whitespace removed: a
        # part of it that ends in whitespace would render as a shorter part
        while stop > self._fence_line and (not lines[stop - 1] or lines[stop - 1][-1].isspace()):
            stop -= 1
        if stop - self._fence_line >= _FENCE_STEP:
            kept, tail = split_lines(tail, stop - self._fence_line)
            self._head.extend(self._render_code_lines(fence, self._fence_line, stop, kept, width))
            self._fence_line, self._fence_head, self._fence_opening = stop, head + kept, fence.opening
        return self._render_code_lines(fence, self._fence_line, None, tail, width)

    def _render_list(self, text: str, width: int) -> list[Strip] | None:
        """When ``text`` is one list: the lines of its items not in ``_head``, after moving into
        ``_head`` those of the items before the last (list_cut.py)."""
        items = list_items(text)
        if items is None:
            if self._item:
                self._uncut()
            return None
        held = self._item < len(items.starts) and items.starts[self._item] == self._item_start
        if self._item and (not held or items.width() != self._item_width):
            self._uncut()  # the list changed above its last items, or its numbers widened
        gap = not self._item and self._gap_before(self._drawn)
        lines = self._render_items(text[self._item_start :], width, gap)
        stop = len(items.starts) - 1  # the last item may still grow
        if stop - self._item < _LIST_STEP or not items.counted[stop]:
            return lines
        kept = self._render_items(text[self._item_start : items.starts[stop]], width, gap)
        if lines[: len(kept)] != kept:
            return lines
        if not self._item:
            self._item_width = items.width()
        self._head.extend(kept)
        self._item, self._item_start = stop, items.starts[stop]
        return lines[len(kept) :]

    def _render_items(self, source: str, width: int, gap: bool) -> list[Strip]:
        """Items of the list, as they render after the first ``_item`` (Rich begins a text that
        begins with a list by an empty line, which it does not draw inside a list): the first
        ones as any block, the others after a paragraph and the blank line that follows it."""
        if not self._item:
            return self._render_source(source, width, gap)
        return self._render_source(_LEAD + source, width, False)[2:]

    def _render_code_lines(
        self, fence: Fence, first: int, stop: int | None, tokens: Tokens, width: int
    ) -> list[Strip]:
        code = segment(fence.code, first, stop)
        with given_code_tokens(code, tokens):
            return self._render_source(
                block_source(fence, code), width, not first and self._gap_before(self._drawn)
            )

    def _settle(self) -> None:
        """Move the blocks finished since the last look out of the text still rendered whole."""
        text = self.source
        # How a line begins may change what it is until it is finished ("   *" is a list item,
        # "   *em*" a lazy line of the paragraph before it); a finished line, or one that begins
        # with a letter (paragraph text, whatever follows), plays its part for good.
        last = text.rfind("\n") + 1
        end = len(text) if text[last:].lstrip()[:1].isalpha() else last
        looked = last + (end > last)
        if self._whole:
            return
        # A link reference is defined as soon as its line says so, and changes the links before it.
        references = "]:" in text[end:] and split_finished(text[self._rest :]).references
        if looked <= self._looked and not references:
            return
        split = split_finished(text[self._rest : end])
        if split.references or references:
            self._whole = True
            self._blocks, self._rest, self._done, self._drawn = [], 0, [], 0
            return
        self._blocks.extend(split.blocks)
        self._rest += split.rest
        self._looked = looked

    def _repaint(self) -> None:
        """Ask Textual for the least work: the last block's lines, or a layout when the height changed."""
        width = self.size.width
        if not self.is_mounted or self._key is None or self._key[0] != width or not width:
            self.refresh(layout=True)
            return
        key, count, done, kept, uncuts = (
            self._key,
            len(self._lines),
            len(self._done),
            len(self._head),
            self._uncuts,
        )
        lines = self.lines(width)
        height = self._shown(len(lines))
        # the lines before ``top`` are as they were drawn (a cut taken again may have recoloured them)
        top = done + (min(kept, len(self._head)) if self._uncuts == uncuts else 0)
        if self._key is not key or len(self._done) < done:
            self.refresh(layout=True)
        elif height != self._shown(count):
            if height == len(lines) and self._shown(count) == count:
                # Taller or shorter, every line where it was: those above ``top`` keep their cells
                # (Textual would draw every line of the widget again for its new size).
                self._keeps_lines = True
                self.refresh(Region(0, top, width, max(len(lines), count) - top), layout=True)
            else:
                self.refresh(layout=True)
        elif len(lines) != count:  # as tall as before, the newest lines: all of them moved up
            self.refresh()
        else:
            first = len(lines) - height  # the first line shown
            self.refresh(Region(0, max(0, top - first), width, len(lines) - max(top, first)))
