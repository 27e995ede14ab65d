"""Where a growing fenced code block's rendered lines are final, so a stream re-renders only its last lines.

A streamed answer's last block is often a long code block that grows a line at a time, and
rendering it whole costs ~0.4 ms a line at every frame. Rich draws a code block line by line:
each line's cells depend only on its own characters and the colours the lexer gave them. The
text of a finished line never changes, but its colours may (a ``/*`` or a string opened above
and closed below recolours the lines between), so the block is lexed whole at each frame (about
a third of a full render) and a line keeps its rendered cells only while the lexer still gives its
characters the same colours. The lines after the cut are rendered with the colours the whole
lex gave them (``markdown_render.given_code_tokens``), so they are drawn as in a full render.

Pure functions; pygments is imported on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from tau_coding.tui.markdown_blocks import parser

if TYPE_CHECKING:
    from pygments.lexer import Lexer

Tokens = list[tuple[object, str]]  # (pygments token type, text), as ``Lexer.get_tokens`` gives them
TAB_SIZE = 4  # rich.syntax.Syntax's default, which Rich's Markdown keeps


@dataclass(frozen=True, slots=True)
class Fence:
    """A fenced code block that is the whole of a text: ``opening`` is its first line (with its
    line feed), ``lexer_name`` the language its info names, ``code`` what it shows (its content,
    trailing whitespace removed, as the renderer takes it)."""

    opening: str
    lexer_name: str
    code: str


def fence_of(source: str) -> Fence | None:
    """``source`` (escape-free text) as one fenced code block whose opening line is complete and
    not indented (so its content lines are the text's own lines), or None."""
    first = source.find("\n")
    if first < 0 or not source.startswith(("```", "~~~")):
        return None
    tokens = parser().parse(source)
    if len(tokens) != 1 or tokens[0].type != "fence":
        return None
    token = tokens[0]
    return Fence(source[: first + 1], (token.info or "").partition(" ")[0] or "text", token.content.rstrip())


@cache
def _lexer(name: str) -> Lexer:
    """The lexer Rich's Syntax uses for ``name`` (plain text when pygments has none by that name)."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=True, tabsize=TAB_SIZE)
    except ClassNotFound:
        return get_lexer_by_name("text", stripnl=False, ensurenl=True, tabsize=TAB_SIZE)


def highlight_tokens(fence: Fence) -> Tokens:
    """The tokens Rich's Syntax highlights ``fence.code`` with: its lexer's, over the code as
    Syntax prepares it (a final line feed added, tabs expanded)."""
    code = fence.code if fence.code.endswith("\n") else fence.code + "\n"
    return list(_lexer(fence.lexer_name).get_tokens(code.expandtabs(TAB_SIZE)))


def split_lines(tokens: Sequence[tuple[object, str]], line: int) -> tuple[Tokens, Tokens]:
    """``tokens`` of the first ``line`` lines (each with its line feed) and of the rest; a token
    that runs across the boundary is split there, both halves of its type."""
    head: Tokens = []
    seen = 0
    for index, (kind, value) in enumerate(tokens):
        if seen == line:
            return head, list(tokens[index:])
        start = 0
        while seen < line:
            feed = value.find("\n", start)
            if feed < 0:
                break
            seen += 1
            start = feed + 1
        if seen == line and start < len(value):
            head.append((kind, value[:start]))
            return head, [(kind, value[start:]), *tokens[index + 1 :]]
        head.append((kind, value))
    return head, []


def segment(code: str, first: int, stop: int | None = None) -> str:
    """Lines ``first`` to ``stop`` of ``code`` (to its end when None), joined by line feeds."""
    lines = code.split("\n")
    return "\n".join(lines[first:stop])


def block_source(fence: Fence, code: str) -> str:
    """A fenced block of ``code`` (lines of ``fence.code``, so none of them closes it), opened
    as ``fence`` is; left open, as a fence may be, to the end of the text."""
    return fence.opening + code
