"""Context -> Amazon Bedrock ConverseStream request (``POST /model/{modelId}/converse-stream``).

What a caller may rely on: the model id travels in the URL path, percent-encoded (``:`` and
``/`` of inference-profile ids and ARNs included); the body has ``messages`` (roles
alternate: consecutive user-side messages, tool results included, merge into one user turn),
``system`` as text blocks, ``inferenceConfig`` (``maxTokens``, ``temperature``), ``toolConfig``
when tools are given, and for Claude models with thinking on ``additionalModelRequestFields``
(adaptive thinking with an effort on Opus/Sonnet 4.6+, ``xhigh`` sent as ``max`` on Opus 4.6 and
as ``xhigh`` on Opus 4.7, else a token budget that raises
``maxTokens``, with the interleaved-thinking beta). Claude models that cache prompts get a
``cachePoint`` after the system prompt and at the end of the last user turn. Thinking replays as
``reasoningContent`` to the model that produced it (with its signature on Claude; without a
signature, as text), as text to any other. Tool-call ids are made to match
``[a-zA-Z0-9_-]{1,64}``. Credentials are not added here: see ``tau_ai.apis.bedrock.sign_request``.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._converted import ConvertedItems, convert_all
from tau_ai.apis._shared import NO_IMAGES, max_output_tokens, same_model
from tau_ai.model import Model
from tau_ai.thinking import DEFAULT_BUDGETS, clamp_level, claude_effort
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]
INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
CACHE_POINT: Json = {"cachePoint": {"type": "default"}}
_BAD_ID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
_IMAGE_FORMATS = {
    "image/jpeg": "jpeg",
    "image/jpg": "jpeg",
    "image/png": "png",
    "image/gif": "gif",
    "image/webp": "webp",
}


def _names(model: Model) -> list[str]:
    out = []
    for value in (model.id, model.name):
        lower = value.lower()
        out += [lower, re.sub(r"[\s_.:]+", "-", lower)]
    return out


def is_claude(model: Model) -> bool:
    """A Claude model (by id, or by name for application inference profiles)."""
    return any("claude" in name for name in _names(model))


def adaptive_thinking(model: Model) -> bool:
    return any(s in name for name in _names(model) for s in ("opus-4-6", "opus-4-7", "sonnet-4-6"))


def caches_prompts(model: Model) -> bool:
    """Claude 4.x, 3.7 Sonnet and 3.5 Haiku accept cache points (Nova caches by itself)."""
    names = _names(model)
    if not any("claude" in n for n in names):
        return bool(model.compat.get("bedrockCachePoints"))
    return any(s in n for n in names for s in ("-4-", "claude-3-7-sonnet", "claude-3-5-haiku"))


def tool_use_id(raw: str) -> str:
    return _BAD_ID_CHARS.sub("_", raw)[:64] or "tool_empty"


def converse_url(model: Model) -> str:
    return f"{model.base_url.rstrip('/')}/model/{quote(model.id, safe='')}/converse-stream"


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_messages(model, context))


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, messages: list[Any]
) -> HttpRequestSpec:
    """The request, with ``messages`` as the conversion of ``context.messages``."""
    max_tokens = max_output_tokens(model, options)
    body: Json = {"messages": messages}
    if context.system_prompt:
        body["system"] = [{"text": context.system_prompt}]
        if caches_prompts(model):
            body["system"].append(CACHE_POINT)
    inference: Json = {"maxTokens": max_tokens}
    extra = thinking_fields(model, options, inference, bool(context.tools))
    if options.temperature is not None and extra is None:
        inference["temperature"] = options.temperature
    body["inferenceConfig"] = inference
    if context.tools:
        tools = [
            {
                "toolSpec": {
                    "name": t.name,
                    "description": t.description,
                    "inputSchema": {"json": dict(t.parameters)},
                }
            }
            for t in context.tools
        ]
        body["toolConfig"] = {"tools": tools, "toolChoice": {"auto": {}}}
    if extra is not None:
        body["additionalModelRequestFields"] = extra
    headers = {
        "content-type": "application/json",
        "accept": "application/vnd.amazon.eventstream",
        **model.headers,
    }
    headers.update(options.headers)
    return HttpRequestSpec(converse_url(model), headers, body)


def thinking_fields(model: Model, options: StreamOptions, inference: Json, tools: bool) -> Json | None:
    """Claude's thinking settings (``additionalModelRequestFields``); may raise ``maxTokens``."""
    level = clamp_level(model, options.thinking_level)
    if level == "off" or not is_claude(model):
        return None
    if adaptive_thinking(model):
        return {
            "thinking": {"type": "adaptive", "display": "summarized"},
            "output_config": {"effort": claude_effort(model, level)},
        }
    budget = DEFAULT_BUDGETS["high" if level == "xhigh" else level]
    if options.max_tokens is None:
        inference["maxTokens"] = min(inference["maxTokens"] + budget, model.max_tokens)
    budget = min(budget, inference["maxTokens"] - 1024)
    if budget < 1024:
        return None
    fields: Json = {"thinking": {"type": "enabled", "budget_tokens": budget, "display": "summarized"}}
    if tools:
        fields["anthropic_beta"] = [INTERLEAVED_BETA]
    return fields


def convert_messages(model: Model, context: Context) -> list[Any]:
    return convert_all(Converter(model), context.messages)


class Converter(ConvertedItems):
    """Messages converted one at a time (a MessageConverter): what ``convert_messages`` does."""

    __slots__ = ("_cache", "_model")

    def __init__(self, model: Model, frozen: bool = False) -> None:
        self._model = model
        super().__init__(frozen)
        self._cache = caches_prompts(model)

    def copy(self) -> Converter:
        twin = Converter.__new__(Converter)
        twin._model, twin._out, twin._cache = self._model, self._out.copy(), self._cache
        return twin

    def add(self, message: LlmMessage) -> None:
        role, blocks = _blocks(self._model, message)
        if not blocks:
            return
        last = self._out.last
        if last is not None and last["role"] == role == "user":  # Bedrock wants roles to alternate
            self._out.replace_last({"role": "user", "content": [*last["content"], *blocks]})
        else:
            self._out.append({"role": role, "content": blocks})

    def messages(self) -> list[Any]:
        items = self._out.items()
        last = self._out.last
        if self._cache and last is not None and last["role"] == "user":
            items[-1] = {**last, "content": [*last["content"], CACHE_POINT]}
        return items


def _blocks(model: Model, message: LlmMessage) -> tuple[str, list[Json]]:
    if isinstance(message, UserMessage):
        return "user", user_blocks(model, message.content)
    if isinstance(message, AssistantMessage):
        return "assistant", assistant_blocks(model, message)
    return "user", [tool_result(model, message)]


def image_block(image: ImageContent) -> Json:
    return {"image": {"format": _IMAGE_FORMATS.get(image.mime_type, "png"), "source": {"bytes": image.data}}}


def user_blocks(model: Model, content: str | list[TextContent | ImageContent]) -> list[Json]:
    if isinstance(content, str):
        return [{"text": content}] if content.strip() else []
    blocks: list[Json] = []
    for block in content:
        if isinstance(block, TextContent):
            if block.text.strip():
                blocks.append({"text": block.text})
        elif model.supports_images and block.mime_type in _IMAGE_FORMATS:
            blocks.append(image_block(block))
        else:
            blocks.append({"text": NO_IMAGES})
    return blocks


def assistant_blocks(model: Model, message: AssistantMessage) -> list[Json]:
    same, claude = same_model(message, model), is_claude(model)
    blocks: list[Json] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if same and block.redacted and block.thinking_signature and claude:
                blocks.append({"reasoningContent": {"redactedContent": block.thinking_signature}})
            elif not block.thinking.strip() or block.redacted:
                continue
            elif same and claude and block.thinking_signature:
                text = {"text": block.thinking, "signature": block.thinking_signature}
                blocks.append({"reasoningContent": {"reasoningText": text}})
            elif same and not claude:
                blocks.append({"reasoningContent": {"reasoningText": {"text": block.thinking}}})
            else:
                blocks.append({"text": block.thinking})
        elif isinstance(block, TextContent):
            if block.text.strip():
                blocks.append({"text": block.text})
        elif isinstance(block, ToolCall):
            blocks.append(
                {
                    "toolUse": {
                        "toolUseId": tool_use_id(block.id),
                        "name": block.name,
                        "input": block.arguments,
                    }
                }
            )
    return blocks


def tool_result(model: Model, message: ToolResultMessage) -> Json:
    content = user_blocks(model, list(message.content)) or [{"text": "(no output)"}]
    result = {
        "toolUseId": tool_use_id(message.tool_call_id),
        "content": content,
        "status": "error" if message.is_error else "success",
    }
    return {"toolResult": result}
