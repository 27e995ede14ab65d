"""A user's message in the transcript."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.state import UserItem


class UserView(Static):
    """The prompt as sent (markup is not interpreted: a user's brackets stay brackets)."""

    def __init__(self, item: UserItem) -> None:
        super().__init__(Text(safe_text(item.text)), classes="user")
        self.item = item

    def sync(self) -> None:
        """User messages do not change once shown."""
