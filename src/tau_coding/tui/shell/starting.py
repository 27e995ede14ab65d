"""Starting: the part of ``TauApp`` that starts it, from the first paint to the session shown.

The editor and the footer are painted first (``first_paint``). Then, in a worker, the session
is opened if the app was given an opener instead of a port (port_opening.py: in a thread, the
loop echoing keys meanwhile), its commands, prompts and keys are joined to the editor, its
history is shown (inline: written to the scrollback in slices), and what starts with the app
follows: the startup notices, the first prompt, the keys typed before the app ran. Until the
session is open only the editor's keys and Ctrl+C work; an Enter waits for the history
(sending.py). ``TauApp`` (app.py) is the one subclass; it sets the attributes declared here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from tau_agent.content import text_of
from tau_agent.messages import UserMessage
from tau_coding.common import collector
from tau_coding.tui.history import PromptHistory
from tau_coding.tui.port_opening import PortOpener, PortUnavailable
from tau_coding.tui.shell import commands, session_commands, settings_command
from tau_coding.tui.shell.history_slices import HeldWriter, write_in_slices
from tau_coding.tui.shell.inline import Look, ScrollbackFeed
from tau_coding.tui.shell.sending import Sending
from tau_coding.tui.state import from_messages, set_status
from tau_coding.tui.type_ahead import key_events


class Starting(Sending):
    """See the module docstring."""

    _open_port: PortOpener | None
    _port_open: bool
    start_error: str | None
    _startup_notices: list[str]  # problems in the user's files: shown again after a session switch
    _opening_notices: Sequence[str]  # what opening the first session said: shown with it, once
    _initial_prompt: str | None
    _more_prompts: list[str]
    _type_ahead: str
    _start_with_resume: bool
    _feed: ScrollbackFeed | None
    _writer: HeldWriter

    def _look(self, width: int | None = None) -> Look:
        raise NotImplementedError

    def _tick(self) -> None:
        raise NotImplementedError

    async def first_paint(self) -> None:
        """Paint the editor and the footer (the session's parts too, when it is open already),
        then start the rest in a worker: the screen stays free to echo keys while the session
        opens and between the history's slices."""
        if self.has_port():
            self._port_opened()
        await self.paint()
        if not self._initial_prompt and not self._start_with_resume:
            # What was typed before the app ran goes first (nothing is sent before it); an Enter
            # in it waits for the session, like one typed now.
            await self._replay_type_ahead()
        self.call_after_refresh(lambda: self.run_worker(self._start(), group="start"))

    def has_port(self) -> bool:
        return self._port_open

    async def _start(self) -> None:
        """After the first paint: open the session (unless given one), then show it."""
        if not self.has_port() and self._open_port is not None:
            try:
                port, notices = await asyncio.to_thread(self._open_port)
            except PortUnavailable as exc:
                self.start_error = str(exc)
                self.exit(return_code=2)
                return
            self.port, self._port_open = port, True
            self._opening_notices = notices
            self._port_opened()
        await self._show_session()

    def _port_opened(self) -> None:
        """What the first screen leaves to the session: its commands, prompts and keys."""
        sources, sent = self._editor_parts
        own = {spec.name for spec in commands.BUILTIN}  # /reload is both: the same command
        sources.commands = [*commands.BUILTIN, *(c for c in self.port.commands() if c.name not in own)]
        sources.cwd = Path(self.port.info().cwd)
        recorded = (
            text_of(m.content, image="[image]") for m in self.port.messages if isinstance(m, UserMessage)
        )
        history = PromptHistory([*recorded, *sent.entries])  # (what was sent meanwhile: newest)
        self.editor.prompt_history = history
        self._editor_parts = sources, history
        for key, description in self.port.shortcuts():  # extensions' keys, ahead of the editor's
            # App.bind has no ``priority`` in this Textual; the bindings map underneath does.
            self._bindings.bind(key, f"extension_shortcut({key!r})", description or key, priority=True)
        settings_command.apply_at_start(self)
        self.refresh_footer()

    def _models(self) -> Sequence[str]:
        return self.port.models() if self.has_port() else ()

    def _thinking_levels(self) -> Sequence[str]:
        return self.port.thinking_levels() if self.has_port() else ()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Until the session is open only the editor's keys, Ctrl+C and Ctrl+Z work (Tau's others
        act on the session)."""
        return self.has_port() or action in ("interrupt", "suspend")

    async def _show_session(self) -> None:
        """After the first paint: the session's history (rendering a long one's newest items
        for the scrollback takes longer than starting), then what starts with the app.
        A prompt sent before this ran waits for it (``on_prompt_editor_submitted``)."""
        # What exists now lives as long as the app: frozen, full passes skip it (off until here).
        # Before the history's views are mounted: frozen, they could never be collected once removed.
        collector.resume()
        if not self._session_shown.is_set():  # (a session switched to already showed its own)
            early, status = self.state.items, self.state.status  # what the first frames did follows
            self.state = from_messages(self.port.messages, self.port.render_custom, self.port.spent())
            set_status(self.state, status)  # (a prompt sent meanwhile waits: start_run)
            for item in early:
                self.state.add(item)
            if early:
                await self.transcript.clear_all()
            self._session_shown.set()
            if self._feed is not None:
                self._feed.start(len(self.state.items))
                await write_in_slices(self._feed, self.state.items, self._look, self._writer)
            await self.paint()
        self.set_interval(1.0, self._tick)
        for text in [*self._opening_notices, *self._startup_notices]:
            self.notice(text, "warning")
        if self._start_with_resume:  # tau -r "prompt": the prompt goes to the session picked
            await session_commands.resume(self, "", then=self._send_initial_prompt)
        else:
            self._send_initial_prompt()

    def _send_initial_prompt(self) -> None:
        if self._initial_prompt:
            self.editor.prompt_history.add(self._initial_prompt)
            self.send(self._initial_prompt)
            for text in self._more_prompts:  # Pi's several messages: each a follow-up in turn
                self.send(text, follow_up=True)
        self.run_worker(self._replay_type_ahead(), group="type-ahead")

    async def _replay_type_ahead(self) -> None:
        """The keys typed before the app ran, handled as keys typed now. They go through the
        app's own handler here and not its queue: keys the app has queued meanwhile were typed
        after them, and handling a key forwards it to the focused widget's queue in order."""
        typed, self._type_ahead = self._type_ahead, ""
        for event in key_events(typed):
            await self.on_event(event)
