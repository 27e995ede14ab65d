"""The interception points, wired into a live CodingSession and its harness.

Each door runs the handlers registered for it in load order, each under its extension's
time limit, and decides what a failing handler means there:

* ``tool_call``: a gate that raises, times out or answers nonsense **blocks** the call;
  letting a call through because its guard crashed would be the unsafe choice.
* ``tool_result``, ``context``, ``input``, ``before_provider_request``, ``message_end``, a
  custom compaction that does not fit: the failing handler's change is dropped and the run goes on with what the previous handlers produced.
* events and lifecycle notices: the failure is reported; nothing else changes.

Every failure is a diagnostic and a one-line warning. Whatever was installed on the harness
before (another feature's seams) runs first and is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent
from tau_agent.events import MessageEndEvent
from tau_agent.hooks import BeforeToolCallResult, ToolCallContext
from tau_agent.messages import AgentMessage, AssistantMessage, CustomMessage
from tau_agent.tools import AgentToolResult
from tau_coding.extensions.change_doors import ChangeDoors
from tau_coding.extensions.dispatcher import EventDispatcher
from tau_coding.extensions.events import (
    AgentStartEvent,
    AgentStartPatch,
    CompactDecision,
    CompactEvent,
    ContextEvent,
    InputEvent,
    InputHandled,
    InputTransform,
    SessionStartEvent,
    ShutdownEvent,
    StopDecision,
    StopEvent,
    ToolCallDecision,
    ToolCallEvent,
    ToolResultEvent,
    ToolResultPatch,
)
from tau_coding.extensions.guard import HandlerFailure
from tau_coding.extensions.message_patch import MessagePatch, replacement_problem
from tau_coding.extensions.registry import BUILTIN, command_name
from tau_coding.session.compaction.errors import CompactionCancelledError
from tau_coding.session.events import InputHandledEvent, SessionEvent
from tau_coding.session.hooks import InputDecision, OwnCommand
from tau_coding.session.permission_seam import PermissionSeam

if TYPE_CHECKING:
    from tau_coding.extensions.host_port import ExtensionHostPort
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.compaction.result import CompactionResult


# Announced for every streamed token or output chunk: delivered without waiting (dispatcher.py);
# every other event is delivered before the run goes on, as Pi awaits its handlers.
_STREAMING = frozenset(("message_update", "tool_execution_update"))


class ExtensionDoors(ChangeDoors):
    """Implements SessionHooks for one session and installs the harness seams (the doors of
    session changes, model choice and ``!cmd`` are in change_doors.py)."""

    def __init__(self, host: ExtensionHostPort, session: CodingSession) -> None:
        self.host = host
        self.session = session
        harness = session.harness
        prev = harness.before_tool_call
        # The session's permission seam runs last, with the handlers' word; anything else first.
        self._permissions = prev if isinstance(prev, PermissionSeam) else None
        self._before_prev = None if isinstance(prev, PermissionSeam) else prev
        self._after_prev = harness.after_tool_call
        self._context_prev = harness.transform_context
        self._subscribed = False
        self._events = EventDispatcher(host.report_failure)
        self._prompt_before: str | None = None  # the system prompt a before_agent_start replaced

    def install(self) -> None:
        """(Re)install the seams; the context transform only while someone asks for it."""
        harness, registry = self.session.harness, self.host.registry
        harness.before_tool_call = self._before_tool_call
        harness.after_tool_call = self._after_tool_call
        harness.transform_context = (
            self._transform_context if "context" in registry.handlers else self._context_prev
        )
        harness.finish_message = self._finish_message if "message_end" in registry.handlers else None
        self.session.hooks = self
        self.session.compactor.custom_summary = self._custom_summary
        if not self._subscribed:
            self._subscribed = True
            self.session.subscribe(self._on_event)

    # -- helpers ----------------------------------------------------------------------------

    async def _call(self, owner: str, what: str, handler: Any, *args: Any) -> Any:
        return await self.host.guard(owner).call(what, handler, *args)

    def _handlers(self, point: str) -> list[tuple[str, Any]]:
        return [(o, h) for o, h in self.host.registry.handlers.get(point, ()) if o in self.host.extensions]

    async def _notify_all(self, point: str, event: object) -> list[Any]:
        answers = []
        for owner, handler in self._handlers(point):
            try:
                answers.append(await self._call(owner, f"{point} handler", handler, event))
            except HandlerFailure as failure:
                self.host.report_failure(failure)
        return answers

    def _on_event(self, event: SessionEvent) -> None:
        if event.type == "agent_settled" and self._prompt_before is not None:
            self.session.harness.system_prompt, self._prompt_before = self._prompt_before, None
        registry = self.host.registry
        if registry.handlers:
            if event.type == "compaction_end":
                names: tuple[str, ...] = (event.type, "session_compact", "*")
            elif event.type == "message_end":  # its handlers ran before it was recorded
                names = ("*",)
            else:
                names = (event.type, "*")
            extensions = self.host.extensions
            handlers = [(o, h) for o, h in registry.handlers_for(*names) if o in extensions]
            self._deliver(event.type, event, handlers)
        if event.type not in _STREAMING:  # handlers act before the run goes on (a follow-up...)
            self._events.drain()

    # -- tool calls -------------------------------------------------------------------------

    async def _before_tool_call(
        self, context: ToolCallContext, signal: CancellationToken
    ) -> BeforeToolCallResult | None:
        verdict = await self._before_prev(context, signal) if self._before_prev is not None else None
        if verdict is not None and verdict.block:
            return verdict
        args = dict(verdict.args) if verdict is not None and verdict.args is not None else dict(context.args)
        changed = verdict is not None and verdict.args is not None
        hint: Literal["allow", "ask"] | None = None
        for owner, handler in self._handlers("tool_call"):
            event = ToolCallEvent(context.tool_call.name, context.tool_call.id, dict(args))
            try:
                decision = await self._call(owner, "tool_call handler", handler, event)
                if decision is not None and not isinstance(decision, ToolCallDecision):
                    raise HandlerFailure(
                        f"extension {owner}: tool_call handler returned {type(decision).__name__}, "
                        "not a ToolCallDecision"
                    )
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                return BeforeToolCallResult(block=True, reason=f"Tool call blocked: {failure}")
            if decision is None:
                continue
            if decision.block:
                return BeforeToolCallResult(
                    block=True, reason=decision.reason or f"Blocked by extension {owner}"
                )
            if decision.input is not None:
                args, changed = dict(decision.input), True
            if decision.permission == "ask" or (decision.permission == "allow" and hint is None):
                hint = decision.permission
        if self._permissions is not None:
            gated = await self._permissions.check(context.tool_call.name, args, hint)
            if gated is not None:
                return gated
        return BeforeToolCallResult(args=args) if changed else None

    async def _after_tool_call(
        self, context: ToolCallContext, result: AgentToolResult, signal: CancellationToken
    ) -> AgentToolResult | None:
        if self._after_prev is not None:
            result = await self._after_prev(context, result, signal) or result
        original = result
        for owner, handler in self._handlers("tool_result"):
            event = ToolResultEvent(
                context.tool_call.name,
                context.tool_call.id,
                context.args,
                list(result.content),
                result.details,
                result.is_error,
            )
            try:
                patch = await self._call(owner, "tool_result handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if isinstance(patch, ToolResultPatch):
                result = AgentToolResult(
                    list(patch.content) if patch.content is not None else result.content,
                    patch.details if patch.details is not None else result.details,
                    patch.is_error if patch.is_error is not None else result.is_error,
                )
        return result if result is not original else None

    # -- context and provider requests ------------------------------------------------------

    async def _transform_context(
        self, messages: list[AgentMessage], signal: CancellationToken
    ) -> list[AgentMessage]:
        if self._context_prev is not None:
            messages = await self._context_prev(messages, signal)
        for owner, handler in self._handlers("context"):
            try:
                out = await self._call(owner, "context handler", handler, ContextEvent(list(messages)))
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if isinstance(out, list):
                messages = out
        return messages

    # -- SessionHooks -----------------------------------------------------------------------

    async def on_start(self) -> None:
        event = SessionStartEvent(self.session.session_id, "resume" if self.session.messages else "startup")
        await self._notify_all("session_start", event)

    async def on_input(self, text: str, images: Sequence[ImageContent]) -> InputDecision:
        command = command_name(text)
        registered = self.host.registry.commands.get(command) if command else None
        if registered is not None and registered.owner in self.host.extensions:
            args = text.strip()[len(command) + 1 :].strip()
            try:
                answer = await self._call(registered.owner, f"/{command}", registered.handler, args)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                return InputHandledEvent(f"/{command} failed: {failure}")
            return InputHandledEvent(answer if isinstance(answer, str) else None)
        current_images = list(images)
        for owner, handler in self._handlers("input"):
            try:
                decision = await self._call(
                    owner,
                    "input handler",
                    handler,
                    InputEvent(text, current_images, self.session.input_source),
                )
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if isinstance(decision, InputHandled):
                return InputHandledEvent(decision.message)
            if isinstance(decision, InputTransform):
                text = decision.text
                current_images = list(decision.images) if decision.images is not None else current_images
        await self._before_agent_start(text, current_images)
        return text, current_images

    async def _before_agent_start(self, text: str, images: list[ImageContent]) -> None:
        harness = self.session.harness
        waiting, self.host.next_turn[:] = list(self.host.next_turn), []
        for message in waiting:  # send_message(..., deliver_as="next_turn")
            harness.append_message(message)
            self.session.log.append_custom_message(
                message.custom_type, message.content, message.display, message.details
            )
        for owner, handler in self._handlers("before_agent_start"):
            event = AgentStartEvent(text, list(images), harness.system_prompt)
            try:
                patch = await self._call(owner, "before_agent_start handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if not isinstance(patch, AgentStartPatch):
                continue
            if patch.system_prompt is not None:
                if self._prompt_before is None:
                    self._prompt_before = harness.system_prompt
                harness.system_prompt = patch.system_prompt
            if patch.message is not None:
                message = patch.message
                harness.append_message(message)
                self.session.log.append_custom_message(
                    message.custom_type, message.content, message.display, message.details
                )

    async def on_stop(self, stop_hook_active: bool, last: AssistantMessage | None) -> str | None:
        if last is not None and last.stop_reason in ("aborted", "error"):
            return None  # as in Claude Code: an interrupted or failed run is not "stopping"
        event = StopEvent(stop_hook_active, last.text if last is not None else "")
        for answer in await self._notify_all("stop", event):
            if isinstance(answer, StopDecision):
                return answer.message
        return None

    async def on_pre_compact(self, trigger: Literal["manual", "auto"], custom_instructions: str) -> None:
        """Nothing: session_before_compact handlers run in ``_custom_summary``, where their
        decision counts (the compactor calls it right after this)."""

    async def _custom_summary(
        self, trigger: Literal["manual", "auto"], instructions: str, tokens_before: int
    ) -> str | CompactionResult | None:
        from tau_coding.session.compaction.custom import problem

        log = self.session.log
        for owner, handler in self._handlers("session_before_compact"):
            event = CompactEvent(trigger, instructions, log.path(), tokens_before)
            try:
                decision = await self._call(owner, "session_before_compact handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if not isinstance(decision, CompactDecision):
                continue
            if decision.cancel:
                raise CompactionCancelledError(f"compaction cancelled by extension {owner}")
            if decision.compaction is not None:
                wrong = problem(log.state(), decision.compaction)
                if wrong is None:
                    return decision.compaction
                self.host.report_failure(
                    HandlerFailure(f"extension {owner}: compaction not used: {wrong}; Tau compacts instead")
                )
                continue
            if decision.summary is not None:
                return decision.summary
        return None

    async def _finish_message(self, message: AgentMessage) -> AgentMessage:
        """``message_end`` handlers, before the message is recorded: each may replace it."""
        for owner, handler in self._handlers("message_end"):
            try:
                patch = await self._call(owner, "message_end handler", handler, MessageEndEvent(message))
            except HandlerFailure as failure:
                self.host.report_failure(failure)
                continue
            if isinstance(patch, MessagePatch):
                wrong = replacement_problem(message, patch.message)
                if wrong is not None:
                    self.host.report_failure(
                        HandlerFailure(f"extension {owner}: message_end {wrong}; the message is kept")
                    )
                    continue
                message = patch.message
        return message

    def command_list(self) -> Sequence[tuple[str, str]]:
        commands = self.host.registry.commands.values()
        return [(c.name, c.description) for c in commands if c.owner in self.host.extensions]

    def own_command(self, name: str) -> OwnCommand | None:
        command = self.host.registry.commands.get(name)
        return command.handler if command is not None and command.owner == BUILTIN else None

    def render_message(self, message: CustomMessage) -> str | None:
        renderer = self.host.registry.renderers.get(message.custom_type)
        if renderer is None or renderer.owner not in self.host.extensions:
            return None
        try:
            lines = self.host.guard(renderer.owner).call_sync("renderer", renderer.render, message)
        except HandlerFailure as failure:
            self.host.report_failure(failure)
            return None
        if isinstance(lines, str):
            return lines
        return "\n".join(str(line) for line in lines) if isinstance(lines, list) else None

    def shortcut_list(self) -> Sequence[tuple[str, str]]:
        shortcuts = self.host.registry.shortcuts.values()
        return [
            (s.key, s.description)
            for s in shortcuts
            if s.owner in self.host.extensions and s.owner != BUILTIN
        ]

    async def on_shortcut(self, key: str) -> str | None:
        shortcut = self.host.registry.shortcuts.get(key)
        if shortcut is None or shortcut.owner not in self.host.extensions:
            return None
        try:
            answer = await self._call(shortcut.owner, f"shortcut {key}", shortcut.handler)
        except HandlerFailure as failure:
            self.host.report_failure(failure)
            return f"{key} failed: {failure}"
        return answer if isinstance(answer, str) else None

    def on_close(self) -> None:
        self._events.drain()
        event = ShutdownEvent("quit")
        for owner, handler in self._handlers("session_shutdown"):
            try:
                self.host.guard(owner).call_sync("session_shutdown handler", handler, event)
            except HandlerFailure as failure:
                self.host.report_failure(failure)
