"""TuiBuiltins: the TUI's own slash commands and keys, registered by the built-in extension.

The interactive mode hands ``activate`` to the session's built-in extension ``tau``
(``extensions/builtin.py``), which calls it with its ``ExtensionAPI``: every row of the TUI's
command table (``tui/shell/commands.py``: ``BUILTIN`` and ``HANDLERS``) becomes a
``register_command`` and every remappable key binding (``KeyActions.BINDINGS`` and the
editor's, those named in ``tui/keymap.py``'s ``ACTIONS``) a ``register_shortcut``, the calls
any extension makes. So Tau's commands and keys sit in the one registry: an extension that
asks for ``/model`` or ``ctrl+l`` is refused with one line, and a reload registers them again.

The handlers act on the app, which exists only after the session does: ``bind(app)`` gives it
to them (until then, and after the app has gone, they do nothing). A typed command reaches its
handler through the session port (``CodingSessionPort.run_command``); keys are dispatched by
Textual's bindings, which keybindings.json remaps, and run the same actions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual.binding import Binding

from tau_coding.tui.keymap import ACTIONS
from tau_coding.tui.shell import commands
from tau_coding.tui.shell.command_host import CommandHost
from tau_coding.tui.shell.key_actions import KeyActions
from tau_coding.tui.widgets.prompt_editor import PromptEditor

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI

CommandHandler = Callable[[CommandHost, str], Awaitable[None]]


def key_bindings() -> list[tuple[Binding, str]]:
    """Tau's remappable bindings with where their action runs ("app" or "editor"), in table order."""
    rows = [(b, "app") for b in KeyActions.BINDINGS if isinstance(b, Binding)]
    rows += [(b, "editor") for b in PromptEditor.BINDINGS if isinstance(b, Binding)]
    return [(binding, target) for binding, target in rows if binding.id in ACTIONS]


class TuiBuiltins:
    """The TUI's commands and keys as the built-in extension registers them (see the module docstring)."""

    def __init__(self) -> None:
        self.app: CommandHost | None = None

    def bind(self, app: CommandHost | None) -> None:
        """The app the handlers act on (None: it has gone)."""
        self.app = app

    def activate(self, tau: ExtensionAPI) -> None:
        for spec in commands.BUILTIN:
            handler = commands.HANDLERS[spec.name]
            tau.register_command(spec.name, self._command(handler), description=spec.description)
        for binding, target in key_bindings():
            assert binding.id is not None  # key_bindings keeps only bindings named in ACTIONS
            for key in binding.key.split(","):
                action = self._action(binding.action, target)
                tau.register_shortcut(key.strip(), action, description=ACTIONS[binding.id])

    def _command(self, handler: CommandHandler) -> Callable[[str], Awaitable[None]]:
        async def run(args: str) -> None:
            if self.app is not None:
                await handler(self.app, args)

        return run

    def _action(self, action: str, target: str) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            app = self.app
            if app is not None:
                await (app.editor if target == "editor" else app).run_action(action)

        return run
