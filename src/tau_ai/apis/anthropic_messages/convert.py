"""Context -> Anthropic Messages request.

What a caller may rely on: ``x-api-key`` and ``anthropic-version`` headers (a Claude Pro/Max
login's token, ``sk-ant-oat…``, goes as a bearer with the OAuth beta flags and Claude Code's
identity line before the system prompt, as Anthropic requires of it; a model whose compat sets
``bearerAuth``, GitHub Copilot's, sends its key as a bearer too); the system prompt
as one text block and the last user turn's last block both carry ``cache_control:
ephemeral`` (prompt caching); a run of tool results becomes one user turn of ``tool_result``
blocks (images included, ``is_error`` kept); thinking from the same model replays with its
signature (redacted thinking as ``redacted_thinking``), other thinking as plain text; tool-call
ids are made to match ``^[a-zA-Z0-9_-]{1,64}$``. Thinking is adaptive with an effort on the
4.6 models and Opus 4.7 (``tau_ai.thinking.claude_effort``) and a token budget (which raises
``max_tokens``) on older ones.
"""

from __future__ import annotations

import re
from typing import Any

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis._converted import ConvertedItems, convert_all
from tau_ai.apis._shared import NO_IMAGES, endpoint, max_output_tokens, same_model
from tau_ai.model import Model
from tau_ai.thinking import DEFAULT_BUDGETS as THINKING_BUDGETS
from tau_ai.thinking import clamp_level as clamp_thinking
from tau_ai.thinking import claude_effort
from tau_ai.wire_api import HttpRequestSpec

Json = dict[str, Any]
ANTHROPIC_VERSION = "2023-06-01"
INTERLEAVED_BETA = "interleaved-thinking-2025-05-14"
_ADAPTIVE = re.compile(r"(opus|sonnet)-4[.-]6|opus-4[.-]7")
_BAD_ID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
CACHE = {"type": "ephemeral"}
OAUTH_BETAS = "claude-code-20250219,oauth-2025-04-20"
CLAUDE_CODE_IDENTITY = "You are Claude Code, Anthropic's official CLI for Claude."
CLAUDE_CODE_VERSION = "2.1.75"


def is_oauth_token(api_key: str | None) -> bool:
    """A Claude Pro/Max login's access token (rather than an API key)."""
    return api_key is not None and api_key.startswith("sk-ant-oat")


def tool_use_id(raw: str) -> str:
    """An id Anthropic accepts; the same raw id always gives the same result."""
    if len(raw) <= 64 and raw.isascii() and raw.replace("_", "").replace("-", "").isalnum():
        return raw  # the usual id, as it is (told without a regex: two per call of a history)
    cleaned = _BAD_ID_CHARS.sub("_", raw)[:64]
    return cleaned or "toolu_empty"


def build_request(
    model: Model, context: Context, options: StreamOptions, api_key: str | None
) -> HttpRequestSpec:
    return request_with(model, context, options, api_key, convert_messages(model, context))


def request_with(
    model: Model, context: Context, options: StreamOptions, api_key: str | None, messages: list[Any]
) -> HttpRequestSpec:
    """The request, with ``messages`` as the conversion of ``context.messages``."""
    level = clamp_thinking(model, options.thinking_level)
    max_tokens = max_output_tokens(model, options)
    body: Json = {"model": model.id, "max_tokens": max_tokens, "stream": True}
    oauth = is_oauth_token(api_key)
    system: list[Json] = [{"type": "text", "text": CLAUDE_CODE_IDENTITY}] if oauth else []
    if context.system_prompt:
        system.append({"type": "text", "text": context.system_prompt, "cache_control": CACHE})
    if system:
        body["system"] = system
    body["messages"] = messages
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
        body["output_config"] = {"effort": claude_effort(model, level)}
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
    if oauth:
        betas = [OAUTH_BETAS, *filter(None, [headers.get("anthropic-beta")])]
        headers.update({"anthropic-beta": ",".join(betas), "x-app": "cli"})
        headers.setdefault("user-agent", f"claude-cli/{CLAUDE_CODE_VERSION}")
    if api_key and (oauth or model.compat.get("bearerAuth")):
        headers["authorization"] = f"Bearer {api_key}"
    elif api_key:
        headers["x-api-key"] = api_key
    headers.update(options.headers)
    return HttpRequestSpec(endpoint(model.base_url, "messages", "v1"), headers, body)


def convert_messages(model: Model, context: Context) -> list[Json]:
    return convert_all(Converter(model), context.messages)


class Converter(ConvertedItems):
    """Messages converted one at a time (a MessageConverter): what ``convert_messages`` does."""

    __slots__ = ("_last_user", "_model")

    def __init__(self, model: Model, frozen: bool = False) -> None:
        self._model = model
        super().__init__(frozen)
        self._last_user: tuple[int, Json] | None = None  # the latest user turn: it carries the cache mark

    def copy(self) -> Converter:
        twin = Converter.__new__(Converter)
        twin._model, twin._out, twin._last_user = self._model, self._out.copy(), self._last_user
        return twin

    def _user_turn(self, turn: Json, merge: bool) -> None:
        if merge:
            self._out.replace_last(turn)
        else:
            self._out.append(turn)
        self._last_user = (len(self._out) - 1, turn)

    def _seeded(self) -> None:
        self._last_user = None

    def _folded(self, end: int, fewer: int) -> None:
        if self._last_user is not None and self._last_user[0] >= end:
            self._last_user = (self._last_user[0] - fewer, self._last_user[1])

    def add(self, message: LlmMessage) -> None:
        model, out = self._model, self._out
        if type(message) is AssistantMessage:  # (exact types: no message class has subclasses)
            blocks = assistant_blocks(model, message)
            if blocks:
                out._items.append({"role": "assistant", "content": blocks})
        elif isinstance(message, ToolResultMessage):
            block = tool_result(model, message)
            last = out.last
            if last and last["role"] == "user" and last["content"][0].get("type") == "tool_result":
                self._user_turn({"role": "user", "content": [*last["content"], block]}, merge=True)
            else:
                self._user_turn({"role": "user", "content": [block]}, merge=False)
        elif isinstance(message, UserMessage):
            blocks = user_blocks(model, message.content)
            if blocks:
                self._user_turn({"role": "user", "content": blocks}, merge=False)

    def messages(self) -> list[Any]:
        items = self._out.items()
        if self._last_user is not None:
            index, turn = self._last_user
            content = turn["content"]
            items[index] = {**turn, "content": [*content[:-1], {**content[-1], "cache_control": CACHE}]}
        return items


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
    for block in message.content:  # (a closed union: told by exact type)
        if type(block) is ToolCall:  # (the most common blocks of a long history first)
            blocks.append(
                {
                    "type": "tool_use",
                    "id": tool_use_id(block.id),
                    "name": block.name,
                    "input": block.arguments,
                }
            )
        elif type(block) is TextContent:
            text = block.text  # (a property: read once)
            if text:
                blocks.append({"type": "text", "text": text})
        elif isinstance(block, ThinkingContent):
            if same and block.redacted and block.thinking_signature:
                blocks.append({"type": "redacted_thinking", "data": block.thinking_signature})
            elif same and block.thinking_signature:
                blocks.append(
                    {"type": "thinking", "thinking": block.thinking, "signature": block.thinking_signature}
                )
            elif block.thinking and not block.redacted:
                blocks.append({"type": "text", "text": block.thinking})
    return blocks


def tool_result(model: Model, message: ToolResultMessage) -> Json:
    blocks = message.content
    if len(blocks) == 1 and type(blocks[0]) is TextContent:  # the usual result: user_blocks' case, inline
        text = blocks[0].text
        content = [{"type": "text", "text": text}] if text else []
    else:
        content = user_blocks(model, list(blocks))
    out: Json = {
        "type": "tool_result",
        "tool_use_id": tool_use_id(message.tool_call_id),
        "content": content or [{"type": "text", "text": "(no output)"}],
    }
    if message.is_error:
        out["is_error"] = True
    return out
