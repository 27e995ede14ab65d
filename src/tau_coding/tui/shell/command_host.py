"""CommandHost: what slash commands and key actions may use of the app.

``commands`` and ``session_commands`` take a ``CommandHost``; ``TauApp`` is the one
implementation. Naming the members here (instead of typing the handlers with ``TauApp``)
keeps the handlers below the app: the app imports them, never the reverse.
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import App

from tau_coding.tui.key_guard import KeyGuard
from tau_coding.tui.port import SessionPort
from tau_coding.tui.state import NoticeTone, TuiState
from tau_coding.tui.widgets.prompt_editor import PromptEditor


class CommandHost(App[str | None]):
    """A Textual app with a session port, a transcript state and a prompt editor."""

    port: SessionPort
    state: TuiState
    editor: PromptEditor
    key_guard: KeyGuard

    def has_port(self) -> bool:
        """False only in the first frames of a start that paints before the session is open
        (``port`` is set from then on; port_opening.py)."""
        return True

    @property
    def keymap(self) -> dict[str, str]:
        """The user's remapped keys (action -> comma-separated keys)."""
        raise NotImplementedError

    def notice(self, text: str, tone: NoticeTone = "info") -> None:
        """A line in the transcript, painted on the next frame."""
        raise NotImplementedError

    def refresh_footer(self) -> None:
        raise NotImplementedError

    def request_paint(self) -> None:
        raise NotImplementedError

    async def paint(self) -> None:
        """Bring the screen up to date with the state now (``request_paint``: at the next frame)."""
        raise NotImplementedError

    def reload_themes(self) -> list[str]:
        """Read the user's theme files again (on ``/reload``); the problems found, one line each."""
        raise NotImplementedError

    async def reset_transcript(self) -> None:
        """Rebuild the transcript from the port's messages (after a session switch)."""
        raise NotImplementedError

    def quit_with_hint(self) -> None:
        """Cancel any run and exit with the "resume with ..." line."""
        raise NotImplementedError

    def cycle_thinking(self) -> None:
        raise NotImplementedError

    def restyle_scrollback(self) -> None:
        """Inline: write what is in the terminal's scrollback again, as it looks now (after a
        change of theme, thinking shown or tool output expanded); nothing full-screen."""
        raise NotImplementedError

    def show_thinking(self, shown: bool) -> None:
        """Show or hide the model's thinking blocks (what Ctrl+T toggles)."""
        raise NotImplementedError

    def send(self, text: str, *, follow_up: bool = False) -> None:
        """Start a run with ``text`` (or steer / queue it while one is going)."""
        raise NotImplementedError

    def remember(self, changes: Mapping[str, object]) -> None:
        """Save a choice made here to the user's settings (``theme``, ``defaultModel``, ...),
        so the next start uses it; a failure is a warning notice."""
        raise NotImplementedError

    def remember_model(self) -> None:
        """Save the session's model and thinking level as the defaults for the next start."""
        info = self.port.info()
        provider, _, model_id = info.model_label.partition("/")
        if model_id:
            self.remember(
                {
                    "defaultProvider": provider,
                    "defaultModel": model_id,
                    "defaultThinkingLevel": info.thinking_level,
                }
            )

    def theme_names(self) -> list[str]:
        """Tau's themes, without the ``tau-`` prefix."""
        raise NotImplementedError
