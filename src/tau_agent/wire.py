"""Messages as Pi-compatible JSON values (camelCase), and back.

``message_to_dict`` is the one encoder for messages wherever they are written: session
files, JSON mode, RPC (events: wire_events.py). ``message_from_dict`` is the lenient
decoder: it ignores unknown fields (a newer writer may add some), coerces what it can, and
raises ``WireError`` with a one-line reason for a shape it cannot read. Session files are
read faster by decoding straight into the message types (session/fast_decode.py); lines
that path refuses come here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    Cost,
    CustomMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
)

Json = dict[str, Any]


class WireError(ValueError):
    """A JSON value is not a message (or block) this codec can read."""


# -- content blocks ----------------------------------------------------------------------------


def block_to_dict(block: TextContent | ThinkingContent | ImageContent | ToolCall) -> Json:
    if isinstance(block, TextContent):
        out: Json = {"type": "text", "text": block.text}
        if block.text_signature is not None:
            out["textSignature"] = block.text_signature
        return out
    if isinstance(block, ThinkingContent):
        out = {"type": "thinking", "thinking": block.thinking}
        if block.thinking_signature is not None:
            out["thinkingSignature"] = block.thinking_signature
        if block.redacted:
            out["redacted"] = True
        return out
    if isinstance(block, ImageContent):
        return {"type": "image", "data": block.data, "mimeType": block.mime_type}
    out = {"type": "toolCall", "id": block.id, "name": block.name, "arguments": block.arguments}
    if block.thought_signature is not None:
        out["thoughtSignature"] = block.thought_signature
    return out


def block_from_dict(data: Any) -> TextContent | ThinkingContent | ImageContent | ToolCall:
    # ``type(x) is dict`` first: JSON gives plain dicts, and an ABC isinstance check costs
    # several times more; session replay decodes every block of every message.
    if type(data) is not dict and not isinstance(data, Mapping):
        raise WireError(f"content block must be an object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "text":
        return TextContent(_str(data, "text"), data.get("textSignature"))
    if kind == "toolCall":
        arguments = data.get("arguments")
        return ToolCall(
            _str(data, "id"),
            _str(data, "name"),
            arguments
            if type(arguments) is dict
            else dict(arguments)
            if isinstance(arguments, Mapping)
            else {},
            data.get("thoughtSignature"),
        )
    if kind == "thinking":
        return ThinkingContent(
            _str(data, "thinking"), data.get("thinkingSignature"), bool(data.get("redacted"))
        )
    if kind == "image":
        return ImageContent(_str(data, "data"), _str(data, "mimeType"))
    raise WireError(f"unknown content block type {kind!r}")


def _str(data: Mapping[str, Any], key: str, default: str | None = "") -> str:
    value = data.get(key, default)
    if type(value) is not str:
        raise WireError(f"field {key!r} must be a string")
    return value


def _blocks(value: Any, allowed: tuple[type, ...], where: str) -> list[Any]:
    if type(value) is not list:
        raise WireError(f"{where} content must be a list")
    blocks = [block_from_dict(item) for item in value]
    for block in blocks:
        if type(block) not in allowed:
            raise WireError(f"{where} content may not hold a {block.type} block")
    return blocks


def _user_content(value: Any, where: str) -> str | list[Any]:
    return value if isinstance(value, str) else _blocks(value, (TextContent, ImageContent), where)


# -- usage --------------------------------------------------------------------------------------


def usage_to_dict(usage: Usage) -> Json:
    c = usage.cost
    out: Json = {
        "input": usage.input,
        "output": usage.output,
        "cacheRead": usage.cache_read,
        "cacheWrite": usage.cache_write,
        "totalTokens": usage.total_tokens,
        "cost": {
            "input": c.input,
            "output": c.output,
            "cacheRead": c.cache_read,
            "cacheWrite": c.cache_write,
            "total": c.total,
        },
    }
    if usage.reasoning:
        out["reasoning"] = usage.reasoning
    return out


def _number(data: Mapping[str, Any], key: str, kind: type[int] | type[float]) -> Any:
    value = data.get(key)
    if type(value) is kind:
        return value
    if value is None or value is False:
        return kind(0)
    try:
        return kind(value)
    except (TypeError, ValueError):
        raise WireError(f"usage field {key!r} must be a number") from None


def usage_from_dict(data: Any) -> Usage:
    if not isinstance(data, Mapping):
        return Usage()
    cost = data.get("cost")
    return Usage(
        input=_number(data, "input", int),
        output=_number(data, "output", int),
        cache_read=_number(data, "cacheRead", int),
        cache_write=_number(data, "cacheWrite", int),
        reasoning=_number(data, "reasoning", int),
        total_tokens=_number(data, "totalTokens", int),
        cost=Cost(
            _number(cost, "input", float),
            _number(cost, "output", float),
            _number(cost, "cacheRead", float),
            _number(cost, "cacheWrite", float),
            _number(cost, "total", float),
        )
        if type(cost) is dict or isinstance(cost, Mapping)
        else Cost(),
    )


# -- messages -----------------------------------------------------------------------------------


def message_to_dict(message: AgentMessage) -> Json:
    if isinstance(message, UserMessage):
        content = (
            message.content
            if isinstance(message.content, str)
            else [block_to_dict(b) for b in message.content]
        )
        return {"role": "user", "content": content, "timestamp": message.timestamp}
    if isinstance(message, AssistantMessage):
        out: Json = {
            "role": "assistant",
            "content": [block_to_dict(b) for b in message.content],
            "api": message.api,
            "provider": message.provider,
            "model": message.model,
            "usage": usage_to_dict(message.usage),
            "stopReason": message.stop_reason,
            "timestamp": message.timestamp,
        }
        if message.error_message is not None:
            out["errorMessage"] = message.error_message
        if message.response_id is not None:
            out["responseId"] = message.response_id
        if message.response_model is not None:
            out["responseModel"] = message.response_model
        return out
    if isinstance(message, ToolResultMessage):
        out = {
            "role": "toolResult",
            "toolCallId": message.tool_call_id,
            "toolName": message.tool_name,
            "content": [block_to_dict(b) for b in message.content],
            "isError": message.is_error,
            "timestamp": message.timestamp,
        }
        if message.details is not None:
            out["details"] = message.details
        return out
    if isinstance(message, BashExecutionMessage):
        out = {
            "role": "bashExecution",
            "command": message.command,
            "output": message.output,
            "exitCode": message.exit_code,
            "cancelled": message.cancelled,
            "truncated": message.truncated,
            "timestamp": message.timestamp,
        }
        if message.full_output_path is not None:
            out["fullOutputPath"] = message.full_output_path
        if message.exclude_from_context:
            out["excludeFromContext"] = True
        return out
    if isinstance(message, CustomMessage):
        content = (
            message.content
            if isinstance(message.content, str)
            else [block_to_dict(b) for b in message.content]
        )
        out = {
            "role": "custom",
            "customType": message.custom_type,
            "content": content,
            "display": message.display,
            "timestamp": message.timestamp,
        }
        if message.details is not None:
            out["details"] = message.details
        return out
    if isinstance(message, CompactionSummaryMessage):
        return {
            "role": "compactionSummary",
            "summary": message.summary,
            "tokensBefore": message.tokens_before,
            "timestamp": message.timestamp,
        }
    return {
        "role": "branchSummary",
        "summary": message.summary,
        "fromId": message.from_id,
        "timestamp": message.timestamp,
    }


def _text_or_empty(value: Any) -> str:
    return value if type(value) is str else str(value or "")


def message_from_dict(data: Any) -> AgentMessage:
    """Read a message; raises WireError (one line) for anything it cannot make sense of."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise WireError(f"message must be an object, got {type(data).__name__}")
    role = data.get("role")
    ts = data.get("timestamp")
    timestamp = ts if type(ts) is int else int(ts) if type(ts) is float else 0
    if role == "user":
        return UserMessage(_user_content(data.get("content", ""), "user"), timestamp)
    if role == "assistant":
        stop = data.get("stopReason", "stop")
        if stop not in ("stop", "length", "toolUse", "error", "aborted"):
            raise WireError(f"unknown stopReason {stop!r}")
        blocks = _blocks(data.get("content", []), (TextContent, ThinkingContent, ToolCall), "assistant")
        get = data.get
        return AssistantMessage(
            blocks,
            _text_or_empty(get("api")),
            _text_or_empty(get("provider")),
            _text_or_empty(get("model")),
            usage_from_dict(get("usage")),
            stop,
            get("errorMessage"),
            get("responseId"),
            timestamp,
            get("responseModel") if isinstance(get("responseModel"), str) else None,
        )
    if role == "toolResult":
        content = data.get("content", [])
        blocks = (
            [TextContent(content)]
            if isinstance(content, str)
            else _blocks(content, (TextContent, ImageContent), "toolResult")
        )
        return ToolResultMessage(
            _str(data, "toolCallId"),
            _str(data, "toolName"),
            blocks,
            data.get("details"),
            bool(data.get("isError")),
            timestamp,
        )
    if role == "bashExecution":
        code = data.get("exitCode")
        return BashExecutionMessage(
            _str(data, "command"),
            _str(data, "output"),
            code if isinstance(code, int) else None,
            bool(data.get("cancelled")),
            bool(data.get("truncated")),
            data.get("fullOutputPath"),
            bool(data.get("excludeFromContext")),
            timestamp,
        )
    if role in ("custom", "hookMessage"):
        return CustomMessage(
            _str(data, "customType"),
            _user_content(data.get("content", ""), "custom"),
            bool(data.get("display", True)),
            data.get("details"),
            timestamp,
        )
    if role == "compactionSummary":
        return CompactionSummaryMessage(_str(data, "summary"), int(data.get("tokensBefore") or 0), timestamp)
    if role == "branchSummary":
        return BranchSummaryMessage(_str(data, "summary"), _str(data, "fromId"), timestamp)
    raise WireError(f"unknown message role {role!r}")
