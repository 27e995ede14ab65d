"""Where a streamed answer's Markdown may be cut: the top-level blocks that are finished.

In CommonMark a top-level block is closed for good once the next one has begun: text that
arrives later can extend only the last block. So every block but the last renders the same
alone as inside the whole text, and a streamed answer need re-render only its last block.
Two things break that independence, and ``split_finished`` reports them instead of cutting:
a link reference definition (``[x]: url``) changes how links written before it render, and
the renderer (Rich) separates blocks by a blank line or not depending on the block before,
which each ``Block`` carries as ``gap``.

The parser is configured as Rich's Markdown configures its own, so the blocks are the ones
Rich would render. Pure functions; markdown-it is imported on first use (not at launch).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING

from tau_coding.common.escape_stripping import safe_text

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@dataclass(frozen=True, slots=True)
class Block:
    """A finished top-level block: ``source`` is its text as written, from the start of its
    first line to the start of the next block (blank lines between them included); ``gap``:
    the renderer puts a blank line between it and whatever block follows."""

    source: str
    gap: bool


@dataclass(frozen=True, slots=True)
class Split:
    """``blocks`` are finished; the rest of the text, from ``rest`` on, may still change.
    ``references``: the text defines link references, so no block may be rendered alone."""

    blocks: tuple[Block, ...]
    rest: int
    references: bool = False


@cache
def parser() -> MarkdownIt:
    """The parser Rich's Markdown makes for each text, made once (markdown-it keeps no state
    between texts)."""
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")  # what rich.markdown uses


@cache
def _gap_after(token_type: str) -> bool:
    """Whether Rich's Markdown writes a blank line after a top-level block opened by ``token_type``."""
    from rich.markdown import Markdown, UnknownElement

    return Markdown.elements.get(token_type, UnknownElement).new_line


def split_finished(text: str) -> Split:
    """The finished top-level blocks at the start of ``text`` (every block but the last) and
    the offset where the last one begins. Offsets are in ``text`` as given; it is parsed as
    the renderer will see it (escape sequences and carriage returns removed, line feeds kept)."""
    env: dict[str, object] = {}
    tokens = parser().parse(safe_text(text), env)
    if env.get("references"):
        return Split((), 0, references=True)
    starts = [
        (token.map[0], token.type)
        for token in tokens
        if token.level == 0 and token.nesting >= 0 and token.map
    ]
    if len(starts) < 2:
        return Split((), 0)
    offsets = _line_offsets(text, starts[-1][0])
    blocks: list[Block] = []
    begin = 0
    for (_, kind), (line, _) in pairwise(starts):
        end = offsets[line]
        blocks.append(Block(text[begin:end], _gap_after(kind)))
        begin = end
    return Split(tuple(blocks), begin)


def _line_offsets(text: str, upto: int) -> list[int]:
    """``offsets[n]`` is where line ``n`` of ``text`` starts, for n up to ``upto``."""
    offsets = [0]
    position = 0
    while len(offsets) <= upto:
        position = text.index("\n", position) + 1
        offsets.append(position)
    return offsets
