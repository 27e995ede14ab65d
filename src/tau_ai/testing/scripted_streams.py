"""Wire bodies of scripted replies, in each API's own streaming format.

``sse_body(api, reply)`` renders a ``ScriptedReply`` (thinking, text, tool calls, usage) as
the bytes that API's server would stream, so end-to-end tests and benchmarks can serve a
real HTTP response through ``ReplayServer`` and drive the real adapters and the real ``tau``
command with no network. The shapes follow the recorded fixtures in tests/data/providers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tau_ai.testing.scripted_bedrock import converse_stream
from tau_ai.testing.scripted_reply import ScriptedCall, ScriptedReply


def _sse(data: Any, event: str | None = None, sep: str = "\n") -> str:
    head = f"event: {event}{sep}" if event else ""
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}{sep}{sep}"


def _chat(reply: ScriptedReply, *, mistral: bool = False) -> str:
    out = []
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "scripted"}

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> None:
        out.append(
            _sse({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra})
        )

    chunk({"role": "assistant", "content": ""})
    if reply.thinking:
        chunk({"reasoning_content": reply.thinking})
    for piece in reply.text_pieces():
        chunk({"content": piece})
    for index, call in enumerate(reply.calls):
        args = json.dumps(call.arguments)
        if mistral:
            function = {"name": call.name, "arguments": args}
            chunk({"tool_calls": [{"id": call.id, "type": "function", "index": index, "function": function}]})
            continue
        half = len(args) // 2
        head = {
            "index": index,
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": args[:half]},
        }
        chunk({"tool_calls": [head]})
        chunk({"tool_calls": [{"index": index, "function": {"arguments": args[half:]}}]})
    usage = {
        "prompt_tokens": reply.input_tokens,
        "completion_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
    }
    chunk({}, "tool_calls" if reply.calls else "stop", usage=usage)
    out.append("data: [DONE]\n\n")
    return "".join(out)


def _anthropic(reply: ScriptedReply) -> str:
    out = [
        _sse(
            {
                "type": "message_start",
                "message": {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "model": "scripted",
                    "content": [],
                    "stop_reason": None,
                    "usage": {"input_tokens": reply.input_tokens, "output_tokens": 1},
                },
            },
            "message_start",
        )
    ]
    index = 0

    def block(start: dict[str, Any], deltas: list[dict[str, Any]]) -> None:
        nonlocal index
        out.append(
            _sse(
                {"type": "content_block_start", "index": index, "content_block": start}, "content_block_start"
            )
        )
        for delta in deltas:
            out.append(
                _sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta")
            )
        out.append(_sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
        index += 1

    if reply.thinking:
        block(
            {"type": "thinking", "thinking": ""},
            [
                {"type": "thinking_delta", "thinking": reply.thinking},
                {"type": "signature_delta", "signature": "c2ln"},
            ],
        )
    if reply.text_pieces():
        block({"type": "text", "text": ""}, [{"type": "text_delta", "text": p} for p in reply.text_pieces()])
    for call in reply.calls:
        args = json.dumps(call.arguments)
        block(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": {}},
            [
                {"type": "input_json_delta", "partial_json": args[: len(args) // 2]},
                {"type": "input_json_delta", "partial_json": args[len(args) // 2 :]},
            ],
        )
    stop = "tool_use" if reply.calls else "end_turn"
    usage = {"output_tokens": reply.output_tokens}
    out.append(
        _sse({"type": "message_delta", "delta": {"stop_reason": stop}, "usage": usage}, "message_delta")
    )
    out.append(_sse({"type": "message_stop"}, "message_stop"))
    return "".join(out)


def _google(reply: ScriptedReply) -> str:
    out = []
    parts: list[dict[str, Any]] = []
    if reply.thinking:
        out.append(
            _sse(
                {
                    "candidates": [
                        {"content": {"parts": [{"text": reply.thinking, "thought": True}], "role": "model"}}
                    ]
                },
                sep="\r\n",
            )
        )
    for piece in reply.text_pieces():
        out.append(
            _sse({"candidates": [{"content": {"parts": [{"text": piece}], "role": "model"}}]}, sep="\r\n")
        )
    parts = [{"functionCall": {"name": c.name, "args": c.arguments}} for c in reply.calls]
    usage = {
        "promptTokenCount": reply.input_tokens,
        "candidatesTokenCount": reply.output_tokens,
        "totalTokenCount": reply.input_tokens + reply.output_tokens,
    }
    final = {
        "candidates": [
            {"content": {"parts": parts or [{"text": ""}], "role": "model"}, "finishReason": "STOP"}
        ]
    }
    out.append(_sse({**final, "usageMetadata": usage, "responseId": "r1"}, sep="\r\n"))
    return "".join(out)


def _responses(reply: ScriptedReply) -> str:
    out = [
        _sse(
            {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}},
            "response.created",
        )
    ]
    position = 0

    def item(added: dict[str, Any], events: list[dict[str, Any]], done: dict[str, Any]) -> None:
        nonlocal position
        out.append(
            _sse(
                {"type": "response.output_item.added", "output_index": position, "item": added},
                "response.output_item.added",
            )
        )
        for event in events:
            out.append(_sse({**event, "output_index": position}, event["type"]))
        out.append(
            _sse(
                {"type": "response.output_item.done", "output_index": position, "item": done},
                "response.output_item.done",
            )
        )
        position += 1

    if reply.thinking:
        summary = [{"type": "summary_text", "text": reply.thinking}]
        item(
            {"type": "reasoning", "id": "rs_1", "summary": []},
            [
                {
                    "type": "response.reasoning_summary_text.delta",
                    "item_id": "rs_1",
                    "summary_index": 0,
                    "delta": reply.thinking,
                }
            ],
            {"type": "reasoning", "id": "rs_1", "summary": summary, "encrypted_content": "ZW5j"},
        )
    if reply.text_pieces():
        deltas = [
            {"type": "response.output_text.delta", "item_id": "msg_1", "content_index": 0, "delta": p}
            for p in reply.text_pieces()
        ]
        content = [{"type": "output_text", "text": "".join(reply.text_pieces()), "annotations": []}]
        item(
            {"type": "message", "id": "msg_1", "role": "assistant", "content": []},
            deltas,
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": content,
            },
        )
    for n, call in enumerate(reply.calls):
        args = json.dumps(call.arguments)
        fc = {"type": "function_call", "id": f"fc_{n}", "call_id": call.id, "name": call.name}
        item(
            {**fc, "arguments": ""},
            [{"type": "response.function_call_arguments.delta", "item_id": f"fc_{n}", "delta": args}],
            {**fc, "arguments": args, "status": "completed"},
        )
    usage = {
        "input_tokens": reply.input_tokens,
        "output_tokens": reply.output_tokens,
        "total_tokens": reply.input_tokens + reply.output_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
    }
    completed = {
        "type": "response.completed",
        "response": {"id": "resp_1", "status": "completed", "usage": usage},
    }
    out.append(_sse(completed, "response.completed"))
    return "".join(out)


_BINARY: dict[str, Callable[[ScriptedReply], bytes]] = {"bedrock-converse-stream": converse_stream}
_RENDERERS: dict[str, Callable[[ScriptedReply], str]] = {
    "openai-completions": _chat,
    "mistral-conversations": lambda r: _chat(r, mistral=True),
    "anthropic-messages": _anthropic,
    "google-generative-ai": _google,
    "openai-responses": _responses,
    "azure-openai-responses": _responses,
    "google-vertex": _google,
    "anthropic-vertex": _anthropic,
}
APIS: tuple[str, ...] = (*_RENDERERS, *_BINARY)


def sse_body(api: str, reply: ScriptedReply) -> bytes:
    """The streamed body ``api``'s server would send for ``reply`` (SSE, or Bedrock's binary
    event stream)."""
    binary = _BINARY.get(api)
    return binary(reply) if binary is not None else _RENDERERS[api](reply).encode("utf-8")


__all__ = ["APIS", "ScriptedCall", "ScriptedReply", "sse_body"]
