"""Where a growing list's rendered lines are final, so a stream re-renders only its last items.

An item of a Markdown list is closed for good once the next item has begun, and Rich draws a
list item by item: each from its own content, its bullet, or its number and the width of the
list's last number. So ``MarkdownStream`` keeps the lines of the items before the last and
renders the list from there on alone. A numbered list is cut only at an item numbered as the
list counts it (Rich numbers from the list's start, not as written), and its kept lines hold
while the list's last number keeps its width (a tenth item widens every number).

Pure functions over markdown-it tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tau_coding.tui.markdown_blocks import parser

_ITEM = re.compile(r" {0,3}(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t\n]|$)")  # how a list's first line begins


@dataclass(frozen=True, slots=True)
class Items:
    """A list that is the whole of a text: where its top-level items begin (offsets in the
    text), its first number (None: bullets) and whether each item is numbered as Rich draws it."""

    starts: tuple[int, ...]
    first: int | None
    counted: tuple[bool, ...]

    def width(self) -> int:
        """The width of the list's numbers as Rich draws them (0 for bullets)."""
        return 0 if self.first is None else len(str(self.first + len(self.starts)))


def list_items(source: str) -> Items | None:
    """``source`` (escape-free text) as one list and nothing else, or None."""
    if not _ITEM.match(source):
        return None  # not a list: spare the parse (a long paragraph is parsed at every frame)
    tokens = parser().parse(source)
    if len(tokens) < 2 or tokens[0].type not in ("bullet_list_open", "ordered_list_open"):
        return None
    if any(token.level == 0 for token in tokens[1:-1]):
        return None
    first = int(tokens[0].attrs.get("start", 1)) if tokens[0].type == "ordered_list_open" else None
    items = [token for token in tokens if token.type == "list_item_open" and token.level == 1]
    if not all(item.map for item in items):
        return None
    offsets = _line_offsets(source)
    return Items(
        tuple(offsets[item.map[0]] for item in items if item.map),
        first,
        tuple(first is None or item.info == str(first + index) for index, item in enumerate(items)),
    )


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    position = text.find("\n")
    while position >= 0:
        offsets.append(position + 1)
        position = text.find("\n", position + 1)
    return offsets
