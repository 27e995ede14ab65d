"""Where a growing paragraph's rendered lines are final, so a stream re-renders only after them.

The last block of a streamed answer is often one paragraph that grows for a long time (a
model that writes no line break in hundreds of words). Its first rendered lines stop changing
long before it ends: Rich wraps greedily, so a line is final once the word after it is
complete and did not fit; and Markdown's inline syntax reaches across a point only through a
construct still open there. ``MarkdownStream`` keeps the lines before such a point (a *cut*)
and renders only the text after it, as a paragraph of its own.

A cut is taken only where that is exact, which these functions decide from what the renderer
produced, not from a model of it: the text before the cut, rendered alone, must give exactly
the lines kept (so the wrap breaks there), its inline tokens must all be closed (no literal
``*``, `````, ``[``, ``<``, ``&``, ``\\``, ``|``... that later text could pair with, nothing
but text, breaks, code spans, emphasis and links), and the first word after the cut must be
complete and plain. Anything else simply takes no cut: the paragraph renders whole, as before.

Pure functions over markdown-it tokens and strings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it.token import Token

# Characters that open, close or escape inline constructs (and ``|``, a table's cells): a
# literal one in a paragraph's text may still pair with text that has not arrived yet.
SPECIAL = frozenset("*_`[]<>!&\\~|")
_CLOSED = frozenset(
    {
        "text",
        "softbreak",
        "hardbreak",
        "code_inline",
        "strong_open",
        "strong_close",
        "em_open",
        "em_close",
        "s_open",
        "s_close",
        "link_open",
        "link_close",
    }
)
_DESTINATION = re.compile(r"\](\([^()\s]*\))")  # a link's address, which is not drawn
KEEP = 2  # the last rendered lines that are never cut off: the last word may still grow


def paragraph_inline(tokens: Sequence[Token], skip: int = 0) -> Token | None:
    """The inline token of the paragraph that ``tokens[skip:]`` are, or None when they are
    anything else (another block, more than one block, nothing)."""
    body = tokens[skip:]
    if len(body) == 3 and body[0].type == "paragraph_open" and body[2].type == "paragraph_close":
        return body[1]
    return None


def self_contained(inline: Token) -> bool:
    """Whether nothing in this paragraph's inline content can pair with text written after
    it: every construct in it is closed and its text holds no literal special character."""
    for child in inline.children or ():
        if child.type not in _CLOSED:
            return False
        if child.type == "text" and not SPECIAL.isdisjoint(child.content):
            return False
    return True


def no_controls(text: str) -> bool:
    """Whether ``text`` has no control character but line feeds (no tab, whose width depends
    on where its line starts; no escape sequence, which the renderer removes whole)."""
    return not any(
        (character < " " and character != "\n") or "\x7f" <= character <= "\x9f" for character in text
    )


def plain_source(text: str) -> bool:
    """Whether ``text`` has no control and no special character."""
    return no_controls(text) and SPECIAL.isdisjoint(text)


def _counted(character: str) -> bool:
    return not character.isspace() and character not in SPECIAL


def line_start(source: str, shown: Sequence[str]) -> int | None:
    """Where in ``source`` the text of the rendered lines ``shown`` (the last lines of its
    render) begins, if that place can be a cut: after whitespace, at a letter, whose word is
    complete (whitespace follows it), plain, and the first word shown. None otherwise.

    Counted from the end, in characters that are neither whitespace nor special, which markup
    does not add or remove in plain text; a guess that ``MarkdownStream`` checks by rendering.
    """
    wanted = sum(1 for line in shown for character in line if _counted(character))
    if not wanted:
        return None
    hidden = {n for match in _DESTINATION.finditer(source) for n in range(*match.span(1))}
    position = len(source)
    while wanted and position:
        position -= 1
        if _counted(source[position]) and position not in hidden:
            wanted -= 1
    if wanted or not position or not source[position - 1].isspace():
        return None
    end = position
    while end < len(source) and not source[end].isspace():
        end += 1
    word = source[position:end]
    if end == len(source) or not plain_source(word):
        return None
    # A letter begins no block; a number does only as a list's marker ("2." or "2)").
    if not (word[0].isalpha() or (word[0].isdigit() and word.isalnum())):
        return None
    if not shown or not shown[0].lstrip().startswith(source[position:end]):
        return None  # a link's address or an escape in the lines counted: the count is off
    return position
