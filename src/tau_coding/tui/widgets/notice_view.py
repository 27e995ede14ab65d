"""Notices and errors in the transcript: compaction and branch markers, command output, failures."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tau_coding.common.escape_stripping import carriage_returns, safe_text
from tau_coding.tui.state import BashItem, ErrorItem, NoticeItem
from tau_coding.tui.summaries import preview


class NoticeView(Static):
    def __init__(self, item: NoticeItem) -> None:
        super().__init__(Text(safe_text(item.text)), classes=f"notice -{item.tone}")
        self.item = item

    def sync(self) -> None:
        """Notices do not change once shown."""


def error_text(item: ErrorItem) -> Text:
    """What happened, then what to do about it."""
    text = Text()
    text.append("Error: ", style="bold")
    text.append(safe_text(item.message))
    if item.hint:
        text.append("\n" + item.hint, style="italic")
    return text


def bash_text(item: BashItem) -> Text:
    """A ``!cmd`` the user ran, with the tail of its output and its exit code."""
    text = Text()
    text.append(("!! " if item.excluded else "! ") + safe_text(item.command), style="bold")
    if item.cancelled:
        text.append("  (cancelled)", style="italic")
    elif item.exit_code not in (0, None):
        text.append(f"  (exit {item.exit_code})", style="italic")
    if item.output.strip():
        text.append("\n" + safe_text(preview(carriage_returns(item.output), lines=20, tail=True)))
    return text


class ErrorView(Static):
    """What happened, then what to do about it."""

    def __init__(self, item: ErrorItem) -> None:
        super().__init__(error_text(item), classes="error")
        self.item = item

    def sync(self) -> None:
        """Its hint changes when the failure is retried."""
        self.update(error_text(self.item))


class BashView(Static):
    """A ``!cmd`` the user ran, with its output and exit code."""

    def __init__(self, item: BashItem) -> None:
        super().__init__(bash_text(item), classes="bash")
        self.item = item

    def sync(self) -> None:
        """A finished command does not change."""
