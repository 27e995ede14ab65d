"""Context -> OpenAI Responses request (stateless: ``store: false``, reasoning replayed encrypted).

What a caller may rely on: the system prompt is the first input item (``developer`` role for
reasoning models); reasoning models get ``include: ["reasoning.encrypted_content"]`` and
their reasoning items come back verbatim on replay to the same model (the item is the thinking
block's signature); text replays as a ``message`` item with its id and phase; tool calls
replay as ``function_call`` items whose id is ``call_id|item_id``; images in tool results
follow the run of results as one user message; ``prompt_cache_key`` is the session id.
"""

from __future__ import annotations

import json
from typing import Any

from tau_agent.content import TextContent, ThinkingContent, ToolCall, text_of
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._converted import ConvertedItems, convert_all
from tau_ai.apis._shared import (
    IMAGE_NOTE,
    NO_IMAGES,
    data_url,
    endpoint,
    images_of,
    json_text,
    max_output_tokens,
    same_model,
)
from tau_ai.model import Model
from tau_ai.thinking import clamp_level as clamp_thinking
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_input(model, context))


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, items: list[Any]
) -> HttpRequestSpec:
    """The request, with ``items`` as the conversion of ``context``'s system prompt and messages."""
    level = clamp_thinking(model, options.thinking_level)
    body: Json = {
        "model": model.id,
        "input": items,
        "stream": True,
        "store": False,
        "max_output_tokens": max_output_tokens(model, options),
    }
    if options.session_id:
        body["prompt_cache_key"] = options.session_id
    if options.temperature is not None:
        body["temperature"] = options.temperature
    if context.tools:
        body["tools"] = [
            {
                "type": "function",
                "name": tool.name,
                "description": tool.description,
                "parameters": dict(tool.parameters),
                "strict": False,
            }
            for tool in context.tools
        ]
    if model.reasoning:
        body["include"] = ["reasoning.encrypted_content"]
        if level != "off":
            body["reasoning"] = {"effort": level, "summary": "auto"}
    headers = {"content-type": "application/json", "accept": "text/event-stream", **model.headers}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    headers.update(options.headers)
    return HttpRequestSpec(endpoint(model.base_url, "responses"), headers, body)


def convert_input(model: Model, context: Context) -> list[Json]:
    return convert_all(Converter(model, context.system_prompt), context.messages)


class Converter(ConvertedItems):
    """Messages converted one at a time (a MessageConverter): what ``convert_input`` does."""

    __slots__ = ("_model", "_pending")

    def __init__(self, model: Model, system_prompt: str, frozen: bool = False) -> None:
        self._model = model
        super().__init__(frozen)
        self._pending: list[Json] = []  # images of the current run of tool results
        if system_prompt:
            role = "developer" if model.reasoning else "system"
            self._out.append({"role": role, "content": system_prompt})

    def copy(self) -> Converter:
        twin = Converter.__new__(Converter)
        twin._model, twin._out, twin._pending = self._model, self._out.copy(), list(self._pending)
        return twin

    def _seeded(self) -> None:
        self._pending = []

    def add(self, message: LlmMessage) -> None:
        model, out = self._model, self._out
        if self._pending and not isinstance(message, ToolResultMessage):
            out.append(_image_message(self._pending))
            self._pending = []
        if isinstance(message, ToolResultMessage):  # (a long history's most common kind first)
            content = message.content
            if len(content) == 1 and type(content[0]) is TextContent:  # one text block: no images
                text, images = content[0].text, []
            else:
                text, images = text_of(content), images_of(content)
            out._items.append(
                {
                    "type": "function_call_output",
                    "call_id": message.tool_call_id.split("|", 1)[0],
                    "output": text or ("(see attached image)" if images else "(no output)"),
                }
            )
            if images and model.supports_images:
                self._pending += [_image(data_url(i)) for i in images]
        elif isinstance(message, AssistantMessage):
            out._items += assistant_items(model, message)
        else:
            converted = user_item(model, message)
            if converted is not None:
                out.append(converted)

    def messages(self) -> list[Any]:
        items = self._out.items()
        if self._pending:
            items.append(_image_message(self._pending))
        return items


def _image(url: str) -> Json:
    return {"type": "input_image", "image_url": url, "detail": "auto"}


def _image_message(images: list[Json]) -> Json:
    return {"role": "user", "content": [{"type": "input_text", "text": IMAGE_NOTE}, *images]}


def user_item(model: Model, message: UserMessage) -> Json | None:
    if isinstance(message.content, str):
        text = message.content
        return {"role": "user", "content": [{"type": "input_text", "text": text}]} if text else None
    parts: list[Json] = []
    for block in message.content:
        if isinstance(block, TextContent):
            if block.text:
                parts.append({"type": "input_text", "text": block.text})
        elif model.supports_images:
            parts.append(_image(data_url(block)))
        else:
            parts.append({"type": "input_text", "text": NO_IMAGES})
    return {"role": "user", "content": parts} if parts else None


def text_signature(signature: str | None) -> tuple[str | None, str | None]:
    """(item id, phase) from a text block's signature: ``{"id", "phase"}`` JSON or a bare id."""
    if not signature:
        return None, None
    if signature.startswith("{"):
        try:
            value = json.loads(signature)
        except ValueError:
            return None, None
        if isinstance(value, dict):
            item_id, phase = value.get("id"), value.get("phase")
            return (
                item_id if isinstance(item_id, str) else None,
                phase if isinstance(phase, str) else None,
            )
        return None, None
    return signature, None


def assistant_items(model: Model, message: AssistantMessage) -> list[Json]:
    same = same_model(message, model)
    out: list[Json] = []
    for block in message.content:  # (a closed union: told by exact type)
        if type(block) is TextContent:
            text = block.text  # (a property: read once)
            if text:
                item_id, phase = text_signature(block.text_signature) if same else (None, None)
                out.append(_text_item(text, item_id, phase))
        elif type(block) is ThinkingContent:
            reasoning = _reasoning_item(block) if same else None
            if reasoning is not None:
                out.append(reasoning)
            elif block.thinking and not block.redacted:
                out.append(_text_item(block.thinking, None, None))
        elif isinstance(block, ToolCall):
            call, _, item_id = block.id.partition("|")
            item: Json = {
                "type": "function_call",
                "call_id": call,
                "name": block.name,
                "arguments": json_text(block.arguments),
            }
            if same and item_id:
                item["id"] = item_id
            out.append(item)
    return out


def _reasoning_item(block: ThinkingContent) -> Json | None:
    if not block.thinking_signature or not block.thinking_signature.startswith("{"):
        return None
    try:
        item = json.loads(block.thinking_signature)
    except ValueError:
        return None
    return item if isinstance(item, dict) and item.get("type") == "reasoning" else None


def _text_item(text: str, item_id: str | None, phase: str | None) -> Json:
    item: Json = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
        "status": "completed",
    }
    if item_id:
        item["id"] = item_id
    if phase:
        item["phase"] = phase
    return item
