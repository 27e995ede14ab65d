"""Context -> Mistral chat completions request (``/v1/chat/completions``, streaming).

What a caller may rely on: tool-call ids become the 9 alphanumeric characters Mistral
requires (an id that already fits is kept; any other maps to a stable hash, and its result
follows the same mapping); a user turn right after tool results gets a short assistant turn
in between, which Mistral insists on; thinking from the same model replays as a typed
``thinking`` chunk, other thinking as text; images in tool results follow as a user message;
``prompt_mode: reasoning`` is asked for when a reasoning model should think.
"""

from __future__ import annotations

import re
import string
from typing import Any

from tau_agent.content import TextContent, ThinkingContent, ToolCall, text_of
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._converted import ConvertedItems, ConvertedList, convert_all
from tau_ai.apis._shared import (
    AFTER_TOOLS,
    IMAGE_NOTE,
    NO_IMAGES,
    data_url,
    endpoint,
    images_of,
    json_text,
    max_output_tokens,
    same_model,
    short_id,
)
from tau_ai.model import Model
from tau_ai.thinking import clamp_level as clamp_thinking
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]
_VALID_ID = re.compile(r"^[a-zA-Z0-9]{9}$")
_ALPHANUMERIC = string.ascii_letters + string.digits


def mistral_id(raw: str) -> str:
    """A tool-call id Mistral accepts (exactly 9 letters or digits), stable for a given id."""
    return raw if _VALID_ID.match(raw) else short_id(raw, 9, _ALPHANUMERIC)


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_messages(model, context))


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, messages: list[Any]
) -> HttpRequestSpec:
    """The request, with ``messages`` as the conversion of ``context``'s system prompt and messages."""
    body: Json = {
        "model": model.id,
        "messages": messages,
        "stream": True,
        "max_tokens": max_output_tokens(model, options),
    }
    if options.temperature is not None:
        body["temperature"] = options.temperature
    if context.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {"name": t.name, "description": t.description, "parameters": dict(t.parameters)},
            }
            for t in context.tools
        ]
    if model.reasoning and clamp_thinking(model, options.thinking_level) != "off":
        body["prompt_mode"] = "reasoning"
    headers = {"content-type": "application/json", "accept": "text/event-stream", **model.headers}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    headers.update(options.headers)
    return HttpRequestSpec(endpoint(model.base_url, "chat/completions", "v1"), headers, body)


def convert_messages(model: Model, context: Context) -> list[Json]:
    return convert_all(Converter(model, context.system_prompt), context.messages)


class Converter(ConvertedItems):
    """Messages converted one at a time (a MessageConverter): what ``convert_messages`` does."""

    __slots__ = ("_model", "_pending")

    def __init__(self, model: Model, system_prompt: str, frozen: bool = False) -> None:
        self._model = model
        super().__init__(frozen)
        self._pending: list[Json] = []  # images of the current run of tool results
        if system_prompt:
            self._out.append({"role": "system", "content": system_prompt})

    def copy(self) -> Converter:
        twin = Converter.__new__(Converter)
        twin._model, twin._out, twin._pending = self._model, self._out.copy(), list(self._pending)
        return twin

    def _seeded(self) -> None:
        self._pending = []

    def add(self, message: LlmMessage) -> None:
        model, out = self._model, self._out
        if isinstance(message, ToolResultMessage):
            text = text_of(message.content)
            if not text:
                text = "(see attached image)" if images_of(message.content) else "(no output)"
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": mistral_id(message.tool_call_id),
                    "name": message.tool_name,
                    "content": text,
                }
            )
            if model.supports_images:
                self._pending += [
                    {"type": "image_url", "image_url": data_url(i)} for i in images_of(message.content)
                ]
            return
        if self._pending:
            _user(out, [{"type": "text", "text": IMAGE_NOTE}, *self._pending])
            self._pending = []
        if isinstance(message, UserMessage):
            content = user_content(model, message)
            if content:
                _user(out, content)
        else:
            converted = assistant_message(model, message)
            if converted is not None:
                out.append(converted)

    def messages(self) -> list[Any]:
        if not self._pending:
            return self._out.items()
        twin = self.copy()
        _user(twin._out, [{"type": "text", "text": IMAGE_NOTE}, *twin._pending])
        return twin._out.items()


def _user(out: ConvertedList, content: str | list[Json]) -> None:
    last = out.last
    if last is not None and last["role"] == "tool":
        out.append({"role": "assistant", "content": AFTER_TOOLS})
    out.append({"role": "user", "content": content})


def user_content(model: Model, message: UserMessage) -> str | list[Json]:
    if isinstance(message.content, str):
        return message.content
    parts: list[Json] = []
    for block in message.content:
        if isinstance(block, TextContent):
            if block.text:
                parts.append({"type": "text", "text": block.text})
        elif model.supports_images:
            parts.append({"type": "image_url", "image_url": data_url(block)})
        else:
            parts.append({"type": "text", "text": NO_IMAGES})
    return parts


def assistant_message(model: Model, message: AssistantMessage) -> Json | None:
    same = same_model(message, model)
    chunks: list[Json] = []
    calls: list[Json] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if block.redacted or not block.thinking:
                continue
            if same:
                chunks.append({"type": "thinking", "thinking": [{"type": "text", "text": block.thinking}]})
            else:
                chunks.append({"type": "text", "text": block.thinking})
        elif isinstance(block, TextContent):
            if block.text:
                chunks.append({"type": "text", "text": block.text})
        elif isinstance(block, ToolCall):
            calls.append(
                {
                    "id": mistral_id(block.id),
                    "type": "function",
                    "function": {"name": block.name, "arguments": json_text(block.arguments)},
                }
            )
    if not chunks and not calls:
        return None
    out: Json = {"role": "assistant"}
    if all(c["type"] == "text" for c in chunks):
        out["content"] = "".join(c["text"] for c in chunks)
    else:
        out["content"] = chunks
    if calls:
        out["tool_calls"] = calls
    return out
