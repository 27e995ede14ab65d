"""Events as Pi-compatible JSON values (camelCase): JSON mode and RPC output.

``event_to_dict`` keeps output linear in a reply's length: a ``message_update`` carries its
delta and the index it applies to, never the whole partial message again.
"""

from __future__ import annotations

from typing import Any

from tau_agent.events import (
    AgentEndEvent,
    AgentEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
    TurnEndEvent,
)
from tau_agent.stream_events import (
    AssistantMessageEvent,
    DoneEvent,
    ErrorEvent,
    StartEvent,
    TextDeltaEvent,
    TextEndEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
)
from tau_agent.tools import AgentToolResult
from tau_agent.wire import block_to_dict, message_to_dict

Json = dict[str, Any]


def tool_result_to_dict(result: AgentToolResult) -> Json:
    return {"content": [block_to_dict(b) for b in result.content], "details": result.details}


def assistant_event_to_dict(event: AssistantMessageEvent) -> Json:
    """The stream event without its partial: index and delta (or the finished piece)."""
    if isinstance(event, DoneEvent | ErrorEvent):
        key = "message" if isinstance(event, DoneEvent) else "error"
        return {"type": event.type, "reason": event.reason, key: message_to_dict(event.message)}
    if isinstance(event, StartEvent):
        return {"type": "start"}
    out: Json = {"type": event.type, "contentIndex": event.content_index}
    if isinstance(event, TextEndEvent | ThinkingEndEvent):
        out["content"] = event.content
    elif isinstance(event, ToolCallEndEvent):
        out["toolCall"] = block_to_dict(event.tool_call)
    elif isinstance(event, TextDeltaEvent | ThinkingDeltaEvent | ToolCallDeltaEvent):
        out["delta"] = event.delta
    return out


def event_to_dict(event: AgentEvent) -> Json:
    """An AgentEvent as one JSON object, Pi's names and fields."""
    if isinstance(event, MessageUpdateEvent):
        return {
            "type": "message_update",
            "assistantMessageEvent": assistant_event_to_dict(event.assistant_message_event),
        }
    if isinstance(event, MessageStartEvent | MessageEndEvent):
        return {"type": event.type, "message": message_to_dict(event.message)}
    if isinstance(event, TurnEndEvent):
        return {
            "type": "turn_end",
            "message": message_to_dict(event.message),
            "toolResults": [message_to_dict(m) for m in event.tool_results],
        }
    if isinstance(event, AgentEndEvent):
        return {"type": "agent_end", "messages": [message_to_dict(m) for m in event.messages]}
    if isinstance(event, ToolExecutionStartEvent):
        return {
            "type": event.type,
            "toolCallId": event.tool_call_id,
            "toolName": event.tool_name,
            "args": event.args,
        }
    if isinstance(event, ToolExecutionUpdateEvent):
        return {
            "type": event.type,
            "toolCallId": event.tool_call_id,
            "toolName": event.tool_name,
            "args": event.args,
            "partialResult": tool_result_to_dict(event.partial_result),
        }
    if isinstance(event, ToolExecutionEndEvent):
        return {
            "type": event.type,
            "toolCallId": event.tool_call_id,
            "toolName": event.tool_name,
            "result": tool_result_to_dict(event.result),
            "isError": event.is_error,
        }
    return {"type": event.type}
