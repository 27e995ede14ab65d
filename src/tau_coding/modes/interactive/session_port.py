"""CodingSessionPort: the TUI's SessionPort over a real CodingSession and its SessionControl.

The TUI knows only the port (tau_coding/tui/port.py); this adapter is where it meets the
session, its resources and the models the user can switch to. Session-only events (retries,
agent_settled) are not part of the TUI's event vocabulary and are left out of ``prompt``.
The session-level operations (/resume, /tree, /fork, /compact, ...) live in the base class
``ControlPort`` (session_port_control.py); ``control.session`` is read on every call because
``reload`` and ``switch`` may replace what it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from typing import Any

from tau_agent.content import ImageContent, text_of
from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEvent
from tau_agent.messages import AgentMessage, BashExecutionMessage, CustomMessage, UserMessage
from tau_agent.provider import THINKING_LEVELS, ThinkingLevel
from tau_agent.spent import Spent
from tau_coding.modes.interactive.auto_title import AutoTitler
from tau_coding.modes.interactive.prompt_images import images_to_send
from tau_coding.modes.interactive.session_port_control import AuthService, ControlPort
from tau_coding.modes.interactive.session_port_login import subscription_login, subscription_logins
from tau_coding.modes.interactive.session_port_rewind import RewindPortMixin
from tau_coding.permissions.modes import next_mode, parse_mode
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import PLAN_APPROVED, ControlError, SessionControl
from tau_coding.session.events import (
    AutoRetryEndEvent,
    AutoRetryStartEvent,
    CompactionEndEvent,
    CompactionStartEvent,
    InputHandledEvent,
    SessionEvent,
    is_agent_event,
)
from tau_coding.tui.items import RunNotice, compacted_line
from tau_coding.tui.port import CommandResult, CommandSpec, QueuedMessages, SessionInfo


class CodingSessionPort(ControlPort, RewindPortMixin):
    """Implements ``SessionPort``; the control's models are what /model may switch to.
    ``titles`` names an unnamed session after its first exchange (``auto_title.py``)."""

    def __init__(
        self,
        control: SessionControl,
        *,
        auth: AuthService | None = None,
        settings: Callable[[], Mapping[str, Any]] = dict,
        scoped: Sequence[str] = (),
    ) -> None:
        super().__init__(control, auth=auth, settings=settings, scoped=scoped)
        self.titles = AutoTitler(
            lambda: self.session,
            control.available_models,
            lambda: self._settings().get("autoTitle", True) is not False,
        )

    @property
    def session(self) -> CodingSession:
        return self.control.session

    def subscription_logins(self) -> Sequence[tuple[str, str, bool]]:
        return subscription_logins(self._auth.path) if self._auth is not None else []

    async def subscription_login(self, provider: str, show: Callable[[str], object]) -> CommandResult:
        if self._auth is None:
            return CommandResult("Logging in is not available here.", is_error=True)
        result = await subscription_login(self._auth.path, provider, show)
        return result if result.is_error else CommandResult(result.message + self._reload_note())

    @property
    def messages(self) -> Sequence[AgentMessage]:
        return self.session.messages

    @property
    def is_running(self) -> bool:
        return self.session.is_running

    async def prompt(
        self, text: str, images: Sequence[ImageContent] = ()
    ) -> AsyncGenerator[AgentEvent | RunNotice | EventBatch, None]:
        """The run's events, with a retry announced the moment its wait begins.

        The session yields a retry's start with the next event it streams, which comes only
        after the wait; heard from its listener, the screen can count the wait down. ``images``
        go as the settings say (``prompt_images.py``); a line for each one left out comes first."""
        model = self.session.model
        text_only = None if model.supports_images else f"{model.provider}/{model.id}"
        images, problems = images_to_send(images, self._settings(), text_only) if images else ([], [])
        for problem in problems:
            yield RunNotice(problem, "warning")
        heard: asyncio.Queue[SessionEvent | EventBatch | None] = asyncio.Queue()
        early: list[SessionEvent] = []

        def listen(event: SessionEvent) -> None:
            if isinstance(event, AutoRetryStartEvent):
                early.append(event)
                heard.put_nowait(event)

        async def pump() -> None:
            try:
                async for event in self.session.prompt_batches(text, images):
                    if not any(event is seen for seen in early):
                        heard.put_nowait(event)
            finally:
                heard.put_nowait(None)

        unsubscribe = self.session.subscribe(listen, deltas=False)
        task = asyncio.create_task(pump())
        try:
            while (event := await heard.get()) is not None:
                if isinstance(event, EventBatch):  # a reply's start and deltas: all shown, as they are
                    yield event
                    continue
                shown = _shown(event)
                if shown is not None:
                    yield shown
            await task  # the session's own error, if it ended with one
            self.titles.after_run()
        finally:
            unsubscribe()
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def continue_(self) -> AsyncGenerator[AgentEvent | RunNotice, None]:
        """A run from the record as it stands (an extension's ``trigger_turn``), as shown."""
        async for event in self.session.continue_():
            shown = _shown(event)
            if shown is not None:
                yield shown

    def steer(self, text: str) -> None:
        self.session.steer(text)

    def follow_up(self, text: str) -> None:
        self.session.follow_up(text)

    def cancel(self) -> None:
        self.session.cancel()

    def clear_queues(self) -> QueuedMessages:
        steering, follow = self.session.harness.clear_queues()
        return QueuedMessages(
            [text_of(m.content, image="[image]") for m in steering if isinstance(m, UserMessage)],
            [text_of(m.content, image="[image]") for m in follow if isinstance(m, UserMessage)],
        )

    def info(self) -> SessionInfo:
        session, model = self.session, self.session.model
        path = session.session_file
        return SessionInfo(
            cwd=str(session.cwd),
            model_label=f"{model.provider}/{model.id}",
            thinking_level=session.thinking_level,
            session_name=session.log.name,
            session_id=session.session_id,
            session_file=str(path) if path is not None else None,
            git_branch=self._branch,
            context_tokens=self._context_tokens(),
            context_window=model.context_window,
            permission_mode=session.permissions.mode if session.permissions is not None else None,
        )

    def spent(self) -> Spent:
        from tau_agent.session.stats import session_stats  # (when a transcript is shown)

        return session_stats(self.session.log.entries).spent

    def cycle_permission_mode(self) -> str | None:
        gate = self.session.permissions
        if gate is None:
            return None
        gate.set_mode(next_mode(gate.mode))
        return gate.mode

    def set_permission_mode(self, mode: str) -> None:
        chosen = parse_mode(mode)
        if self.session.permissions is not None and chosen is not None:
            self.session.permissions.set_mode(chosen)

    def approve_plan(self, mode: str) -> str:
        chosen = parse_mode(mode)
        if chosen is None:
            raise ValueError(f"unknown permission mode {mode!r}")
        try:
            return self.control.approve_plan(chosen)
        except ControlError:  # no longer in plan mode (Shift+Tab meanwhile): approve as asked
            self.set_permission_mode(mode)
            return PLAN_APPROVED

    def _context_tokens(self) -> int | None:
        """The session's estimate of the context's size; None (unknown) if estimating fails."""
        try:
            return self.session.context_usage().tokens
        except Exception:  # an estimate must never break the footer
            return None

    def commands(self) -> Sequence[CommandSpec]:
        specs: list[CommandSpec] = []
        resources = self.session.resources
        if resources is not None:
            specs += [CommandSpec(t.name, t.description) for t in resources.prompt_templates]
            specs += [CommandSpec(f"skill:{s.name}", s.description) for s in resources.skills]
        if self.session.hooks is not None:  # extensions' commands, handled in CodingSession.prompt
            specs += [
                CommandSpec(name, description) for name, description in self.session.hooks.command_list()
            ]
        return specs

    def render_custom(self, message: CustomMessage) -> str | None:
        return self.session.hooks.render_message(message) if self.session.hooks is not None else None

    def shortcuts(self) -> Sequence[tuple[str, str]]:
        return self.session.hooks.shortcut_list() if self.session.hooks is not None else ()

    async def run_shortcut(self, key: str) -> CommandResult | None:
        if self.session.hooks is None:
            return None
        said = await self.session.hooks.on_shortcut(key)
        return CommandResult(said) if said else None

    async def run_command(self, name: str, args: str) -> CommandResult | None:
        """A command Tau's built-in extension registered (the TUI's own, ``/reload``) runs here,
        on the app's loop; anything else (an extension's command, a template, a skill) is None:
        the TUI sends it as a prompt, where ``CodingSession.prompt`` handles it."""
        handler = self.session.hooks.own_command(name) if self.session.hooks is not None else None
        if handler is None:
            return None
        said = handler(args)
        if isinstance(said, Awaitable):
            said = await said
        return CommandResult(said if isinstance(said, str) else "")

    async def run_bash(self, command: str, *, exclude_from_context: bool) -> BashExecutionMessage:
        return await self.session.run_bash(command, exclude_from_context=exclude_from_context)

    def thinking_levels(self) -> Sequence[str]:
        return THINKING_LEVELS if self.session.model.reasoning else ()

    def set_thinking_level(self, level: str) -> None:
        if level in THINKING_LEVELS:
            chosen: ThinkingLevel = level
            self.session.set_thinking_level(chosen)

    def set_session_name(self, name: str) -> None:
        self.session.set_name(name)

    def apply_setting(self, key: str, value: object) -> None:
        if key == "steeringMode" and isinstance(value, str):
            self.control.set_steering_mode(value)
        elif key == "followUpMode" and isinstance(value, str):
            self.control.set_follow_up_mode(value)
        elif key == "compaction.enabled" and isinstance(value, bool):
            self.control.set_auto_compaction(value)
        elif key == "retry.enabled" and isinstance(value, bool):
            self.session.set_auto_retry(value)

    def resume_hint(self) -> str | None:
        if self.session.session_file is None or not self.session.session_file.exists():
            return None
        return f"Resume this session with: tau --session {self.session.session_id[:8]}"


_COMPACTING = {
    "overflow": "The context window overflowed: compacting it, then retrying",
    "threshold": "The context is nearly full: compacting it",
    "manual": "Compacting the context",
}


def _compacted(event: CompactionEndEvent) -> RunNotice:
    if event.result is not None:
        return RunNotice(compacted_line(event.result.tokens_before), "compaction", compacting=False)
    failed = "Compaction cancelled" if event.aborted else f"Compaction failed: {event.error_message}"
    if event.reason == "overflow":  # the request that overflowed was not retried: say what is left
        failed += ". The request was not retried: /compact, then send a message, or /model"
    return RunNotice(failed, "warning", compacting=False)


def _shown(event: SessionEvent) -> AgentEvent | RunNotice | None:
    """What of a session event the transcript shows: agent events, retries, compactions (with
    the history's own line for one), command output."""
    if is_agent_event(event):
        return event
    if isinstance(event, AutoRetryStartEvent):
        seconds = event.delay_ms / 1000
        retrying = f"retrying in {seconds:.1f}s ({event.attempt}/{event.max_attempts})"
        return RunNotice(
            f"{event.error_message}; {retrying}",
            "warning",
            retry_in=seconds,
            recovers=True,
            under_failure=retrying,
        )
    if isinstance(event, CompactionStartEvent):
        overflow = event.reason == "overflow"
        return RunNotice(_COMPACTING[event.reason], "compaction", recovers=overflow, compacting=True)
    if isinstance(event, CompactionEndEvent):
        return _compacted(event)
    if isinstance(event, AutoRetryEndEvent):
        failed = f"Retry stopped: {event.final_error or 'failed'}"
        return RunNotice("" if event.success else failed, "warning", retry_over=True)
    if isinstance(event, InputHandledEvent) and event.text:  # /mcp, an extension's command
        return RunNotice(event.text)
    return None
