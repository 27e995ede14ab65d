"""The UIBridge extensions get in interactive mode: the TUI's own dialogs and notices.

Widgets are shown above the editor and status entries in the footer (``ExtensionSurface``,
the app); without a surface they appear as notices (a status set to nothing is dropped).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from tau_coding.extensions.ui import NoticeLevel
from tau_coding.tui.screens.dialogs import TuiDialogs

_SEVERITY: dict[str, Literal["information", "warning", "error"]] = {
    "info": "information",
    "warning": "warning",
    "error": "error",
}


class ExtensionSurface(Protocol):
    """Where the TUI shows extensions' widgets and status entries (the app)."""

    def set_extension_widget(self, key: str, lines: Sequence[str] | None) -> None: ...

    def set_extension_status(self, key: str, text: str | None) -> None: ...


class TuiUI:
    interactive = True

    def __init__(self, dialogs: TuiDialogs, surface: ExtensionSurface | None = None) -> None:
        self._dialogs = dialogs
        self._surface = surface

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        chosen = await self._dialogs.ask_choice(title, options)
        return default if chosen is None else chosen

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        return await self._dialogs.ask_confirm(title, message)

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        value = await self._dialogs.ask_text(title)
        return default if value is None else value

    async def editor(self, title: str, text: str = "") -> str | None:
        return await self._dialogs.ask_text(title)

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self._dialogs.notify(message, _SEVERITY.get(level, "information"))

    def set_status(self, key: str, text: str | None) -> None:
        if self._surface is not None:
            self._surface.set_extension_status(key, text)
        elif text:
            self._dialogs.notify(f"{key}: {text}")

    def set_widget(self, key: str, lines: Sequence[str] | None) -> None:
        if self._surface is not None:
            self._surface.set_extension_widget(key, lines)
        elif lines:
            self._dialogs.notify("\n".join(lines))
