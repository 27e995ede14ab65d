"""ExtensionSurface: the places of ``TauApp`` an extension draws on or reads from.

Widgets above and below the editor, a header, a footer in place of Tau's, the terminal title,
the editor's text (set, or pasted into), the editor component itself, the working message and
the theme (``ui.*`` of the extension API, answered in the TUI). ``TauApp`` (app.py) is the one subclass; it sets the attributes declared here and
composes the widgets. Before the app is composed (``_panel`` is None) a call only keeps what it
was given, and composition shows it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Literal

from textual import events
from textual.theme import Theme

from tau_agent.events import AgentEvent
from tau_coding.tui.bridge import RunInbox, start_events
from tau_coding.tui.completion import Completer
from tau_coding.tui.history import PromptHistory
from tau_coding.tui.items import NoticeItem, RunNotice
from tau_coding.tui.shell.key_actions import KeyActions
from tau_coding.tui.state import add_notice, set_status
from tau_coding.tui.widgets.extension_panel import ChromeLines, ExtensionPanel
from tau_coding.tui.widgets.prompt_editor import CompletionSources, EditorFactory, PromptEditor
from tau_coding.tui.widgets.status_footer import StatusFooter

RunEvents = Callable[[], AsyncIterator[AgentEvent | RunNotice]]


class ExtensionSurface(KeyActions):
    """See the module docstring."""

    footer: StatusFooter
    _inbox: RunInbox  # where the runs it starts put their events
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
    _completers: list[Completer]
    _key_watchers: list[Callable[[str], bool]]
    _working_message: str | None
    _working_visible = True  # an extension may hide the footer's "working…" (set_working_visible)
    _working_glyph: str | None = None  # shown before it (set_working_indicator); Tau's has none
    _expand_tools: bool
    _after_run: list[Callable[[], object]]

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

    def add_completer(self, completer: Completer) -> None:
        """Ask ``completer`` before the editor's other sources from the next keystroke on (a
        replaced editor too: they share the list)."""
        self._completers.append(completer)

    def watch_keys(self, watcher: Callable[[str], bool]) -> Callable[[], None]:
        """``watcher(key)`` sees each key first (Textual's name for it, after Tau's own
        normalisation); True keeps it from Tau. Returns the unsubscribe."""
        self._key_watchers.append(watcher)
        return lambda: self._key_watchers.remove(watcher) if watcher in self._key_watchers else None

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and any(watch(event.key) for watch in list(self._key_watchers)):
            return  # an extension consumed it: no binding, no widget sees it
        await super().on_event(event)

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

    def set_working_message(self, text: str | None) -> None:
        """What the footer says while the agent runs, instead of "working…" (None: that again)."""
        self._working_message = text or None
        if self._panel is not None:
            self.refresh_footer()

    def set_working_visible(self, visible: bool) -> None:
        """Whether the footer says "working…" (or the extension's message) while the agent runs."""
        self._working_visible = visible
        if self._panel is not None:
            self.refresh_footer()

    def set_working_indicator(self, frames: Sequence[str] | None) -> None:
        """Pi's frames: the footer is not animated, so the first one is shown before the working
        message; None or none: no glyph (Tau's own look)."""
        self._working_glyph = frames[0] if frames else None
        if self._panel is not None:
            self.refresh_footer()

    def working_status(self) -> str | None:
        """What the footer says while the agent runs: "" hidden, None Tau's "working…"."""
        if not self._working_visible:
            return ""
        if self._working_glyph is None:
            return self._working_message
        return f"{self._working_glyph} {self._working_message or 'working…'}"

    def tools_expanded(self) -> bool:
        return self._expand_tools

    def set_tools_expanded(self, expanded: bool) -> None:
        """Tool output in full or collapsed, as Ctrl+O toggles it."""
        if expanded == self._expand_tools:
            return
        if self._panel is None:  # not composed: the first paint shows rows this way
            self._expand_tools = expanded
        else:
            self.action_toggle_tools()

    def set_hidden_thinking_label(self, label: str | None) -> None:
        """What a hidden thinking block says instead of Tau's hint (None: Tau's again); shown
        replies change too (inline: the scrollback is written again)."""
        from textual.widgets import Static

        from tau_coding.tui.widgets.assistant_view import THINKING_HINT

        self.transcript.thinking_hint = label or None
        for hint in self.transcript.query(".thinking-hint").results(Static):
            hint.update(label or THINKING_HINT)
        self.restyle_scrollback()

    def theme_named(self, name: str) -> Theme | None:
        """The registered theme ``name`` (without Tau's ``tau-`` prefix), not switched to."""
        return self.get_theme(f"tau-{name}") if name in self.theme_names() else None

    def paste_to_editor(self, text: str) -> None:
        """``text`` arrives in the editor as a terminal paste would (a large one is collapsed)."""
        if self._panel is not None:
            self.editor.post_message(events.Paste(text))

    def set_theme_by_name(self, name: str) -> str | None:
        """Switch to a registered theme as ``/theme name`` does (saved as the default); None
        when done, else why not."""
        from tau_coding.tui.shell.settings_command import switch_theme

        if name not in self.theme_names():
            return f"Theme {name!r} not found; one of {', '.join(self.theme_names())}"
        switch_theme(self, name)
        return None

    def set_theme_from_data(self, data: object) -> str | None:
        """Register a theme from the decoded JSON of a theme file and use it (not saved)."""
        from tau_coding.tui.theme.user_themes import ThemeError, parse_theme
        from tau_coding.tui.widgets.tool_row import ToolRow

        try:
            theme = parse_theme(data, "extension theme")
        except ThemeError as exc:
            return str(exc)
        self.register_theme(theme)
        self.theme = theme.name
        for row in self.query(ToolRow):  # diffs are drawn in the theme's colours
            row.recolor()
        return None

    def shutdown_when_idle(self) -> None:
        """An extension's ``shutdown()``: quit as ``/quit`` does, once the run (with the
        messages queued in it) has finished."""
        self._when_idle(self.quit_with_hint)

    def _when_idle(self, action: Callable[[], object]) -> None:
        """``action`` now when no run goes on, else once it has finished (``after_run``): an
        extension's command runs inside its prompt's run."""
        if self.state.status != "idle" or self.port.is_running:
            self._after_run.append(action)
        else:
            action()

    def after_run(self) -> None:
        """A run finished: do what extensions asked for meanwhile, in order."""
        pending, self._after_run = self._after_run, []
        for action in pending:
            self._when_idle(action)

    def show_outside_change(self, editor_text: str | None) -> None:
        """An extension replaced the transcript (a new, forked or switched session, a move in
        the tree): show the new one, and ``editor_text`` (a fork's message) in the editor."""

        async def show() -> None:
            said = self.state.items[-1] if self.state.items else None
            await self.reset_transcript()
            if isinstance(said, NoticeItem):  # the command's own answer stays in view
                add_notice(self.state, said.text, said.tone)
                self.request_paint()
            if editor_text is not None:
                self.set_editor_text(editor_text)
            self.refresh_footer()

        self._when_idle(lambda: self.call_later(show))

    def run_outside(self, run: RunEvents) -> None:
        """A run an extension started (``trigger_turn``), shown as a prompt's run is."""

        def start() -> None:
            set_status(self.state, "running")
            start_events(self._inbox, run)
            self.request_paint()

        self._when_idle(start)
