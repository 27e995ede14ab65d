"""Context -> Anthropic Messages request.

What a caller may rely on: ``x-api-key`` and ``anthropic-version`` headers; the system prompt
as one text block and the last user turn's last block both carry ``cache_control:
ephemeral`` (prompt caching); a run of tool results becomes one user turn of ``tool_result``
blocks (images included, ``is_error`` kept); thinking from the same model replays with its
signature (redacted thinking as ``redacted_thinking``), other thinking as plain text; tool-call
ids are made to match ``^[a-zA-Z0-9_-]{1,64}$``. Thinking is adaptive with an effort on the
4.6 models and a token budget (which raises ``max_tokens``) on older ones.
"""

from __future__ import annotations

import re
from typing import Any

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._shared import NO_IMAGES, endpoint, max_output_tokens, same_model
from tau_ai.model import Model
from tau_ai.thinking import DEFAULT_BUDGETS as THINKING_BUDGETS
from tau_ai.thinking import clamp_level as clamp_thinking
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]
ANTHROPIC_VERSION = "2023-06-01"
INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
_ADAPTIVE = re.compile(r"(opus|sonnet)-4[.-]6")
_BAD_ID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
_EFFORT = {"minimal": "low", "low": "low", "medium": "medium", "high": "high", "xhigh": "max"}
CACHE = {"type": "ephemeral"}


def tool_use_id(raw: str) -> str:
    """An id Anthropic accepts; the same raw id always gives the same result."""
    cleaned = _BAD_ID_CHARS.sub("_", raw)[:64]
    return cleaned or "toolu_empty"


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    level = clamp_thinking(model, options.thinking_level)
    max_tokens = max_output_tokens(model, options)
    body: Json = {"model": model.id, "max_tokens": max_tokens, "stream": True}
    if context.system_prompt:
        body["system"] = [{"type": "text", "text": context.system_prompt, "cache_control": CACHE}]
    body["messages"] = convert_messages(model, context)
    if context.tools:
        body["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": dict(t.parameters)}
            for t in context.tools
        ]
    headers = {
        "content-type": "application/json",
        "accept": "text/event-stream",
        "anthropic-version": ANTHROPIC_VERSION,
        **model.headers,
    }
    thinking = level != "off"
    if thinking and _ADAPTIVE.search(model.id):
        body["thinking"] = {"type": "adaptive"}
        body["output_config"] = {"effort": _EFFORT[level]}
    elif thinking:
        budget = THINKING_BUDGETS[level]
        if options.max_tokens is None:
            body["max_tokens"] = min(max_tokens + budget, model.max_tokens)
        budget = min(budget, body["max_tokens"] - 1024)
        if budget >= 1024:
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
            if context.tools:
                headers["anthropic-beta"] = INTERLEAVED_BETA
    if options.temperature is not None and "thinking" not in body:
        body["temperature"] = options.temperature
    if api_key:
        headers["x-api-key"] = api_key
    headers.update(options.headers)
    return HttpRequestSpec(endpoint(model.base_url, "messages", "v1"), headers, body)


def convert_messages(model: Model, context: Context) -> list[Json]:
    out: list[Json] = []
    for message in context.messages:
        if isinstance(message, UserMessage):
            blocks = user_blocks(model, message.content)
            if blocks:
                out.append({"role": "user", "content": blocks})
        elif isinstance(message, AssistantMessage):
            blocks = assistant_blocks(model, message)
            if blocks:
                out.append({"role": "assistant", "content": blocks})
        else:
            block = tool_result(model, message)
            last = out[-1] if out else None
            if last and last["role"] == "user" and last["content"][0].get("type") == "tool_result":
                last["content"].append(block)
            else:
                out.append({"role": "user", "content": [block]})
    for turn in reversed(out):
        if turn["role"] == "user":
            turn["content"][-1] = {**turn["content"][-1], "cache_control": CACHE}
            break
    return out


def image_block(image: ImageContent) -> Json:
    return {"type": "image", "source": {"type": "base64", "media_type": image.mime_type, "data": image.data}}


def user_blocks(model: Model, content: str | list[TextContent | ImageContent]) -> list[Json]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    blocks: list[Json] = []
    for block in content:
        if isinstance(block, TextContent):
            if block.text:
                blocks.append({"type": "text", "text": block.text})
        elif model.supports_images:
            blocks.append(image_block(block))
        else:
            blocks.append({"type": "text", "text": NO_IMAGES})
    return blocks


def assistant_blocks(model: Model, message: AssistantMessage) -> list[Json]:
    same = same_model(message, model)
    blocks: list[Json] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if same and block.redacted and block.thinking_signature:
                blocks.append({"type": "redacted_thinking", "data": block.thinking_signature})
            elif same and block.thinking_signature:
                blocks.append(
                    {"type": "thinking", "thinking": block.thinking, "signature": block.thinking_signature}
                )
            elif block.thinking and not block.redacted:
                blocks.append({"type": "text", "text": block.thinking})
        elif isinstance(block, TextContent):
            if block.text:
                blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ToolCall):
            blocks.append(
                {
                    "type": "tool_use",
                    "id": tool_use_id(block.id),
                    "name": block.name,
                    "input": block.arguments,
                }
            )
    return blocks


def tool_result(model: Model, message: ToolResultMessage) -> Json:
    content = user_blocks(model, list(message.content))
    out: Json = {
        "type": "tool_result",
        "tool_use_id": tool_use_id(message.tool_call_id),
        "content": content or [{"type": "text", "text": "(no output)"}],
    }
    if message.is_error:
        out["is_error"] = True
    return out
