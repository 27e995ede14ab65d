"""Events a CodingSession adds to the agent's: retries, compaction, and the final settle.

``agent_end`` says the loop stopped; ``agent_settled`` says the whole session did, retries
and compaction included, so a frontend knows when it may take the next prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from tau_agent.events import AgentEvent
from tau_agent.wire import event_to_dict


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


@dataclass(slots=True)
class AgentSettledEvent:
    type: Literal["agent_settled"] = "agent_settled"


@dataclass(slots=True)
class InputHandledEvent:
    """An extension or command took care of the input; the model was not asked. ``text`` is its answer."""

    text: str | None = None
    type: Literal["input_handled"] = "input_handled"


SessionOnlyEvent: TypeAlias = AutoRetryStartEvent | AutoRetryEndEvent | AgentSettledEvent | InputHandledEvent
SessionEvent: TypeAlias = AgentEvent | SessionOnlyEvent


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
    if isinstance(event, AgentSettledEvent):
        return {"type": event.type}
    if isinstance(event, InputHandledEvent):
        return {"type": event.type, "text": event.text}
    return event_to_dict(event)
