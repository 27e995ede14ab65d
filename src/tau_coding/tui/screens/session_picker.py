"""/resume: pick a stored session. Type to search; Tab switches between this project and all
projects; Ctrl+R renames the highlighted session; Ctrl+D twice deletes it; Enter resumes it.

Dismisses with the chosen session's ``ref`` (for ``StoredSessionsPort.switch_session``), or None.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from tau_coding.common.escape_stripping import safe_text
from tau_coding.tui.completion import fuzzy_score
from tau_coding.tui.port import StoredSession, StoredSessionsPort
from tau_coding.tui.screens.dialog import Dialog
from tau_coding.tui.screens.list_height import fit_height


def filter_sessions(sessions: list[StoredSession], query: str) -> list[StoredSession]:
    """Sessions matching ``query`` (fuzzy over title and directory), best first; all when empty."""
    if not query:
        return list(sessions)
    scored = [
        (score, index, s)
        for index, s in enumerate(sessions)
        if (score := fuzzy_score(query, f"{s.title} {s.cwd}")) is not None
    ]
    return [s for _, _, s in sorted(scored, key=lambda entry: (-entry[0], entry[1]))]


def session_line(session: StoredSession, *, show_cwd: bool) -> str:
    title = " ".join(safe_text(session.title).split())
    title = title if len(title) <= 60 else title[:59] + "…"
    parts = [title, f"{session.message_count} msgs", session.modified]
    if show_cwd:
        parts.append(safe_text(session.cwd))
    return "  ·  ".join(parts) + ("  (current)" if session.is_current else "")


class SessionPicker(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Close"),
        Binding("tab", "toggle_scope", "This project / all", priority=True),
        Binding("ctrl+r", "rename", "Rename", priority=True),
        Binding("ctrl+d", "delete", "Delete", priority=True),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
    ]

    def __init__(self, port: StoredSessionsPort) -> None:
        super().__init__(classes="picker")
        self._port = port
        self.everywhere = False
        self._sessions: list[StoredSession] = []
        self.shown: list[StoredSession] = []
        self._pending_delete: str | None = None
        self._renaming: str | None = None

    def compose(self) -> ComposeResult:
        with Dialog():
            yield Static("", id="picker-title", classes="dialog-title")
            yield Input(placeholder="search…", id="session-search")
            yield OptionList(id="session-list", classes="picker-list")
            yield Input(id="session-rename", classes="-hidden")
            yield Static("", id="picker-status", markup=False)
            yield Static(
                "Enter resume · Tab this project/all · Ctrl+R rename · Ctrl+D delete · Esc close",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#session-search", Input).focus()

    @property
    def highlighted(self) -> StoredSession | None:
        index = self.query_one(OptionList).highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    def reload(self) -> None:
        self._sessions = list(self._port.list_sessions(everywhere=self.everywhere))
        scope = "all projects" if self.everywhere else "this project"
        self.query_one("#picker-title", Static).update(f"Resume a session ({scope})")
        self._refill()

    def _refill(self) -> None:
        query = self.query_one("#session-search", Input).value
        self.shown = filter_sessions(self._sessions, query)
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Content(session_line(s, show_cwd=self.everywhere)) for s in self.shown])
        fit_height(options, len(self.shown))
        if self.shown:
            options.highlighted = 0
        elif not self._sessions:
            self.status("No stored sessions here yet. Tab shows every project's.")

    def status(self, text: str) -> None:
        self.query_one("#picker-status", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "session-search":
            self._pending_delete = None
            self._refill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "session-rename":
            self._finish_rename(event.value)
        else:
            self._choose(self.highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(self.shown[event.option_index] if event.option_index < len(self.shown) else None)

    def _choose(self, session: StoredSession | None) -> None:
        if session is not None:
            self.dismiss(session.ref)

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if self.shown:
            self._pending_delete = None
            options.highlighted = ((options.highlighted or 0) + step) % len(self.shown)

    def action_toggle_scope(self) -> None:
        self.everywhere = not self.everywhere
        self.reload()

    def action_rename(self) -> None:
        session = self.highlighted
        if session is None:
            return
        self._renaming = session.ref
        rename = self.query_one("#session-rename", Input)
        rename.value = session.title
        rename.remove_class("-hidden")
        rename.focus()
        self.status("New name, then Enter (Esc cancels)")

    def _finish_rename(self, name: str) -> None:
        ref, self._renaming = self._renaming, None
        rename = self.query_one("#session-rename", Input)
        rename.add_class("-hidden")
        self.query_one("#session-search", Input).focus()
        if ref is None or not name.strip():
            self.status("Not renamed.")
            return
        result = self._port.rename_session(ref, name)
        self.status(result.message)
        self.reload()

    def action_delete(self) -> None:
        session = self.highlighted
        if session is None:
            return
        if self._pending_delete != session.ref:
            self._pending_delete = session.ref
            self.status(f"Press Ctrl+D again to delete {session.title[:50]!r}")
            return
        self._pending_delete = None
        result = self._port.delete_session(session.ref)
        self.reload()
        self.status(result.message)

    def action_back(self) -> None:
        if self._renaming is not None:
            self._finish_rename("")
        else:
            self.dismiss(None)
