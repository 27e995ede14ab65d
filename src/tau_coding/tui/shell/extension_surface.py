"""ExtensionSurface: the places of ``TauApp`` an extension draws on or reads from.

Widgets above and below the editor, a header, a footer in place of Tau's, the terminal title,
the editor's text and the editor component itself (``ui.set_*`` of the extension API, answered
in the TUI). ``TauApp`` (app.py) is the one subclass; it sets the attributes declared here and
composes the widgets. Before the app is composed (``_panel`` is None) a call only keeps what it
was given, and composition shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tau_coding.tui.history import PromptHistory
from tau_coding.tui.shell.key_actions import KeyActions
from tau_coding.tui.widgets.extension_panel import ChromeLines, ExtensionPanel
from tau_coding.tui.widgets.prompt_editor import CompletionSources, EditorFactory, PromptEditor
from tau_coding.tui.widgets.status_footer import StatusFooter


class ExtensionSurface(KeyActions):
    """See the module docstring."""

    footer: StatusFooter
    _panel: ExtensionPanel | None
    _below_panel: ExtensionPanel
    _header: ChromeLines
    _own_footer: ChromeLines
    _widgets: dict[str, list[str]]
    _below: dict[str, list[str]]
    _statuses: dict[str, str]
    _header_lines: list[str] | None
    _footer_lines: list[str] | None
    _extension_title: str | None
    _editor_parts: tuple[CompletionSources, PromptHistory]

    def refresh_footer(self) -> None:
        raise NotImplementedError

    def set_extension_widget(
        self, key: str, lines: Sequence[str] | None, placement: Literal["above", "below"] = "above"
    ) -> None:
        """An extension's widget above (or below) the editor (None or no lines: removed)."""
        self._widgets.pop(key, None)
        self._below.pop(key, None)
        if lines:
            (self._below if placement == "below" else self._widgets)[key] = list(lines)
        if self._panel is not None:  # composed (before that, compose shows them)
            self._panel.show(self._widgets)
            self._below_panel.show(self._below)

    def set_extension_header(self, lines: Sequence[str] | None) -> None:
        self._header_lines = None if lines is None else list(lines)
        if self._panel is not None:
            self._header.show_lines(lines)

    def set_extension_footer(self, lines: Sequence[str] | None) -> None:
        """Lines in place of Tau's footer; None brings Tau's back."""
        self._footer_lines = None if lines is None else list(lines)
        if self._panel is not None:
            self._own_footer.show_lines(lines)
            self.footer.display = lines is None

    def set_extension_title(self, title: str | None) -> None:
        self._extension_title = title
        if self._panel is not None:
            self.refresh_footer()

    async def replace_editor(self, make: EditorFactory | None) -> None:
        """Use ``make(sources, history)`` (a ``PromptEditor`` subclass) as the editor; None: Tau's
        own again. What was typed carries over."""
        if self._panel is None:
            return
        built = (make or PromptEditor)(*self._editor_parts)
        if not isinstance(built, PromptEditor):
            raise TypeError(f"an editor component must be a PromptEditor, got {type(built).__name__}")
        old = self.editor
        text, menu = old.text, old.menu
        await old.remove()
        await self.query_one("#bottom").mount(built, before=self._below_panel)
        built.menu = menu
        built.load_text(text)
        built.move_cursor(built.document.end)
        self.editor = built
        built.focus()

    def editor_text(self) -> str:
        return self.editor.text if self._panel is not None else ""

    def set_editor_text(self, text: str) -> None:
        if self._panel is not None:
            self.editor.load_text(text)
            self.editor.move_cursor(self.editor.document.end)

    def set_extension_status(self, key: str, text: str | None) -> None:
        """An extension's entry in the footer (None: removed)."""
        if text:
            self._statuses[key] = text
        else:
            self._statuses.pop(key, None)
        if self._panel is not None:  # composed: the app runs (before that, the first paint shows it)
            self.refresh_footer()
