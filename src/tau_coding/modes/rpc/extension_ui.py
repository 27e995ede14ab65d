"""Extensions' dialogs and notices over the RPC protocol.

Extensions talk to a ``UIBridge`` (tau_coding/extensions/ui.py); RPC mode speaks
``extension_ui_request``/``extension_ui_response`` through ``RpcExtensionUI``. The session (and
its extensions) is built before the RPC server exists, so it is given a ``LateBoundUI``
(tau_coding/extensions/ui.py) that ``run_rpc`` points at an ``RpcUI``.

As in Pi's RPC mode, what needs the terminal itself degrades: ``set_header``/``set_footer``
and ``set_working_message`` are not sent, ``custom`` (overlays too) returns None,
``paste_to_editor`` is sent as ``set_editor_text`` (no paste handling, as Pi),
``set_theme`` fails, and ``get_editor_text`` returns the last text an extension set (the
client's editor cannot be read). Tool expansion and the working indicator are not sent either
(``get_tools_expanded`` is False, ``get_editor_component`` None; autocomplete providers and
terminal input handlers are accepted and never used), and there are no themes
(``get_all_themes`` [], ``get_theme`` None), as Pi's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tau_coding.extensions.autocomplete import AutocompleteProvider
from tau_coding.extensions.ui import (
    EditorFactory,
    NoticeLevel,
    Placement,
    ScreenFactory,
    TerminalInputHandler,
    ThemeChoice,
    ThemeResult,
)
from tau_coding.modes.rpc.ui_bridge import RpcExtensionUI

DIALOG_TIMEOUT = 300.0  # seconds a client has to answer before the dialog takes its default


class RpcUI:
    """A UIBridge answered by the RPC client."""

    interactive = True

    def __init__(self, rpc: RpcExtensionUI) -> None:
        self._rpc = rpc
        self._editor_text = ""

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        chosen = await self._rpc.select(title, options, timeout=DIALOG_TIMEOUT)
        return default if chosen is None else chosen

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        # A cancelled or timed-out confirm is a "no" unless the caller's default says yes.
        return await self._rpc.confirm(title, message, timeout=DIALOG_TIMEOUT) or default

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        value = await self._rpc.input(title, placeholder or None, timeout=DIALOG_TIMEOUT)
        return default if value is None else value

    async def editor(self, title: str, text: str = "") -> str | None:
        return await self._rpc.editor(title, text or None, timeout=DIALOG_TIMEOUT)

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self._rpc.notify(message, level)

    def set_status(self, key: str, text: str | None) -> None:
        self._rpc.set_status(key, text)

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: Placement = "above") -> None:
        self._rpc.set_widget(key, lines, "belowEditor" if placement == "below" else "aboveEditor")

    def set_header(self, lines: Sequence[str] | None) -> None:
        return None

    def set_footer(self, lines: Sequence[str] | None) -> None:
        return None

    def set_title(self, title: str | None) -> None:
        self._rpc.set_title(title or "")

    def get_editor_text(self) -> str:
        return self._editor_text

    def set_editor_text(self, text: str) -> None:
        self._editor_text = text
        self._rpc.set_editor_text(text)

    async def custom(self, make_screen: ScreenFactory, *, overlay: bool = False) -> Any:
        return None

    async def set_editor_component(self, make: EditorFactory | None) -> None:
        return None

    def get_editor_component(self) -> EditorFactory | None:
        return None

    def add_autocomplete_provider(self, provider: AutocompleteProvider) -> None:
        return None  # the client's editor completes on its own (as Pi)

    def on_terminal_input(self, handler: TerminalInputHandler) -> Callable[[], None]:
        return lambda: None  # no terminal here: the handler is never called (as Pi)

    def set_working_message(self, text: str | None = None) -> None:
        return None

    def paste_to_editor(self, text: str) -> None:
        self.set_editor_text(text)

    def set_theme(self, theme: ThemeChoice) -> ThemeResult:
        return ThemeResult(False, "Theme switching not supported in RPC mode")

    def get_tools_expanded(self) -> bool:
        return False

    def set_tools_expanded(self, expanded: bool) -> None:
        return None

    def set_working_visible(self, visible: bool) -> None:
        return None

    def set_working_indicator(self, frames: Sequence[str] | None = None) -> None:
        return None

    def set_hidden_thinking_label(self, label: str | None = None) -> None:
        return None

    def get_all_themes(self) -> list[str]:
        return []

    def get_theme(self, name: str) -> Any:
        return None
