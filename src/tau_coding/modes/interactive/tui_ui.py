"""The UIBridge extensions get in interactive mode: the TUI's own dialogs and notices.

Widgets are shown above or below the editor, status entries in the footer, and the header,
own footer, title and editor text on the app (``ExtensionSurface``); without a surface,
widgets and statuses appear as notices (a status set to nothing is dropped) and the rest is
kept here. ``custom`` pushes the extension's own Textual screen and waits for its dismissal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from textual.screen import Screen

from tau_coding.extensions.ui import EditorFactory as ExtensionEditorFactory
from tau_coding.extensions.ui import NoticeLevel, Placement, ScreenFactory
from tau_coding.tui.screens.dialogs import TuiDialogs
from tau_coding.tui.widgets.prompt_editor import EditorFactory

_SEVERITY: dict[str, Literal["information", "warning", "error"]] = {
    "info": "information",
    "warning": "warning",
    "error": "error",
}


class ExtensionSurface(Protocol):
    """Where the TUI shows extensions' widgets and status entries (the app)."""

    def set_extension_widget(
        self, key: str, lines: Sequence[str] | None, placement: Literal["above", "below"] = "above"
    ) -> None: ...

    def set_extension_status(self, key: str, text: str | None) -> None: ...

    def set_extension_header(self, lines: Sequence[str] | None) -> None: ...

    def set_extension_footer(self, lines: Sequence[str] | None) -> None: ...

    def set_extension_title(self, title: str | None) -> None: ...

    def editor_text(self) -> str: ...

    async def replace_editor(self, make: EditorFactory | None) -> None: ...

    def set_editor_text(self, text: str) -> None: ...


class TuiUI:
    interactive = True

    def __init__(self, dialogs: TuiDialogs, surface: ExtensionSurface | None = None) -> None:
        self._dialogs = dialogs
        self._surface = surface
        self._editor_text = ""  # without a surface

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

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: Placement = "above") -> None:
        if self._surface is not None:
            self._surface.set_extension_widget(key, lines, placement)
        elif lines:
            self._dialogs.notify("\n".join(lines))

    def set_header(self, lines: Sequence[str] | None) -> None:
        if self._surface is not None:
            self._surface.set_extension_header(lines)

    def set_footer(self, lines: Sequence[str] | None) -> None:
        if self._surface is not None:
            self._surface.set_extension_footer(lines)

    def set_title(self, title: str | None) -> None:
        if self._surface is not None:
            self._surface.set_extension_title(title)

    def get_editor_text(self) -> str:
        return self._surface.editor_text() if self._surface is not None else self._editor_text

    def set_editor_text(self, text: str) -> None:
        if self._surface is not None:
            self._surface.set_editor_text(text)
        else:
            self._editor_text = text

    async def set_editor_component(self, make: ExtensionEditorFactory | None) -> None:
        if self._surface is not None:
            await self._surface.replace_editor(make)

    async def custom(self, make_screen: ScreenFactory) -> Any:
        screen = make_screen()
        if not isinstance(screen, Screen):
            raise TypeError(f"ui.custom needs a textual Screen, got {type(screen).__name__}")
        return await self._dialogs.show_screen(screen)
