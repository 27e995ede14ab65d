"""Session events to spans: a fold that opens and ends spans as the events say.

    invoke_agent tau                  the session (from the first event to close)
      turn                            one model call and the tools it asked for
        chat <model>                  the request: gen_ai.request.model, usage, finish reasons
        execute_tool <name>           one tool call: gen_ai.tool.name, gen_ai.tool.call.id

Attribute names follow OpenTelemetry's GenAI semantic conventions; span times are the times
the events happened.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer

from tau_agent.events import (
    AgentEndEvent,
    MessageEndEvent,
    MessageStartEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from tau_agent.messages import AssistantMessage
from tau_coding.session.events import SessionEvent

FINISH_REASONS = {"toolUse": "tool_calls"}
"""Tau's stop reasons where the GenAI conventions name them differently (the rest are the same)."""

STOP_NOTICE = "Agent stopped after max_turns"


def is_stop_notice(message: AssistantMessage) -> bool:
    """The loop's closing reply when ``max_turns`` is reached: no model request made it."""
    return (
        message.stop_reason == "error"
        and not message.content
        and (message.error_message or "").startswith(STOP_NOTICE)
    )


ModelName = Callable[[], tuple[str, str]]
"""The (provider, model id) a request about to be sent goes to."""


class SessionTracer:
    """Subscribe ``on_event`` to a session; ``close`` ends whatever is still open."""

    def __init__(
        self, tracer: Tracer, *, session_id: str, model: ModelName, attributes: dict[str, str] | None = None
    ) -> None:
        self._tracer = tracer
        self._model = model
        self._turns = 0
        self._session = tracer.start_span(
            "invoke_agent tau",
            kind=SpanKind.INTERNAL,
            attributes={
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": "tau",
                "gen_ai.conversation.id": session_id,
                **(attributes or {}),
            },
        )
        self._turn: Span | None = None
        self._chat: Span | None = None
        self._turn_started = 0  # ns: a request span starts when its turn does
        self._tools: dict[str, Span] = {}
        self._closed = False

    def _child(self, parent: Span, name: str, kind: SpanKind, attributes: dict[str, str | int]) -> Span:
        context = trace.set_span_in_context(parent)
        return self._tracer.start_span(name, context=context, kind=kind, attributes=attributes)

    def on_event(self, event: SessionEvent) -> None:
        if self._closed:
            return
        if isinstance(event, TurnStartEvent):
            self._end_turn()
            self._turns += 1
            self._turn = self._child(
                self._session, "turn", SpanKind.INTERNAL, {"tau.turn.number": self._turns}
            )
            self._turn_started = time.time_ns()
        elif isinstance(event, MessageStartEvent) and isinstance(event.message, AssistantMessage):
            # Made now, dated from the turn's start: the loop's own "stopped after max_turns"
            # reply (no request behind it) gets no request span.
            if self._turn is not None and not is_stop_notice(event.message):
                provider, model = self._model()
                self._chat = self._tracer.start_span(
                    f"chat {model}",
                    context=trace.set_span_in_context(self._turn),
                    kind=SpanKind.CLIENT,
                    attributes={
                        "gen_ai.operation.name": "chat",
                        "gen_ai.request.model": model,
                        "gen_ai.provider.name": provider,
                    },
                    start_time=self._turn_started,
                )
        elif isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
            self._end_chat(event.message)
        elif isinstance(event, ToolExecutionStartEvent):
            parent = self._turn or self._session
            self._tools[event.tool_call_id] = self._child(
                parent,
                f"execute_tool {event.tool_name}",
                SpanKind.INTERNAL,
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": event.tool_name,
                    "gen_ai.tool.call.id": event.tool_call_id,
                },
            )
        elif isinstance(event, ToolExecutionEndEvent):
            span = self._tools.pop(event.tool_call_id, None)
            if span is not None:
                if event.is_error:
                    span.set_attribute("error.type", "tool_error")
                    span.set_status(Status(StatusCode.ERROR))
                span.end()
        elif isinstance(event, TurnEndEvent | AgentEndEvent):
            self._end_turn()

    def _end_chat(self, message: AssistantMessage) -> None:
        span, self._chat = self._chat, None
        if span is None:
            return
        usage = message.usage
        span.set_attribute("gen_ai.response.model", message.model)
        span.set_attribute("gen_ai.usage.input_tokens", usage.input + usage.cache_read + usage.cache_write)
        span.set_attribute("gen_ai.usage.output_tokens", usage.output)
        span.set_attribute(
            "gen_ai.response.finish_reasons", [FINISH_REASONS.get(message.stop_reason, message.stop_reason)]
        )
        if message.response_id:
            span.set_attribute("gen_ai.response.id", message.response_id)
        if message.stop_reason in ("error", "aborted"):
            span.set_attribute("error.type", message.stop_reason)
            span.set_status(Status(StatusCode.ERROR, message.error_message or message.stop_reason))
        span.end()

    def _end_turn(self) -> None:
        if self._chat is not None:
            self._chat.end()
            self._chat = None
        for span in self._tools.values():
            span.end()
        self._tools.clear()
        if self._turn is not None:
            self._turn.end()
            self._turn = None

    def close(self) -> None:
        """End every open span, the session's last."""
        if not self._closed:
            self._end_turn()
            self._session.set_attribute("tau.turns", self._turns)
            self._session.end()
            self._closed = True
