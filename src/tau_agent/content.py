"""Content blocks: the ordered parts of a message.

Blocks are msgspec Structs, so that a session file decodes straight into them (see
session/fast_decode.py): the class is the schema, with Pi's camelCase names and the
``type`` tag. Text and thinking blocks grow by appending deltas while a reply streams.
They keep the pieces aside and join them only when somebody reads ``text``/``thinking``,
so a stream of N deltas costs O(N) in total however often it is appended to, and a
consumer that reads the whole text after every delta pays for that reading itself
(rule 8 of architecture.md). A block that is not streaming holds a plain string.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Literal, TypeAlias

import msgspec


class _Pieces:
    """Deltas not yet joined into a streaming block's text. Not a JSON type, so a session
    line can never fill this in."""

    __slots__ = ("items",)

    def __init__(self, first: str) -> None:
        self.items = [first]


# TextContent and ThinkingContent spell out the same few lines of streaming each: a helper
# shared between them costs a call per streamed delta (measured 5-10% of the loop's cost).
# gc=False: a block holds strings, and a tool call's arguments (plain JSON data); none can
# reach back to the block, so the cyclic collector has nothing to find in them.
class _Block(msgspec.Struct, forbid_unknown_fields=True, rename="camel", tag_field="type", gc=False):
    pass


class TextContent(_Block, tag="text"):
    """Visible text. ``text_signature`` is opaque provider metadata kept for replay."""

    _text: str = msgspec.field(name="text", default="")
    text_signature: str | None = None
    _stream: _Pieces | None = None
    type: ClassVar[Literal["text"]] = "text"

    @property
    def text(self) -> str:
        if self._stream is not None:
            self._text = self._text + "".join(self._stream.items)
            self._stream = None
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text, self._stream = value, None

    def append(self, delta: str) -> None:
        """Add a streamed piece in O(1)."""
        if self._stream is None:
            self._stream = _Pieces(delta)
        else:
            self._stream.items.append(delta)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TextContent)
            and self.text == other.text
            and self.text_signature == other.text_signature
        )

    def __repr__(self) -> str:
        return f"TextContent(text={self.text!r})"


class ThinkingContent(_Block, tag="thinking"):
    """Model reasoning. ``redacted`` blocks carry only an encrypted ``thinking_signature``."""

    _thinking: str = msgspec.field(name="thinking", default="")
    thinking_signature: str | None = None
    redacted: bool = False
    _stream: _Pieces | None = None
    type: ClassVar[Literal["thinking"]] = "thinking"

    @property
    def thinking(self) -> str:
        if self._stream is not None:
            self._thinking = self._thinking + "".join(self._stream.items)
            self._stream = None
        return self._thinking

    @thinking.setter
    def thinking(self, value: str) -> None:
        self._thinking, self._stream = value, None

    def append(self, delta: str) -> None:
        """Add a streamed piece in O(1)."""
        if self._stream is None:
            self._stream = _Pieces(delta)
        else:
            self._stream.items.append(delta)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ThinkingContent)
            and self.thinking == other.thinking
            and self.thinking_signature == other.thinking_signature
            and self.redacted == other.redacted
        )

    def __repr__(self) -> str:
        return f"ThinkingContent(thinking={self.thinking!r}, redacted={self.redacted})"


class ImageContent(_Block, tag="image"):
    """An image as base64 ``data`` with its MIME type (image/png, image/jpeg, ...)."""

    data: str = ""
    mime_type: str = ""
    type: ClassVar[Literal["image"]] = "image"


class ToolCall(_Block, tag="toolCall"):
    """A request from the model to run a tool.

    ``arguments`` is always a dict: while streaming it holds what could be parsed so far.
    ``thought_signature`` is Google's opaque replay token for the call. ``arguments_error`` is
    set when the finished arguments were not a JSON object (``arguments`` then holds what could
    be salvaged, for display): it says what was wrong and what arrived, the call is not run,
    and its result tells the model so. It lives in memory only, never in a session file.
    """

    id: str = ""
    name: str = ""
    arguments: dict[str, Any] = msgspec.field(default_factory=dict)
    thought_signature: str | None = None
    arguments_error: str | None = None
    type: ClassVar[Literal["toolCall"]] = "toolCall"


AssistantContent: TypeAlias = TextContent | ThinkingContent | ToolCall
UserContent: TypeAlias = TextContent | ImageContent
ToolResultContent: TypeAlias = TextContent | ImageContent


def text_of(
    content: str | Iterable[object], *, image: str | Callable[[ImageContent], str] = "", sep: str = ""
) -> str:
    """The text of message content: a string as it is, else the text blocks joined by ``sep``.

    Images are left out unless ``image`` says what stands for one (a string, or a function of
    the image); thinking and tool calls are always left out.
    """
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        elif image and isinstance(block, ImageContent):
            parts.append(image if isinstance(image, str) else image(block))
    return sep.join(parts)
