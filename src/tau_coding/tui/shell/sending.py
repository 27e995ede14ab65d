"""Sending: the part of ``TauApp`` that sends what the user typed and takes the run's events back.

Enter on a prompt starts a run, or steers the one going (Alt+Enter queues a follow-up); a
``/command`` goes to the port's commands, then the TUI's own table, then the session as a prompt;
a ``!bash`` line runs in the session's shell. Enter typed before the session's history is shown
waits for it, so it is sent once, after the history. ``TauApp`` (app.py) is the one subclass; it
sets the attributes declared here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from tau_agent.content import ImageContent
from tau_coding.tui.bridge import EventsWaiting, RunFinished, start_run
from tau_coding.tui.shell import commands, permission_mode
from tau_coding.tui.shell.extension_surface import ExtensionSurface
from tau_coding.tui.state import add_error, add_message, apply, discount_wait, queue_message, set_status
from tau_coding.tui.submission import Submission, classify
from tau_coding.tui.widgets.prompt_editor import PromptEditor


class Sending(ExtensionSurface):
    """See the module docstring."""

    _session_shown: asyncio.Event  # set once the session's history is in the state
    _clock: Callable[[], float]

    def on_events_waiting(self, message: EventsWaiting) -> None:
        self.take_run_events()
        self._scheduler.request()

    def take_run_events(self) -> None:
        """Fold the runs' events waiting in the inbox into the state, in the order they came
        (the paint does this first, so a streaming reply's deltas need no message each)."""
        events = self._inbox.take()
        if events:
            now = self._clock()
            for event in events:
                apply(self.state, event, now)

    def dialog_waited(self, seconds: float) -> None:
        """A dialog (an approval, an extension's question) waited ``seconds`` for the person:
        the running tools' times leave that out."""
        discount_wait(self.state, seconds)
        self._scheduler.request()

    def on_run_finished(self, message: RunFinished) -> None:
        self.take_run_events()  # (its last events, before it ends)
        if message.error is not None:
            add_error(self.state, message.error, "This is a bug in Tau; the session is still usable.")
        set_status(self.state, "idle")
        self._scheduler.request()
        if message.error is None:
            permission_mode.offer_plan(self)
        self.after_run()
        if not self.app_focus:  # the user looked away: tell them the agent is waiting
            self.bell()

    # -- what the user sends --------------------------------------------------------------------

    async def on_prompt_editor_submitted(self, message: PromptEditor.Submitted) -> None:
        if self._session_shown.is_set():
            await self._submitted(message)
        else:  # Enter typed in the first frames: sent after the history, in turn; keys go on echoing
            self.run_worker(self._submitted_when_shown(message), group="early")

    async def _submitted_when_shown(self, message: PromptEditor.Submitted) -> None:
        await self._session_shown.wait()  # (waiters wake in the order they came: Enters stay in order)
        await self._submitted(message)

    async def _submitted(self, message: PromptEditor.Submitted) -> None:
        submission = classify(message.text)
        if submission.kind == "command":
            await self._command(submission)
        elif submission.kind == "bash":
            if self.port.is_running or self.state.status != "idle":
                self.notice("Shell commands wait until the run ends (Esc cancels it).", "warning")
                self.editor.load_text(message.text)
            else:
                self.run_worker(self._bash(submission), group="bash")
        else:
            self.send(message.text, follow_up=message.follow_up, images=message.images)

    def send(self, text: str, *, follow_up: bool = False, images: Sequence[ImageContent] = ()) -> None:
        """Start a run, or, while one is going, steer it (Enter) or queue a follow-up (Alt+Enter);
        ``images`` go with a prompt that starts a run (steering carries text only)."""
        if self.state.status != "idle" or self.port.is_running:
            if images:
                self.notice(
                    "Images go with a prompt sent while idle; this message went without them.", "warning"
                )
            if follow_up:
                self.port.follow_up(text)
            else:
                self.port.steer(text)
            queue_message(self.state, "follow_up" if follow_up else "steer", text)
            self._scheduler.request()
            return
        set_status(self.state, "running")
        start_run(self._inbox, self.port, text, images, self._session_shown)
        self._scheduler.request()

    async def _command(self, submission: Submission) -> None:
        """``/name args``: the port runs the commands Tau's built-in extension registered (the
        TUI's own among them, ``tui_builtins``). A port without them (one over a bare harness)
        leaves the TUI's table to run here; anything else goes to the session as a prompt
        (extensions' commands, templates, skills, or text that happens to start with "/")."""
        result = await self.port.run_command(submission.name, submission.args)
        if result is None:
            own = commands.HANDLERS.get(submission.name)
            if own is not None:
                await own(self, submission.args)
                return
            self.send(submission.text)
            self.refresh_footer()
        elif result.message:
            if result.is_error:
                add_error(self.state, result.message, "")
                self._scheduler.request()
            else:
                self.notice(result.message, "command")

    async def _bash(self, submission: Submission) -> None:
        message = await self.port.run_bash(
            submission.args, exclude_from_context=submission.exclude_from_context
        )
        add_message(self.state, message)
        self._scheduler.request()

    def on_prompt_editor_quit_requested(self, message: PromptEditor.QuitRequested) -> None:
        self.quit_with_hint()
