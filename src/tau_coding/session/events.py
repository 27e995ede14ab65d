"""Events a CodingSession adds to the agent's: retries, compaction, and the final settle.

``agent_end`` says the loop stopped; ``agent_settled`` says the whole session did, retries
and compaction included, so a frontend knows when it may take the next prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeGuard, get_args

from tau_agent.events import AgentEvent
from tau_agent.wire_events import event_to_dict
from tau_coding.session.compaction.result import CompactionResult


@dataclass(slots=True)
class AutoRetryStartEvent:
    attempt: int
    max_attempts: int
    delay_ms: int
    error_message: str
    type: Literal["auto_retry_start"] = "auto_retry_start"


@dataclass(slots=True)
class AutoRetryEndEvent:
    success: bool
    attempt: int
    final_error: str | None = None
    type: Literal["auto_retry_end"] = "auto_retry_end"


CompactionReason: TypeAlias = Literal["manual", "threshold", "overflow"]


@dataclass(slots=True)
class CompactionStartEvent:
    """The session is compacting: asked to (``manual``: ``/compact``, RPC ``compact``), or on its
    own because the context passed its threshold or overflowed. Pi 0.73's event and names."""

    reason: CompactionReason
    type: Literal["compaction_start"] = "compaction_start"


@dataclass(slots=True)
class CompactionEndEvent:
    """``result`` on success; otherwise ``aborted`` or ``error_message`` says why not.
    ``will_retry``: the failed prompt is being retried on the compacted context."""

    reason: CompactionReason
    result: CompactionResult | None = None
    aborted: bool = False
    will_retry: bool = False
    error_message: str | None = None
    type: Literal["compaction_end"] = "compaction_end"


@dataclass(slots=True)
class AgentSettledEvent:
    type: Literal["agent_settled"] = "agent_settled"


@dataclass(slots=True)
class InputHandledEvent:
    """An extension or command took care of the input; the model was not asked. ``text`` is its answer."""

    text: str | None = None
    type: Literal["input_handled"] = "input_handled"


SessionOnlyEvent: TypeAlias = (
    AutoRetryStartEvent
    | AutoRetryEndEvent
    | CompactionStartEvent
    | CompactionEndEvent
    | AgentSettledEvent
    | InputHandledEvent
)
SessionEvent: TypeAlias = AgentEvent | SessionOnlyEvent
SESSION_ONLY_EVENTS: tuple[type, ...] = get_args(SessionOnlyEvent)


def is_agent_event(event: SessionEvent) -> TypeGuard[AgentEvent]:
    """Whether ``event`` is one of the agent's own (not a retry, compaction or settle event)."""
    return not isinstance(event, SESSION_ONLY_EVENTS)


def session_event_to_dict(event: SessionEvent) -> dict[str, Any]:
    """Pi's JSON shape for every event a session emits."""
    if isinstance(event, AutoRetryStartEvent):
        return {
            "type": event.type,
            "attempt": event.attempt,
            "maxAttempts": event.max_attempts,
            "delayMs": event.delay_ms,
            "errorMessage": event.error_message,
        }
    if isinstance(event, AutoRetryEndEvent):
        out: dict[str, Any] = {"type": event.type, "success": event.success, "attempt": event.attempt}
        if event.final_error is not None:
            out["finalError"] = event.final_error
        return out
    if isinstance(event, CompactionStartEvent):
        return {"type": event.type, "reason": event.reason}
    if isinstance(event, CompactionEndEvent):
        end: dict[str, Any] = {"type": event.type, "reason": event.reason}
        end["result"] = event.result.to_dict() if event.result is not None else None
        end.update(aborted=event.aborted, willRetry=event.will_retry)
        if event.error_message is not None:
            end["errorMessage"] = event.error_message
        return end
    if isinstance(event, AgentSettledEvent):
        return {"type": event.type}
    if isinstance(event, InputHandledEvent):
        return {"type": event.type, "text": event.text}
    return event_to_dict(event)
