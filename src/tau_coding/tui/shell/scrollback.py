"""Finished transcript items as terminal text, for inline mode's scrollback.

In inline mode (docs/tui.md) an item leaves the live region once it can no longer change, and
is written once, above that region, into the terminal's own scrollback. ``settled`` says how
far that is; ``scrollback_text`` renders items with Rich as the transcript shows them (the same
Markdown, tool headers and bodies, diff colours), as ANSI text for a terminal ``width`` wide.
Items are only written in order: a running tool keeps every item after it live.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.segment import Segment, Segments
from rich.style import Style
from rich.text import Text

from tau_agent.content import TextContent, ThinkingContent
from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.diff_text import DiffColors
from tau_coding.tui.items import AssistantItem, BashItem, ErrorItem, Item, NoticeItem, ToolItem, UserItem
from tau_coding.tui.markdown_render import answer_markdown
from tau_coding.tui.widgets.notice_view import bash_text, error_text
from tau_coding.tui.widgets.tool_row import body, header_text


@dataclass(frozen=True, slots=True)
class Palette:
    """The theme's colours the scrollback uses (Rich colour strings)."""

    primary: str = "blue"
    secondary: str = "magenta"
    success: str = "green"
    warning: str = "yellow"
    error: str = "red"
    muted: str = "bright_black"
    surface: str = "default"


def is_settled(item: Item) -> bool:
    """True when ``item`` will not change any more (a reply that ended, a tool with its result)."""
    if isinstance(item, AssistantItem):
        return item.done
    if isinstance(item, ToolItem):
        return item.status in ("ok", "error")
    return True


def settled(items: Sequence[Item], start: int) -> int:
    """The end of the run of settled items from ``start``: ``items[start:end]`` may be written."""
    end = start
    while end < len(items) and is_settled(items[end]):
        end += 1
    return end


class LeftBar:
    """``renderable`` with a coloured bar down its left edge (the transcript's ``border-left``)."""

    def __init__(self, renderable: RenderableType, style: str) -> None:
        self.renderable = renderable
        self.style = Style.parse(style)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width - 1)
        lines = console.render_lines(self.renderable, options.update_width(width), pad=False)
        bar = Segment("▌", self.style)
        newline = Segment.line()
        for line in lines:
            yield bar
            yield from line
            yield newline


def item_renderable(
    item: Item,
    palette: Palette,
    *,
    show_thinking: bool = False,
    expand_tools: bool = False,
    thinking_hint: str | None = None,
) -> RenderableType:
    """How ``item`` looks in the scrollback (a blank line above the items that start a block)."""
    if isinstance(item, UserItem):
        text = Padding(Text(safe_text(item.text)), (0, 1), style=f"on {palette.surface}", expand=True)
        return Group(Text(""), LeftBar(text, palette.primary))
    if isinstance(item, AssistantItem):
        return _reply(item, palette, show_thinking, thinking_hint or INLINE_THINKING_HINT)
    if isinstance(item, ToolItem):
        colour = {"ok": palette.success, "error": palette.error}.get(item.status, palette.warning)
        header = header_text(item, item.ended if item.ended is not None else time.monotonic())
        header.stylize(colour)
        diff = DiffColors(added=palette.success, removed=palette.error, hunk=palette.primary)
        shown = body(item, expand_tools, diff)
        parts: list[RenderableType] = [header]
        if shown is not None:
            parts.append(Padding(shown, 0, style=palette.muted))
        return Padding(LeftBar(Padding(Group(*parts), (0, 1)), colour), (0, 0, 0, 1))
    if isinstance(item, BashItem):
        return _block(LeftBar(Padding(bash_text(item), (0, 1)), palette.secondary))
    if isinstance(item, NoticeItem):
        tones = {"warning": palette.warning, "compaction": palette.secondary, "branch": palette.secondary}
        style = tones.get(item.tone, palette.muted)
        if item.tone in ("compaction", "branch"):
            style += " italic"
        return _block(Padding(Text(safe_text(item.text), style=style), (0, 1)))
    assert isinstance(item, ErrorItem)
    failure = error_text(item)
    failure.stylize(palette.error)
    return _block(LeftBar(Padding(failure, (0, 1)), palette.error))


def _block(renderable: RenderableType) -> RenderableType:
    return Group(Text(""), Padding(renderable, (0, 0, 0, 1)))


INLINE_THINKING_HINT = "Thinking… (hidden; Ctrl+T shows it)"


def _reply(item: AssistantItem, palette: Palette, show_thinking: bool, hint: str) -> RenderableType:
    parts: list[RenderableType] = []
    for block in item.message.content:
        if isinstance(block, TextContent) and block.text.strip():
            parts.append(Padding(answer_markdown(block.text), (0, 1)))
        elif isinstance(block, ThinkingContent) and not block.redacted and block.thinking.strip():
            shown = safe_text(block.thinking) if show_thinking else hint
            parts.append(Padding(Text(shown, style=f"{palette.muted} italic"), (0, 2)))
    return Group(*parts)


def scrollback_text(
    items: Iterable[Item],
    width: int,
    palette: Palette,
    *,
    color_system: str | None = "truecolor",
    show_thinking: bool = False,
    expand_tools: bool = False,
    thinking_hint: str | None = None,
    after: Callable[[Item, int], str] | None = None,
) -> str:
    """``items`` rendered for a terminal ``width`` columns wide: ANSI text, lines ending in ``\\r\\n``
    (the terminal is in raw mode, where a bare line feed keeps the column). ``after(item, width)``:
    terminal output written as it is below an item's lines (its images: image_drawing.py)."""
    out = io.StringIO()
    console = Console(
        file=out,
        width=max(20, width),
        force_terminal=color_system is not None,
        color_system=color_system,  # type: ignore[arg-type]  # Rich's Literal; the app's console says which
        legacy_windows=False,
        emoji=False,
        highlight=False,
        markup=False,
        soft_wrap=False,
    )
    segments: list[Segment] = []
    for item in items:
        renderable = item_renderable(
            item, palette, show_thinking=show_thinking, expand_tools=expand_tools, thinking_hint=thinking_hint
        )
        # The transcript's own margin (app.tcss: #transcript), so an item written here keeps the
        # columns and the wrapping it had while it was live in the region below.
        renderable = Padding(renderable, (0, 1))
        for line in console.render_lines(renderable, console.options, pad=False):
            segments += _rstrip(line)
            segments.append(Segment.line())
        if after is not None and (drawn := after(item, width)):
            console.print(Segments(segments), crop=False)
            segments = []
            out.write(drawn)
    console.print(Segments(segments), crop=False)
    return out.getvalue().replace("\r\n", "\n").replace("\n", "\r\n")


def _rstrip(line: list[Segment]) -> list[Segment]:
    """``line`` without its trailing blanks (spaces with no background: padding, not content),
    so that copying from the scrollback gets no runs of spaces."""
    line = list(line)
    while line:
        last = line[-1]
        if last.control or (last.style is not None and last.style.bgcolor is not None):
            break
        text = last.text.rstrip(" ")
        if text:
            line[-1] = Segment(text, last.style)
            break
        line.pop()
    return line


__all__ = ["LeftBar", "Palette", "is_settled", "item_renderable", "scrollback_text", "settled"]
