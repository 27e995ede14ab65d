"""The UIBridge extensions get in interactive mode: the TUI's own dialogs and notices.

Widgets are shown above or below the editor, status entries in the footer, and the header,
own footer, title, editor text, working message and theme on the app (``ExtensionSurface``);
without a surface, widgets and statuses appear as notices (a status set to nothing is dropped)
and the rest is kept here. ``custom`` pushes the extension's own Textual screen and waits for
its dismissal; as an overlay, a widget that is not a screen is shown in ``Overlay``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from textual.screen import Screen
from textual.widget import Widget

from tau_coding.extensions.autocomplete import AutocompleteProvider
from tau_coding.extensions.ui import EditorFactory as ExtensionEditorFactory
from tau_coding.extensions.ui import (
    NoticeLevel,
    Placement,
    ScreenFactory,
    TerminalInputHandler,
    ThemeChoice,
    ThemeResult,
)
from tau_coding.tui.completion import Candidate, Completer
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

    def add_completer(self, completer: Completer) -> None: ...

    def watch_keys(self, watcher: Callable[[str], bool]) -> Callable[[], None]: ...

    def set_editor_text(self, text: str) -> None: ...

    def paste_to_editor(self, text: str) -> None: ...

    def set_working_message(self, text: str | None) -> None: ...

    def set_theme_by_name(self, name: str) -> str | None:
        """None when switched, else why not (one line)."""
        ...

    def set_theme_from_data(self, data: object) -> str | None: ...

    def tools_expanded(self) -> bool: ...

    def set_tools_expanded(self, expanded: bool) -> None: ...

    def set_working_visible(self, visible: bool) -> None: ...

    def set_working_indicator(self, frames: Sequence[str] | None) -> None: ...

    def set_hidden_thinking_label(self, label: str | None) -> None: ...

    def theme_names(self) -> list[str]: ...

    def theme_named(self, name: str) -> Any: ...


class TuiUI:
    interactive = True

    def __init__(self, dialogs: TuiDialogs, surface: ExtensionSurface | None = None) -> None:
        self._dialogs = dialogs
        self._surface = surface
        self._editor_text = ""  # without a surface
        self._editor_component: ExtensionEditorFactory | None = None

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
            await self._surface.replace_editor(make)  # a factory that fails is not kept
        self._editor_component = make

    def get_editor_component(self) -> ExtensionEditorFactory | None:
        return self._editor_component

    def add_autocomplete_provider(self, provider: AutocompleteProvider) -> None:
        if self._surface is not None:
            self._surface.add_completer(self._completer(provider))

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        if self._surface is None:
            return lambda: None
        broken = False

        def watch(key: str) -> bool:
            nonlocal broken  # one that raises is reported once and then skipped: keys still work
            if broken:
                return False
            try:
                return handler(key) is True
            except Exception as exc:
                broken = True
                self._dialogs.notify(f"a terminal input handler failed: {exc!r}", "error")
                return False

        return self._surface.watch_keys(watch)

    def _completer(self, provider: AutocompleteProvider) -> Completer:
        """``provider`` as the editor asks it; one that raises is reported once and then skipped,
        so a broken extension does not break typing."""
        broken = False

        def complete(line: str, column: int) -> list[Candidate] | None:
            nonlocal broken
            if broken:
                return None
            try:
                answer = provider(line, column)
            except Exception as exc:
                broken = True
                self._dialogs.notify(f"an autocomplete provider failed: {exc!r}", "error")
                return None
            if answer is None or not line[:column].endswith(answer.prefix):
                return None
            start = column - len(answer.prefix)
            return [
                Candidate(start, column, s.value, s.label or s.value, s.description) for s in answer.items
            ]

        return complete

    async def custom(self, make_screen: ScreenFactory, *, overlay: bool = False) -> Any:
        screen = make_screen()
        if overlay and not isinstance(screen, Screen) and isinstance(screen, Widget):
            from tau_coding.tui.screens.overlay import Overlay  # when an extension asks for one

            screen = Overlay(screen)
        if not isinstance(screen, Screen):
            wanted = "a textual ModalScreen or widget" if overlay else "a textual Screen"
            raise TypeError(f"ui.custom needs {wanted}, got {type(screen).__name__}")
        return await self._dialogs.show_screen(screen)

    def set_working_message(self, text: str | None = None) -> None:
        if self._surface is not None:
            self._surface.set_working_message(text)

    def paste_to_editor(self, text: str) -> None:
        if self._surface is not None:
            self._surface.paste_to_editor(text)
        else:
            self._editor_text += text

    def set_theme(self, theme: ThemeChoice) -> ThemeResult:
        if self._surface is None:
            return ThemeResult(False, "UI not available")
        if isinstance(theme, str):
            problem = self._surface.set_theme_by_name(theme)
        else:
            problem = self._surface.set_theme_from_data(theme)
        return ThemeResult(problem is None, problem)

    def get_tools_expanded(self) -> bool:
        return self._surface is not None and self._surface.tools_expanded()

    def set_tools_expanded(self, expanded: bool) -> None:
        if self._surface is not None:
            self._surface.set_tools_expanded(expanded)

    def set_working_visible(self, visible: bool) -> None:
        if self._surface is not None:
            self._surface.set_working_visible(visible)

    def set_working_indicator(self, frames: Sequence[str] | None = None) -> None:
        if self._surface is not None:
            self._surface.set_working_indicator(frames)

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        if self._surface is not None:
            self._surface.set_hidden_thinking_label(label)

    def get_all_themes(self) -> list[str]:
        return self._surface.theme_names() if self._surface is not None else []

    def get_theme(self, name: str) -> Any:
        return self._surface.theme_named(name) if self._surface is not None else None
