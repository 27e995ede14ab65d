"""Bedrock's ConverseStream body of a scripted reply (for ``scripted_streams.sse_body``)."""

from __future__ import annotations

import json
from typing import Any

from tau_ai.eventstream import encode_event
from tau_ai.testing.scripted_reply import ScriptedReply


def converse_stream(reply: ScriptedReply) -> bytes:
    """Bedrock's ConverseStream: event stream messages (``tau_ai.eventstream``)."""

    def event(kind: str, value: dict[str, Any]) -> bytes:
        return encode_event(kind, json.dumps(value, separators=(",", ":")).encode())

    out = [event("messageStart", {"role": "assistant"})]
    index = 0
    if reply.thinking:
        reasoning = [{"text": reply.thinking}, {"signature": "scripted-signature"}]
        for delta in reasoning:
            out.append(
                event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"reasoningContent": delta}})
            )
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
        index += 1
    pieces = reply.text_pieces()
    for piece in pieces:
        out.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": piece}}))
    if pieces:
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
        index += 1
    for call in reply.calls:
        start = {"toolUse": {"toolUseId": call.id, "name": call.name}}
        out.append(event("contentBlockStart", {"contentBlockIndex": index, "start": start}))
        arguments = {"toolUse": {"input": json.dumps(call.arguments)}}
        out.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": arguments}))
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
        index += 1
    out.append(event("messageStop", {"stopReason": "tool_use" if reply.calls else "end_turn"}))
    usage = {
        "inputTokens": reply.input_tokens,
        "outputTokens": reply.output_tokens,
        "totalTokens": reply.input_tokens + reply.output_tokens,
    }
    out.append(event("metadata", {"usage": usage, "metrics": {"latencyMs": 120}}))
    return b"".join(out)
