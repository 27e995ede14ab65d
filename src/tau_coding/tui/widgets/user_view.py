"""A user's message in the transcript."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import Static

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.state import UserItem


class UserView(Static):
    """The prompt as sent (markup is not interpreted: a user's brackets stay brackets)."""

    def __init__(self, item: UserItem, images: RenderableType | None = None) -> None:
        """``images``: the message's images, drawn under its text (transcript.py)."""
        text = Text(safe_text(item.text))
        super().__init__(text if images is None else Group(text, images), classes="user")
        self.item = item

    def sync(self) -> None:
        """User messages do not change once shown."""
