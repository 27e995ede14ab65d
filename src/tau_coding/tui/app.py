"""TauApp: composition, key bindings and routing. The work lives in state, bridge and widgets."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical

from tau_agent.messages import UserMessage
from tau_coding.tui import commands
from tau_coding.tui.bridge import AgentEventMessage, FrameScheduler, RunFinished, start_run
from tau_coding.tui.files import project_files
from tau_coding.tui.history import PromptHistory
from tau_coding.tui.port import SessionPort
from tau_coding.tui.state import (
    NoticeTone,
    TuiState,
    add_error,
    add_message,
    add_notice,
    apply,
    from_messages,
    queue_message,
    set_status,
    take_queue,
    user_text,
)
from tau_coding.tui.submission import Submission, classify
from tau_coding.tui.theme import THEMES
from tau_coding.tui.widgets.completion_menu import CompletionMenu
from tau_coding.tui.widgets.prompt_editor import CompletionSources, PromptEditor
from tau_coding.tui.widgets.queue_view import QueueView
from tau_coding.tui.widgets.status_footer import StatusFooter
from tau_coding.tui.widgets.tool_row import ToolRow
from tau_coding.tui.widgets.transcript import Transcript

QUIT_WINDOW_SECONDS = 2.0


class TauApp(App[str | None]):
    """The interactive agent. ``run()`` returns the "resume with ..." line to print, if any."""

    CSS_PATH = Path(__file__).parent / "theme" / "app.tcss"  # absolute: subclasses live elsewhere
    TITLE = "τ"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "Clear / quit", show=False, priority=True),
        Binding("escape", "cancel_run", "Cancel", show=False),
        Binding("alt+up", "pull_queue", "Edit queued", show=False, priority=True),
        Binding("ctrl+t", "toggle_thinking", "Thinking", show=False, priority=True),
        Binding("ctrl+o", "toggle_tools", "Tool output", show=False, priority=True),
        Binding("shift+tab", "cycle_thinking", "Thinking level", show=False, priority=True),
        Binding("ctrl+l", "model_picker", "Model", show=False, priority=True),
    ]

    transcript: Transcript
    editor: PromptEditor
    footer: StatusFooter
    queue_view: QueueView

    def __init__(
        self,
        port: SessionPort,
        *,
        home: str | None = None,
        list_files: Callable[[Path], list[str]] | None = project_files,
        clock: Callable[[], float] = time.monotonic,
        theme: str = "dark",
        initial_prompt: str | None = None,
    ) -> None:
        super().__init__()
        self._initial_prompt = initial_prompt
        self.port = port
        self.state: TuiState = TuiState()
        self._home = home if home is not None else os.path.expanduser("~")
        self._list_files = list_files
        self._clock = clock
        self._theme_name = f"tau-{theme}"
        self._last_interrupt = float("-inf")
        self._show_thinking = False
        self._expand_tools = False
        self._scheduler = FrameScheduler(self, self.paint)

    # -- composition ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        info = self.port.info()
        sources = CompletionSources(
            cwd=Path(info.cwd),
            commands=[*commands.BUILTIN, *self.port.commands()],
            arguments={"model": self.port.models, "thinking": self.port.thinking_levels},
            list_files=self._list_files,
        )
        history = PromptHistory(
            user_text(m.content) for m in self.port.messages if isinstance(m, UserMessage)
        )
        self.transcript = Transcript()
        self.editor = PromptEditor(sources, history)
        self.footer = StatusFooter(self._home)
        self.queue_view = QueueView()
        yield self.transcript
        with Vertical(id="bottom"):
            yield self.queue_view
            yield CompletionMenu()
            yield self.editor
            yield self.footer

    async def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = self._theme_name
        self.editor.menu = self.query_one(CompletionMenu)
        self.state = from_messages(self.port.messages)
        self.editor.focus()
        await self.paint()
        self.set_interval(1.0, self._tick)
        if self._initial_prompt:
            self.editor.prompt_history.add(self._initial_prompt)
            self.send(self._initial_prompt)

    # -- painting -------------------------------------------------------------------------------

    async def paint(self) -> None:
        """Bring the screen up to date with the state: mount new items, re-sync changed ones."""
        transcript = self.transcript
        if not transcript.is_attached:  # shutting down: nothing left to paint on
            return
        changes = self.state.take_changes()
        await transcript.append(self.state.items, changes.appended)
        await transcript.update(changes.updated)
        if changes.queue:
            self.queue_view.show(self.state.queue)
        if changes.footer:
            self.refresh_footer()
            self.editor.set_class(self.state.status != "idle", "-running")
        if self._expand_tools:
            for index in changes.appended:
                view = transcript.view(index)
                if isinstance(view, ToolRow):
                    view.set_expanded(True)

    def refresh_footer(self) -> None:
        self.footer.show(self.port.info(), self.state)

    def _tick(self) -> None:
        now = self._clock()
        for view in self.transcript.views():
            if isinstance(view, ToolRow) and view.item.status == "running":
                view.tick(now)

    def notice(self, text: str, tone: NoticeTone = "info") -> None:
        add_notice(self.state, text, tone)
        self._scheduler.request()

    async def reset_transcript(self) -> None:
        await self.transcript.clear_all()
        self.state = from_messages(self.port.messages)
        await self.paint()

    # -- events from the run --------------------------------------------------------------------

    def on_agent_event_message(self, message: AgentEventMessage) -> None:
        apply(self.state, message.event, self._clock())
        self._scheduler.request()

    def on_run_finished(self, message: RunFinished) -> None:
        if message.error is not None:
            add_error(self.state, message.error, "This is a bug in Tau; the session is still usable.")
        set_status(self.state, "idle")
        self._scheduler.request()
        if not self.app_focus:  # the user looked away: tell them the agent is waiting
            self.bell()

    # -- input ----------------------------------------------------------------------------------

    async def on_prompt_editor_submitted(self, message: PromptEditor.Submitted) -> None:
        submission = classify(message.text)
        if submission.kind == "command":
            handler = commands.HANDLERS.get(submission.name)
            if handler is not None:
                await handler(self, submission.args)
                return
            self.run_worker(self._session_command(submission), group="command")
        elif submission.kind == "bash":
            if self.port.is_running or self.state.status != "idle":
                self.notice("Shell commands wait until the run ends (Esc cancels it).", "warning")
                self.editor.load_text(message.text)
            else:
                self.run_worker(self._bash(submission), group="bash")
        else:
            self.send(message.text, follow_up=message.follow_up)

    def send(self, text: str, *, follow_up: bool = False) -> None:
        """Start a run, or, while one is going, steer it (Enter) or queue a follow-up (Alt+Enter)."""
        if self.state.status != "idle" or self.port.is_running:
            if follow_up:
                self.port.follow_up(text)
            else:
                self.port.steer(text)
            queue_message(self.state, "follow_up" if follow_up else "steer", text)
            self._scheduler.request()
            return
        set_status(self.state, "running")
        start_run(self, self.port, text)
        self._scheduler.request()

    async def _session_command(self, submission: Submission) -> None:
        result = await self.port.run_command(submission.name, submission.args)
        if result is None:  # nobody knows it: it is a prompt that happens to start with "/"
            self.send(submission.text)
        elif result.message:
            if result.is_error:
                add_error(self.state, result.message, "")
                self._scheduler.request()
            else:
                self.notice(result.message, "command")
        self.refresh_footer()

    async def _bash(self, submission: Submission) -> None:
        message = await self.port.run_bash(
            submission.args, exclude_from_context=submission.exclude_from_context
        )
        add_message(self.state, message)
        self._scheduler.request()

    def on_prompt_editor_quit_requested(self, message: PromptEditor.QuitRequested) -> None:
        self.quit_with_hint()

    # -- actions --------------------------------------------------------------------------------

    def quit_with_hint(self) -> None:
        if self.port.is_running:
            self.port.cancel()
        self.exit(self.port.resume_hint())

    def action_interrupt(self) -> None:
        """Ctrl+C: clear the editor; on an empty editor, twice within two seconds quits."""
        editor = self.editor
        if editor.text:
            editor.clear()
            self._last_interrupt = float("-inf")
            return
        now = self._clock()
        if now - self._last_interrupt <= QUIT_WINDOW_SECONDS:
            self.quit_with_hint()
            return
        self._last_interrupt = now
        self.notify("Press Ctrl+C again to quit", timeout=QUIT_WINDOW_SECONDS)

    def action_cancel_run(self) -> None:
        """Esc: cancel the run; queued messages come back into the editor for editing."""
        if self.state.status == "idle" and not self.port.is_running:
            return
        self.port.cancel()
        set_status(self.state, "cancelling")
        self.action_pull_queue()
        self._scheduler.request()

    def action_pull_queue(self) -> None:
        """Alt+Up: take every queued message back into the editor, oldest first."""
        queued = self.port.clear_queues()
        take_queue(self.state)
        texts = [*queued.steering, *queued.follow_up]
        if texts:
            editor = self.editor
            current = editor.text
            editor.load_text("\n".join([*texts, current] if current else texts))
            editor.move_cursor(editor.document.end)
        self._scheduler.request()

    def action_toggle_thinking(self) -> None:
        self._show_thinking = not self._show_thinking
        self.transcript.set_class(self._show_thinking, "-show-thinking")

    def action_toggle_tools(self) -> None:
        self._expand_tools = not self._expand_tools
        for view in self.transcript.views():
            if isinstance(view, ToolRow):
                view.set_expanded(self._expand_tools)

    def action_cycle_thinking(self) -> None:
        self.cycle_thinking()

    def cycle_thinking(self) -> None:
        levels = list(self.port.thinking_levels())
        if not levels:
            self.notify("This model does not think.")
            return
        current = self.port.info().thinking_level
        following = levels[(levels.index(current) + 1) % len(levels)] if current in levels else levels[0]
        self.port.set_thinking_level(following)
        self.refresh_footer()
        self.notify(f"Thinking level: {following}", timeout=1.5)

    async def action_model_picker(self) -> None:
        await commands.HANDLERS["model"](self, "")
