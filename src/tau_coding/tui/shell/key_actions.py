"""KeyActions: Tau's key bindings and the actions they run, the part of ``TauApp`` that keys reach.

``BINDINGS`` is the table of Tau's own keys; each binding's id is the action name
keybindings.json remaps (``tui/keymap.py``). ``TauApp`` (app.py) is the one subclass; it sets
the attributes declared here.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import ClassVar

from textual.actions import SkipAction
from textual.app import SuspendNotSupported
from textual.binding import Binding, BindingType

from tau_coding.tui.external_editor import ExternalEditorError, edit_text, editor_command
from tau_coding.tui.frame_scheduler import FrameScheduler
from tau_coding.tui.shell import commands, permission_mode, session_commands
from tau_coding.tui.shell.command_host import CommandHost
from tau_coding.tui.shell.inline import lent_terminal
from tau_coding.tui.state import set_status, take_queue
from tau_coding.tui.widgets.tool_row import ToolRow
from tau_coding.tui.widgets.transcript import Transcript

QUIT_WINDOW_SECONDS = 2.0
TREE_WINDOW_SECONDS = 1.0  # Esc, Esc on an empty idle editor opens /tree


class KeyActions(CommandHost):
    """The key bindings and their actions (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # ids are the action names keybindings.json remaps (keymap.py)
        Binding("ctrl+c", "interrupt", "Clear / quit", show=False, priority=True, id="interrupt"),
        Binding("escape", "cancel_run", "Cancel", show=False, id="cancel_run"),
        Binding("alt+up", "pull_queue", "Edit queued", show=False, priority=True, id="pull_queue"),
        Binding("ctrl+t", "toggle_thinking", "Thinking", show=False, priority=True, id="toggle_thinking"),
        Binding("ctrl+o", "toggle_tools", "Tool output", show=False, priority=True, id="toggle_tools"),
        Binding("alt+t", "cycle_thinking", "Thinking level", show=False, priority=True, id="cycle_thinking"),
        Binding(
            "shift+tab",
            "cycle_permissions",
            "Permission mode",
            show=False,
            priority=True,
            id="cycle_permissions",
        ),
        Binding("ctrl+l", "model_picker", "Model", show=False, priority=True, id="model_picker"),
        Binding("ctrl+p", "cycle_model", "Next model", show=False, priority=True, id="cycle_model"),
        Binding("ctrl+g", "external_editor", "Editor", show=False, priority=True, id="external_editor"),
        Binding("pageup,shift+pageup", "scroll_page(-1)", show=False, priority=True, id="page_up"),
        Binding("pagedown,shift+pagedown", "scroll_page(1)", show=False, priority=True, id="page_down"),
        Binding("ctrl+home", "scroll_top", show=False, priority=True, id="scroll_top"),
        Binding("ctrl+end", "scroll_bottom", show=False, priority=True, id="scroll_bottom"),
        Binding("ctrl+z", "suspend", "Suspend", show=False, priority=True, id="suspend"),
    ]

    transcript: Transcript
    _clock: Callable[[], float]
    _environ: Mapping[str, str]
    _scheduler: FrameScheduler
    _last_interrupt: float
    _last_escape: float
    _show_thinking: bool
    _expand_tools: bool
    _shell_modes: Callable[[], object] | None

    def after_typed(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` once the keys already sent to the editor are in it.

        Priority bindings run as the App reads a key, while the keys before it may still wait
        in the editor's queue; what reads or changes the editor's text goes behind them.
        """
        self.editor.call_later(callback)

    def quit_with_hint(self) -> None:
        if not self.has_port():  # quit while the session opens: nothing to resume yet
            self.exit()
            return
        if self.port.is_running:
            self.port.cancel()
        self.exit(self.port.resume_hint())

    def action_extension_shortcut(self, key: str) -> None:
        self.after_typed(lambda: self._extension_shortcut(key))

    async def _extension_shortcut(self, key: str) -> None:
        result = await self.port.run_shortcut(key)
        if result is not None and result.message:
            self.notice(result.message, "warning" if result.is_error else "info")

    def action_interrupt(self) -> None:
        """Ctrl+C: clear the editor; on an empty editor, twice within two seconds quits."""
        self.after_typed(self._interrupt)

    def _interrupt(self) -> None:
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

    async def action_cancel_run(self) -> None:
        """Esc: cancel the run; queued messages come back into the editor for editing. While
        idle, Esc twice within a second on an empty editor opens the session tree (or what
        ``doubleEscapeAction`` names)."""
        if self.state.status == "idle" and not self.port.is_running:
            now = self._clock()
            if self.editor.text:
                self._last_escape = float("-inf")
            elif now - self._last_escape <= TREE_WINDOW_SECONDS:
                self._last_escape = float("-inf")
                action = self.port.double_escape_action()  # doubleEscapeAction: tree, fork, rewind, none
                if action != "none":
                    await session_commands.HANDLERS[action](self, "")
            else:
                self._last_escape = now
            return
        self.port.cancel()
        set_status(self.state, "cancelling")
        self._pull_queue()
        # The footer alone, now, and no paint before it is on screen: the frame that shows
        # "cancelling…" draws only it. The streamed answer's re-render (tens of ms when the
        # machine is loaded) was in that frame; it comes with the next one.
        self._scheduler.hold_for_refresh()
        self.refresh_footer()

    def action_pull_queue(self) -> None:
        """Alt+Up: take every queued message back into the editor, oldest first."""
        self.after_typed(self._pull_queue)

    def _pull_queue(self) -> None:
        queued = self.port.clear_queues()
        take_queue(self.state)
        texts = [*queued.steering, *queued.follow_up]
        if texts:
            editor = self.editor
            current = editor.text
            editor.load_text("\n".join([*texts, current] if current else texts))
            editor.move_cursor(editor.document.end)
        self._scheduler.request()

    def _transcript_keys(self) -> Transcript:
        """The transcript, when the scrolling keys are its; a dialog or picker on top keeps them."""
        if len(self.screen_stack) > 1:
            raise SkipAction()
        return self.transcript

    def action_scroll_page(self, pages: int) -> None:
        self._transcript_keys().page(pages)

    def action_scroll_top(self) -> None:
        self._transcript_keys().to_top()

    def action_scroll_bottom(self) -> None:
        self._transcript_keys().to_bottom()

    def action_toggle_thinking(self) -> None:
        self.show_thinking(not self._show_thinking)

    def show_thinking(self, shown: bool) -> None:
        changed = shown != self._show_thinking
        self._show_thinking = shown
        self.transcript.set_class(shown, "-show-thinking")
        if changed:
            self.restyle_scrollback()

    def action_toggle_tools(self) -> None:
        self._expand_tools = not self._expand_tools
        for view in self.transcript.views():
            if isinstance(view, ToolRow):
                view.set_expanded(self._expand_tools)
        self.restyle_scrollback()

    def action_cycle_permissions(self) -> None:
        permission_mode.cycle(self)

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
        self.remember({"defaultThinkingLevel": following})
        self.notify(f"Thinking level: {following}", timeout=1.5)

    async def action_model_picker(self) -> None:
        await commands.HANDLERS["model"](self, "")

    def action_cycle_model(self) -> None:
        session_commands.cycle_model(self)

    def action_external_editor(self) -> None:
        """Ctrl+G: hand the terminal to $VISUAL/$EDITOR on the prompt; its result replaces it."""
        self.after_typed(self._external_editor)

    def action_suspend(self) -> None:
        """Ctrl+Z: stop Tau and give the terminal back to the shell; ``fg`` brings it back as it
        was (a run under way waits, stopped with the process)."""
        if not hasattr(signal, "SIGSTOP"):  # no job control (Windows)
            self.notice("Suspending needs a terminal with job control.", "warning")
            return
        try:
            with self._terminal_handed_over():
                os.kill(os.getpid(), signal.SIGSTOP)
        except SuspendNotSupported:  # no terminal (headless)
            self.notice("There is no terminal to give back.", "warning")

    @contextmanager
    def _terminal_handed_over(self) -> Iterator[None]:
        """The terminal to another program and back: Textual's own suspend full-screen, the
        inline region's (inline.py) otherwise; in the shell's modes, not the ones Textual found
        (those the mode set to keep early keys: no echo, no line editing)."""
        with lent_terminal(self) if self.is_inline else self.suspend():
            if self._shell_modes is not None:
                self._shell_modes()
            yield

    def _external_editor(self) -> None:
        editor = self.editor
        try:
            command = editor_command(self._environ)
            try:
                with self._terminal_handed_over():
                    text = edit_text(editor.text, command)
            except SuspendNotSupported:  # no terminal to hand over (headless): run it as it is
                text = edit_text(editor.text, command)
        except ExternalEditorError as exc:
            self.notice(str(exc), "warning")
            return
        editor.load_text(text)
        editor.move_cursor(editor.document.end)
