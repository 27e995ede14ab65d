"""The doors of session changes, model and thinking choices and the user's ``!cmd``.

Mixed into ``ExtensionDoors`` (doors.py), which owns the host, the session and the event
dispatcher. What a failing handler means here:

* ``session_before_switch`` / ``_fork`` / ``_tree``: the failure is reported and the change
  goes on (a broken extension must not lock the user in a session). Asked from async code
  (``ask_change``) every handler is awaited and its whole answer counts (a tree summary, a
  fork that keeps the editor); from synchronous code (``before_change``) only a plain
  function's refusal counts.
* ``user_bash``: the failing handler's patch is dropped; the command runs as the previous
  handlers left it.
* notices (``session_start`` after a change, ``session_tree``, ``model_select``,
  ``thinking_level_select``): reported; nothing else changes.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tau_coding.extensions.events import (
    Cancel,
    ForkDecision,
    ForkEvent,
    ModelSelectEvent,
    SessionStartEvent,
    ShutdownEvent,
    SwitchEvent,
    ThinkingSelectEvent,
    TreeDecision,
    TreeEvent,
    UserBashEvent,
    UserBashPatch,
)
from tau_coding.extensions.guard import HandlerFailure
from tau_coding.session.hooks import (
    AGREED,
    ChangeAnswer,
    LeaveReason,
    ModelSource,
    SessionChange,
    UserBashOutcome,
)

if TYPE_CHECKING:
    from tau_agent.provider import ThinkingLevel
    from tau_ai.model import Model
    from tau_coding.extensions.dispatcher import Delivery, EventDispatcher
    from tau_coding.extensions.host_port import ExtensionHostPort
    from tau_coding.session.coding_session import CodingSession


class ChangeDoors:
    host: ExtensionHostPort
    session: CodingSession
    _events: EventDispatcher

    def _handlers(self, point: str) -> list[tuple[str, Any]]:
        raise NotImplementedError

    async def _call(self, owner: str, what: str, handler: Any, *args: Any) -> Any:
        raise NotImplementedError

    # -- session changes --------------------------------------------------------------------

    def before_change(self, change: SessionChange) -> str | None:
        """From synchronous code: plain handlers answer; async ones are told (as tasks)."""
        point, event = _before_event(change, self.session)
        for owner, handler in self._handlers(point):
            try:
                answer = self.host.guard(owner).call_sync(f"{point} handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if (refusal := _refusal(answer, change, owner)) is not None:
                return refusal
        return None

    async def ask_change(self, change: SessionChange) -> ChangeAnswer:
        """From async code: every handler is awaited in load order; the first refusal wins,
        and of the other choices (a tree summary, instructions, a label, keeping the editor)
        the first handler to make each one wins."""
        point, event = _before_event(change, self.session)
        answers: list[object] = []
        for owner, handler in self._handlers(point):
            try:
                answer = await self._call(owner, f"{point} handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if (refusal := _refusal(answer, change, owner)) is not None:
                return ChangeAnswer(refusal)
            answers.append(answer)
        return _merged(answers)

    def on_leave(self, reason: LeaveReason, target_file: str | None) -> None:
        self._events.drain()  # what the handlers were told of this session comes first
        self._tell_now("session_shutdown", ShutdownEvent(reason, target_file))

    def after_change(self, change: SessionChange) -> None:
        if change.kind == "tree":
            tree = TreeEvent(change.entry_id, change.old_leaf, user_wants_summary=change.summarize)
            tree.summary_entry, tree.from_extension = change.summary_entry, change.from_extension
            self._tell_now("session_tree", tree)
            return
        source = "fork" if change.kind == "fork" else change.kind
        event = SessionStartEvent(self.session.session_id, source, change.previous_file)
        self._tell_now("session_start", event)

    def _tell_now(self, point: str, event: object) -> None:
        for owner, handler in self._handlers(point):
            try:
                self.host.guard(owner).call_sync(f"{point} handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)

    # -- model and thinking level -------------------------------------------------------------

    def on_model_select(self, model: Model, previous: Model | None, source: ModelSource) -> None:
        self._post("model_select", ModelSelectEvent(model, previous, source))

    def on_thinking_select(self, level: ThinkingLevel, previous: ThinkingLevel) -> None:
        self._post("thinking_level_select", ThinkingSelectEvent(level, previous))

    def _post(self, point: str, event: object) -> None:
        self._deliver(point, event, self._handlers(point))

    def _deliver(self, name: str, event: object, handlers: Iterable[tuple[str, Any]]) -> None:
        """Like agent events: plain handlers on the dispatcher's thread, async ones as tasks
        (never waited for here, so a handler that sets the model does not wait on itself)."""
        plain: list[Delivery] = []
        for owner, handler in handlers:
            guard = self.host.guard(owner)
            if inspect.iscoroutinefunction(handler):  # runs on the loop, as a task
                try:
                    guard.call_sync(f"{name} handler", handler, event)
                except HandlerFailure as failure:
                    self.host.report_failure(failure)
            else:
                plain.append((owner, handler, guard.timeout))
        if plain:
            self._events.post(event, plain)

    # -- the user's shell commands --------------------------------------------------------------

    async def on_user_bash(self, command: str, exclude_from_context: bool) -> UserBashOutcome | None:
        outcome: UserBashOutcome | None = None
        for owner, handler in self._handlers("user_bash"):
            event = UserBashEvent(command, exclude_from_context, str(self.session.cwd))
            try:
                patch = await self._call(owner, "user_bash handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if not isinstance(patch, UserBashPatch):
                continue
            if patch.output is not None:
                return UserBashOutcome(output=patch.output, exit_code=patch.exit_code)
            if patch.command is not None:
                command = patch.command
                outcome = UserBashOutcome(command=command)
        return outcome


def _before_event(change: SessionChange, session: CodingSession) -> tuple[str, object]:
    if change.kind == "fork":
        return "session_before_fork", ForkEvent(change.entry_id or "", change.position)
    if change.kind == "tree":
        event = TreeEvent(change.entry_id, change.old_leaf, change.summarize, change.custom_instructions)
        event.label, event.replace_instructions = change.label, change.replace_instructions
        if change.summarize:
            from tau_coding.session.compaction.branch import abandoned_entries

            event.entries_to_summarize = abandoned_entries(session.log.tree, change.old_leaf, change.entry_id)
        return "session_before_tree", event
    if change.kind == "new":
        return "session_before_switch", SwitchEvent("new")
    return "session_before_switch", SwitchEvent("resume", change.target_file)


def _refusal(answer: object, change: SessionChange, owner: str) -> str | None:
    """The reason when ``answer`` refuses the change, else None."""
    if not isinstance(answer, Cancel | TreeDecision | ForkDecision):
        return None
    if not isinstance(answer, Cancel) and not answer.cancel:
        return None
    return answer.reason or f"{_what(change)} cancelled by extension {owner}"


def _merged(answers: list[object]) -> ChangeAnswer:
    """The agreeing handlers' choices in one answer; the first to make each choice wins."""
    if not answers or all(answer is None for answer in answers):
        return AGREED
    merged = ChangeAnswer()
    for answer in answers:
        if isinstance(answer, ForkDecision):
            merged.keep_editor = merged.keep_editor or answer.skip_conversation_restore
        elif isinstance(answer, TreeDecision):
            if merged.summary is None and answer.summary is not None:
                merged.summary, merged.details = answer.summary, answer.details
            if merged.custom_instructions is None:
                merged.custom_instructions = answer.custom_instructions
            if merged.label is None:
                merged.label = answer.label
            if merged.replace_instructions is None:
                merged.replace_instructions = answer.replace_instructions
    return merged


def _what(change: SessionChange) -> str:
    return {"new": "new session", "resume": "session switch", "fork": "fork", "tree": "tree move"}[
        change.kind
    ]
