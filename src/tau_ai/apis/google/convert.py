"""Context -> Gemini ``streamGenerateContent?alt=sse`` request.

What a caller may rely on: the API key travels in the ``x-goog-api-key`` header, never in
the URL; the system prompt is ``systemInstruction``; tool parameters go as
``parametersJsonSchema`` (plain JSON Schema); thoughts and ``thoughtSignature``s replay only
to the same model (Gemini 3 calls without a signature get Google's documented skip value);
a run of tool results becomes one user turn of ``functionResponse`` parts followed by any
images they carried. Thinking: Gemini 3 takes a ``thinkingLevel``, 2.5 a token budget.
"""

from __future__ import annotations

import re
from typing import Any

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall, text_of
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions, ThinkingLevel
from tau_ai.apis._converted import ConvertedItems, convert_all
from tau_ai.apis._shared import (
    IMAGE_NOTE,
    NO_IMAGES,
    endpoint,
    images_of,
    max_output_tokens,
    same_model,
)
from tau_ai.model import Model
from tau_ai.thinking import DEFAULT_BUDGETS as THINKING_BUDGETS
from tau_ai.thinking import clamp_level as clamp_thinking
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]
SKIP_SIGNATURE = "skip_thought_signature_validator"
_GEMINI_3 = re.compile(r"gemini-3")
_PRO_25 = re.compile(r"gemini-2\.5-pro")


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_contents(model, context))


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, contents: list[Any]
) -> HttpRequestSpec:
    """The request, with ``contents`` as the conversion of ``context.messages``."""
    body: Json = {"contents": contents}
    if context.system_prompt:
        body["systemInstruction"] = {"parts": [{"text": context.system_prompt}]}
    config: Json = {"maxOutputTokens": max_output_tokens(model, options)}
    if options.temperature is not None:
        config["temperature"] = options.temperature
    if model.reasoning:
        config["thinkingConfig"] = thinking_config(model, clamp_thinking(model, options.thinking_level))
    body["generationConfig"] = config
    if context.tools:
        body["tools"] = [
            {
                "functionDeclarations": [
                    {"name": t.name, "description": t.description, "parametersJsonSchema": dict(t.parameters)}
                    for t in context.tools
                ]
            }
        ]
    headers = {"content-type": "application/json", "accept": "text/event-stream", **model.headers}
    if api_key:
        headers["x-goog-api-key"] = api_key
    headers.update(options.headers)
    url = endpoint(model.base_url, f"models/{model.id}:streamGenerateContent?alt=sse")
    return HttpRequestSpec(url, headers, body)


def thinking_config(model: Model, level: ThinkingLevel) -> Json:
    if _GEMINI_3.search(model.id):
        if level == "off":
            return {"thinkingLevel": "LOW"}  # Gemini 3 cannot switch thinking off
        return {"includeThoughts": True, "thinkingLevel": "LOW" if level in ("minimal", "low") else "HIGH"}
    pro = bool(_PRO_25.search(model.id))
    if level == "off":
        return {"thinkingBudget": 128 if pro else 0}
    return {"includeThoughts": True, "thinkingBudget": min(THINKING_BUDGETS[level], 32768 if pro else 24576)}


def convert_contents(model: Model, context: Context) -> list[Json]:
    return convert_all(Converter(model), context.messages)


class Converter(ConvertedItems):
    """Messages converted one at a time (a MessageConverter): what ``convert_contents`` does."""

    __slots__ = ("_model", "_pending")

    def __init__(self, model: Model, frozen: bool = False) -> None:
        self._model = model
        super().__init__(frozen)
        self._pending: list[Json] = []  # images of the current run of tool results

    def copy(self) -> Converter:
        twin = Converter.__new__(Converter)
        twin._model, twin._out, twin._pending = self._model, self._out.copy(), list(self._pending)
        return twin

    def _flush(self) -> None:
        last = self._out.last
        assert last is not None  # images come only after a tool result's turn
        self._out.replace_last({**last, "parts": [*last["parts"], {"text": IMAGE_NOTE}, *self._pending]})
        self._pending = []

    def _seeded(self) -> None:
        self._pending = []

    def add(self, message: LlmMessage) -> None:
        model, out = self._model, self._out
        if not isinstance(message, ToolResultMessage) and self._pending:
            self._flush()
        if isinstance(message, UserMessage):
            parts = user_parts(model, message.content)
            if parts:
                out.append({"role": "user", "parts": parts})
        elif isinstance(message, AssistantMessage):
            parts = model_parts(model, message)
            if parts:
                out.append({"role": "model", "parts": parts})
        else:
            part = function_response(message)
            last = out.last
            if last and last["role"] == "user" and "functionResponse" in last["parts"][0]:
                out.replace_last({**last, "parts": [*last["parts"], part]})
            else:
                out.append({"role": "user", "parts": [part]})
            if model.supports_images:
                self._pending += [inline(i) for i in images_of(message.content)]

    def messages(self) -> list[Any]:
        if not self._pending:
            return self._out.items()
        twin = self.copy()
        twin._flush()
        return twin._out.items()


def inline(image: ImageContent) -> Json:
    return {"inlineData": {"mimeType": image.mime_type, "data": image.data}}


def user_parts(model: Model, content: str | list[TextContent | ImageContent]) -> list[Json]:
    if isinstance(content, str):
        return [{"text": content}] if content else []
    parts: list[Json] = []
    for block in content:
        if isinstance(block, TextContent):
            if block.text:
                parts.append({"text": block.text})
        elif model.supports_images:
            parts.append(inline(block))
        else:
            parts.append({"text": NO_IMAGES})
    return parts


def model_parts(model: Model, message: AssistantMessage) -> list[Json]:
    same = same_model(message, model)
    parts: list[Json] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if block.redacted or not block.thinking:
                continue
            part: Json = {"text": block.thinking}
            if same:
                part["thought"] = True
                if block.thinking_signature:
                    part["thoughtSignature"] = block.thinking_signature
            parts.append(part)
        elif isinstance(block, TextContent):
            if not block.text:
                continue
            part = {"text": block.text}
            if same and block.text_signature:
                part["thoughtSignature"] = block.text_signature
            parts.append(part)
        elif isinstance(block, ToolCall):
            part = {"functionCall": {"name": block.name, "args": block.arguments}}
            if same and block.thought_signature:
                part["thoughtSignature"] = block.thought_signature
            elif _GEMINI_3.search(model.id):
                part["thoughtSignature"] = SKIP_SIGNATURE
            parts.append(part)
    return parts


def function_response(message: ToolResultMessage) -> Json:
    text = text_of(message.content)
    if not text:
        text = "(see attached image)" if images_of(message.content) else "(no output)"
    key = "error" if message.is_error else "output"
    return {"functionResponse": {"name": message.tool_name, "response": {key: text}}}
