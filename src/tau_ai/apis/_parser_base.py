"""The part of a WireParser every API shares: the builder, and how a stream ends.

A subclass implements ``_feed`` for its API's events. This base guarantees the contract of
``tau_ai.wire_api.WireParser``: nothing after the end, ``finish`` ends a complete stream with
``done`` and a cut one with ``error`` ("stream ended unexpectedly"), and an event whose shape
the subclass cannot read ends the message as an error instead of raising.
"""

from __future__ import annotations

import contextlib
from typing import Any

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.messages import StopReason, Usage
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.model import Model
from tau_ai.sse import SseEvent

STREAM_CUT = "stream ended unexpectedly"


class BuilderParser:
    """Drives one AssistantMessageBuilder; subclasses say what each SSE event means."""

    def __init__(self, api: str, model: Model) -> None:
        self.builder = AssistantMessageBuilder(api=api, provider=model.provider, model=model.id)
        self.model = model
        self.complete = False  # the API said its reply is whole (end marker or finish reason)
        self.stop_reason: StopReason | None = None
        self.stop_error: str | None = None  # why, when the API stopped for a reason we call an error
        # APIs that repeat cumulative usage on every chunk park the raw value here; it is
        # converted once, when the message ends, instead of once per delta.
        self.raw_usage: dict[str, Any] | None = None

    @property
    def has_content(self) -> bool:
        return self.builder.has_content

    @property
    def ended(self) -> bool:
        return self.builder.ended

    def feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        if self.builder.ended:
            return []
        try:
            events = self._feed(event)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            events = self.builder.fail("error", f"malformed {event.event} event from provider: {exc!r}")
        if self.builder.ended:
            self._settle_usage()
        return events

    def _feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        raise NotImplementedError

    def convert_usage(self, raw: dict[str, Any]) -> Usage:
        """The API's usage object as Tau's Usage (for subclasses that set ``raw_usage``)."""
        raise NotImplementedError

    def _settle_usage(self) -> None:
        raw, self.raw_usage = self.raw_usage, None
        if raw is not None:
            # An unreadable usage object must not cost the reply.
            with contextlib.suppress(TypeError, ValueError, AttributeError):
                self.builder.message.usage = self.convert_usage(raw)

    def end(self) -> list[AssistantMessageEvent]:
        """The API's own end of reply: done, or error when it stopped for a failing reason."""
        if self.stop_reason == "error":
            return self.builder.fail("error", self.stop_error or "Provider stopped with an error")
        return self.builder.finish(self.stop_reason)

    def finish(self) -> list[AssistantMessageEvent]:
        if self.builder.ended:
            return []
        self._settle_usage()
        if self.complete:
            return self.end()
        return self.builder.fail("error", STREAM_CUT)

    def fail(self, reason: str, error_message: str) -> list[AssistantMessageEvent]:
        if not self.builder.ended:
            self._settle_usage()
        return self.builder.fail("aborted" if reason == "aborted" else "error", error_message)
