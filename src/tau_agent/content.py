"""Content blocks: the ordered parts of a message.

Text and thinking blocks grow by appending deltas while a reply streams. They keep the
pieces in a list and join them only when somebody reads ``text``/``thinking``, so a stream
of N deltas costs O(N) in total however often it is appended to, and a consumer that reads
the whole text after every delta pays for that reading itself (rule 8 of architecture.md).
A block that is not streaming holds a plain string (session replay builds many of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias


class TextContent:
    """Visible text. ``text_signature`` is opaque provider metadata kept for replay."""

    __slots__ = ("_pieces", "_text", "text_signature")
    type: Literal["text"] = "text"

    def __init__(self, text: str = "", text_signature: str | None = None) -> None:
        self._text = text
        self._pieces: list[str] | None = None  # only while streaming
        self.text_signature = text_signature

    @property
    def text(self) -> str:
        if self._pieces is not None:
            self._text = self._text + "".join(self._pieces)
            self._pieces = None
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text, self._pieces = value, None

    def append(self, delta: str) -> None:
        """Add a streamed piece in O(1)."""
        if self._pieces is None:
            self._pieces = [delta]
        else:
            self._pieces.append(delta)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TextContent)
            and self.text == other.text
            and self.text_signature == other.text_signature
        )

    def __repr__(self) -> str:
        return f"TextContent(text={self.text!r})"

    __hash__ = None  # type: ignore[assignment]


class ThinkingContent:
    """Model reasoning. ``redacted`` blocks carry only an encrypted ``thinking_signature``."""

    __slots__ = ("_pieces", "_thinking", "redacted", "thinking_signature")
    type: Literal["thinking"] = "thinking"

    def __init__(
        self, thinking: str = "", thinking_signature: str | None = None, redacted: bool = False
    ) -> None:
        self._thinking = thinking
        self._pieces: list[str] | None = None  # only while streaming
        self.thinking_signature = thinking_signature
        self.redacted = redacted

    @property
    def thinking(self) -> str:
        if self._pieces is not None:
            self._thinking = self._thinking + "".join(self._pieces)
            self._pieces = None
        return self._thinking

    @thinking.setter
    def thinking(self, value: str) -> None:
        self._thinking, self._pieces = value, None

    def append(self, delta: str) -> None:
        """Add a streamed piece in O(1)."""
        if self._pieces is None:
            self._pieces = [delta]
        else:
            self._pieces.append(delta)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ThinkingContent)
            and self.thinking == other.thinking
            and self.thinking_signature == other.thinking_signature
            and self.redacted == other.redacted
        )

    def __repr__(self) -> str:
        return f"ThinkingContent(thinking={self.thinking!r}, redacted={self.redacted})"

    __hash__ = None  # type: ignore[assignment]


@dataclass(slots=True)
class ImageContent:
    """An image as base64 ``data`` with its MIME type (image/png, image/jpeg, ...)."""

    data: str
    mime_type: str
    type: Literal["image"] = "image"


@dataclass(slots=True)
class ToolCall:
    """A request from the model to run a tool.

    ``arguments`` is always a dict: while streaming it holds what could be parsed so far.
    ``thought_signature`` is Google's opaque replay token for the call.
    """

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    thought_signature: str | None = None
    type: Literal["toolCall"] = "toolCall"


AssistantContent: TypeAlias = TextContent | ThinkingContent | ToolCall
UserContent: TypeAlias = TextContent | ImageContent
ToolResultContent: TypeAlias = TextContent | ImageContent
