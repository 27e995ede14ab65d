"""Context -> Chat Completions request, shaped by the host's Compat record.

What a caller may rely on: the system prompt is the first message (``developer`` for
reasoning models on hosts that accept it); images become ``image_url`` data URLs, and
images in tool results (which ``tool`` messages cannot carry) follow as one user message
after the run of tool results; thinking from the same model is replayed in the field it
arrived in (its signature), or as text when the host requires it; tool-call ids are cut to
40 characters (OpenAI's limit) and their results follow the same rule.
"""

from __future__ import annotations

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
)
from tau_ai.apis.openai_completions.compat import Compat, resolve_compat
from tau_ai.model import Model
from tau_ai.thinking import clamp_level as clamp_thinking
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]


def call_id(raw: str) -> str:
    """A tool-call id OpenAI accepts: a Responses ``call|item`` id keeps its call part; max 40."""
    if len(raw) <= 40 and "|" not in raw:
        return raw  # the usual id, as it is (the same string)
    return raw.split("|", 1)[0][:40]


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_messages(model, context))


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, messages: list[Any]
) -> HttpRequestSpec:
    """The request, with ``messages`` as the conversion of ``context``'s system prompt and messages."""
    compat = resolve_compat(model)
    level = clamp_thinking(model, options.thinking_level)
    body: Json = {"model": model.id, "messages": messages, "stream": True}
    if compat.supports_usage_in_streaming:
        body["stream_options"] = {"include_usage": True}
    if compat.supports_store:
        body["store"] = False
    body[compat.max_tokens_field] = max_output_tokens(model, options)
    if options.temperature is not None:
        body["temperature"] = options.temperature
    if context.tools:
        body["tools"] = [tool_spec(t.name, t.description, dict(t.parameters), compat) for t in context.tools]
    if model.reasoning:
        body.update(thinking_params(level, compat))
    if compat.routing:
        body["provider"] = dict(compat.routing)
    headers = {"content-type": "application/json", "accept": "text/event-stream", **model.headers}
    if api_key:
        if compat.api_key_header == "api-key":
            headers["api-key"] = api_key
        else:
            headers["authorization"] = f"Bearer {api_key}"
    headers.update(options.headers)
    return HttpRequestSpec(endpoint(model.base_url, "chat/completions"), headers, body)


def tool_spec(name: str, description: str, parameters: Json, compat: Compat) -> Json:
    function: Json = {"name": name, "description": description, "parameters": parameters}
    if compat.supports_strict_mode:
        function["strict"] = False
    return {"type": "function", "function": function}


def thinking_params(level: str, compat: Compat) -> Json:
    """The request fields that set reasoning, in the dialect the host speaks."""
    on = level != "off"
    if compat.thinking_format == "zai":
        return {"thinking": {"type": "enabled" if on else "disabled"}}
    if compat.thinking_format == "qwen":
        return {"enable_thinking": on}
    if compat.thinking_format == "qwen-chat-template":
        return {"chat_template_kwargs": {"enable_thinking": on}}
    effort = compat.reasoning_effort_map.get(level, level)
    if compat.thinking_format == "openrouter":
        return {"reasoning": {"effort": effort}} if on else {}
    if on and compat.supports_reasoning_effort:
        return {"reasoning_effort": effort}
    return {}


def convert_messages(model: Model, context: Context, compat: Compat | None = None) -> list[Json]:
    return convert_all(Converter(model, context.system_prompt, compat=compat), context.messages)


class Converter(ConvertedItems):
    """Messages converted one at a time (a MessageConverter): what ``convert_messages`` does."""

    __slots__ = ("_compat", "_model", "_pending")

    def __init__(
        self, model: Model, system_prompt: str, frozen: bool = False, compat: Compat | None = None
    ) -> None:
        self._model = model
        self._compat = compat or resolve_compat(model)
        super().__init__(frozen)
        self._pending: list[Json] = []  # images of the current run of tool results
        if system_prompt:
            role = "developer" if model.reasoning and self._compat.supports_developer_role else "system"
            self._out.append({"role": role, "content": system_prompt})

    def copy(self) -> Converter:
        twin = Converter.__new__(Converter)
        twin._model, twin._compat = self._model, self._compat
        twin._out, twin._pending = self._out.copy(), list(self._pending)
        return twin

    def _seeded(self) -> None:
        self._pending = []

    def add(self, message: LlmMessage) -> None:
        model, compat, out = self._model, self._compat, self._out
        kind = type(message)
        if kind is ToolResultMessage:  # told by exact type first: a long history's most common kind
            out._items.append(tool_result(message, compat))  # type: ignore[arg-type]
            content = message.content
            if model.supports_images and (len(content) != 1 or type(content[0]) is not TextContent):
                self._pending += [image_part(data_url(i)) for i in images_of(content)]  # type: ignore[arg-type]
            return
        if self._pending and not isinstance(message, ToolResultMessage):
            _flush_images(out, self._pending, compat)
            self._pending = []
        if kind is AssistantMessage:
            converted = assistant_message(model, message, compat)  # type: ignore[arg-type]
            if converted is not None:
                out._items.append(converted)
        elif isinstance(message, UserMessage):
            converted = user_message(model, message)
            if converted is not None:
                if compat.requires_assistant_after_tool_result:
                    _before_user(out, compat)
                out._items.append(converted)
        elif isinstance(message, AssistantMessage):
            converted = assistant_message(model, message, compat)
            if converted is not None:
                out.append(converted)
        else:
            out.append(tool_result(message, compat))
            if model.supports_images:
                self._pending += [image_part(data_url(i)) for i in images_of(message.content)]

    def messages(self) -> list[Any]:
        if not self._pending:
            return self._out.items()
        twin = self.copy()
        _flush_images(twin._out, twin._pending, twin._compat)
        return twin._out.items()


def _before_user(out: ConvertedList, compat: Compat) -> None:
    """Some hosts (Mistral) refuse a user turn straight after tool results."""
    if not compat.requires_assistant_after_tool_result:
        return
    last = out.last
    if last is not None and last["role"] == "tool":
        out.append({"role": "assistant", "content": AFTER_TOOLS})


def _flush_images(out: ConvertedList, pending: list[Json], compat: Compat) -> None:
    if pending:
        _before_user(out, compat)
        out.append({"role": "user", "content": [{"type": "text", "text": IMAGE_NOTE}, *pending]})


def image_part(url: str) -> Json:
    return {"type": "image_url", "image_url": {"url": url}}


def user_message(model: Model, message: UserMessage) -> Json | None:
    if isinstance(message.content, str):
        return {"role": "user", "content": message.content} if message.content else None
    parts: list[Json] = []
    for block in message.content:
        if isinstance(block, TextContent):
            if block.text:
                parts.append({"type": "text", "text": block.text})
        elif model.supports_images:
            parts.append(image_part(data_url(block)))
        else:
            parts.append({"type": "text", "text": NO_IMAGES})
    return {"role": "user", "content": parts} if parts else None


def assistant_message(model: Model, message: AssistantMessage, compat: Compat) -> Json | None:
    texts: list[str] = []
    reasoning: dict[str, list[str]] = {}
    calls: list[Json] = []
    for block in message.content:  # (a closed union: told by exact type)
        if type(block) is ToolCall:  # (the most common block of a long history first)
            raw = block.id
            calls.append(
                {
                    "id": raw if len(raw) <= 40 and "|" not in raw else call_id(raw),  # call_id, inline
                    "type": "function",
                    "function": {"name": block.name, "arguments": json_text(block.arguments)},
                }
            )
        elif type(block) is TextContent:
            text = block.text  # (a property: read once)
            if text:
                texts.append(text)
        elif isinstance(block, ThinkingContent):
            if block.redacted or not block.thinking:
                continue
            field = block.thinking_signature
            if field == "reasoning_details":
                field = "reasoning"  # the plain-text twin that hosts sending details accept back
            if field and not compat.requires_thinking_as_text and same_model(message, model):
                reasoning.setdefault(field, []).append(block.thinking)
            else:
                texts.append(block.thinking)
    if not texts and not calls and not reasoning:
        return None
    out: Json = {"role": "assistant", "content": "\n\n".join(texts) if texts else None}
    for field, pieces in reasoning.items():
        out[field] = "".join(pieces)
    if calls:
        out["tool_calls"] = calls
    return out


def tool_result(message: ToolResultMessage, compat: Compat) -> Json:
    content = message.content
    usual = len(content) == 1 and type(content[0]) is TextContent  # one text block
    text = content[0].text if usual else text_of(content)  # type: ignore[union-attr]
    if not text:
        text = "(see attached image)" if images_of(message.content) else "(no output)"
    raw = message.tool_call_id
    out: Json = {
        "role": "tool",
        "tool_call_id": raw if len(raw) <= 40 and "|" not in raw else call_id(raw),  # call_id, inline
        "content": text,
    }
    if compat.requires_tool_result_name:
        out["name"] = message.tool_name
    return out
