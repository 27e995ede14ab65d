"""Chat Completions streaming chunks -> canonical events (OpenAI-compatible hosts and Mistral).

One chunk is ``{"choices": [{"delta": {...}, "finish_reason": ...}], "usage": ...}``. Hosts
differ in the details, and this parser takes all of them as they come:

- reasoning arrives as ``reasoning_content`` (DeepSeek, Z.ai, Qwen), ``reasoning`` (Groq,
  OpenRouter, Ollama) or only as ``reasoning_details`` items; the field's name becomes the
  thinking block's signature so a replay to the same model puts it back where it came from;
- content is a string, or (Mistral) a list of typed ``text``/``thinking`` chunks;
- tool-call pieces carry an ``index`` (OpenAI), or only an ``id`` on their first piece, or
  come whole in one chunk (Mistral, xAI);
- usage comes on every chunk, on the last one, in a separate ``choices: []`` chunk, or
  inside ``x_groq``; the latest value wins;
- an error can arrive inside an HTTP-200 stream as an ``event: error`` (Groq) or as an
  ``error`` member of a chunk (OpenRouter), ending the message with the provider's words.
"""

from __future__ import annotations

import json
from typing import Any

from tau_agent.content import ThinkingContent
from tau_agent.messages import StopReason, Usage
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.apis._parser_base import BuilderParser
from tau_ai.apis._shared import as_dict, as_int, load_object, make_usage, message_in, one_line
from tau_ai.model import Model
from tau_ai.sse import SseEvent

REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_text")
_FINISH: dict[str, StopReason] = {
    "stop": "stop",
    "end_turn": "stop",
    "eos": "stop",
    "length": "length",
    "max_tokens": "length",
    "model_length": "length",
    "tool_calls": "toolUse",
    "function_call": "toolUse",
    "tool_use": "toolUse",
}


def chat_usage(usage: dict[str, Any]) -> Usage:
    """OpenAI-style usage: ``prompt_tokens`` includes cached tokens, which Tau counts apart."""
    prompt = as_dict(usage.get("prompt_tokens_details"))
    cache_read = as_int(prompt.get("cached_tokens")) or as_int(usage.get("prompt_cache_hit_tokens"))
    cache_write = as_int(prompt.get("cache_write_tokens"))
    completion = as_dict(usage.get("completion_tokens_details"))
    return make_usage(
        input=as_int(usage.get("prompt_tokens")) - cache_read - cache_write,
        output=as_int(usage.get("completion_tokens")),
        cache_read=cache_read,
        cache_write=cache_write,
        reasoning=as_int(completion.get("reasoning_tokens")),
    )


class ChatStreamParser(BuilderParser):
    def __init__(self, api: str, model: Model) -> None:
        super().__init__(api, model)
        self._call_open = False
        self._call_key: int | str | None = None
        self._calls = 0

    def convert_usage(self, raw: dict[str, Any]) -> Usage:
        return chat_usage(raw)

    def _feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        data = event.data
        if data == "[DONE]":
            self.complete = True
            return self.end()
        chunk = load_object(data)
        if chunk is None:
            if not data.strip():
                return []
            return self.builder.fail("error", f"malformed chunk from provider: {one_line(data, 200)}")
        builder = self.builder
        usage = chunk.get("usage")
        if usage is None and "x_groq" in chunk:
            usage = as_dict(chunk["x_groq"]).get("usage")
        if usage and type(usage) is dict:
            self.raw_usage = usage
        if event.event == "error" or chunk.get("error"):
            found = message_in(chunk.get("error") or chunk)
            return builder.fail("error", one_line(found or data))
        out = builder.start() if not builder.started else []
        if builder.message.response_id is None and isinstance(chunk.get("id"), str):
            builder.message.response_id = chunk["id"]
            served = chunk.get("model")
            if isinstance(served, str) and served and served != self.model.id:
                builder.message.response_model = served  # as Pi records it: a router's pick
        choices = chunk.get("choices")
        if not choices or type(choices) is not list:
            return out
        choice = choices[0]
        if type(choice) is not dict:
            return out
        delta = choice.get("delta")
        if delta and type(delta) is dict:
            content = delta.get("content")
            # The hot path is a delta holding only text; anything else gets the full look.
            if len(delta) > 1 or content is None:
                out += self._reasoning(delta)
                calls = delta.get("tool_calls")
            else:
                calls = None
            if type(content) is str:
                if content:
                    self._call_open = False
                    texts = builder.text_delta(content)
                    if out:
                        out += texts
                    else:  # the usual case: this delta's events are the whole answer
                        out = texts
            elif type(content) is list:
                out += self._typed_content(content)
            if calls and type(calls) is list:
                for call in calls:
                    out += self._tool_call(as_dict(call))
        finish = choice.get("finish_reason")
        if finish and type(finish) is str:
            self._finish_reason(finish)
        return out

    # -- pieces -------------------------------------------------------------------------------

    def _text(self, text: str) -> list[AssistantMessageEvent]:
        self._call_open = False
        return self.builder.text_delta(text)

    def _thinking(self, text: str, field: str | None) -> list[AssistantMessageEvent]:
        self._call_open = False
        content = self.builder.message.content
        opening = not content or not isinstance(content[-1], ThinkingContent)
        return self.builder.thinking_delta(text, signature=field if opening else None)

    def _reasoning(self, delta: dict[str, Any]) -> list[AssistantMessageEvent]:
        for field in REASONING_FIELDS:
            value = delta.get(field)
            if isinstance(value, str) and value:
                return self._thinking(value, field)
        details = delta.get("reasoning_details")
        out: list[AssistantMessageEvent] = []
        if isinstance(details, list):
            for item in details:
                item = as_dict(item)
                text = item.get("text") or item.get("summary")
                if isinstance(text, str) and text:
                    out += self._thinking(text, "reasoning_details")
        return out

    def _typed_content(self, parts: list[Any]) -> list[AssistantMessageEvent]:
        out: list[AssistantMessageEvent] = []
        for part in parts:
            part = as_dict(part)
            if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"]:
                out += self._text(part["text"])
            elif part.get("type") == "thinking":
                inner = part.get("thinking")
                pieces = inner if isinstance(inner, list) else [{"text": inner}]
                for piece in pieces:
                    text = as_dict(piece).get("text")
                    if isinstance(text, str) and text:
                        out += self._thinking(text, None)
        return out

    def _tool_call(self, call: dict[str, Any]) -> list[AssistantMessageEvent]:
        function = as_dict(call.get("function"))
        index, call_id = call.get("index"), call.get("id")
        key = index if isinstance(index, int) else call_id if isinstance(call_id, str) else None
        out: list[AssistantMessageEvent] = []
        if not self._call_open or (key is not None and key != self._call_key):
            new_id = call_id if isinstance(call_id, str) and call_id else f"call_{self._calls}"
            name = function.get("name")
            out += self.builder.tool_call_start(new_id, name if isinstance(name, str) else "")
            self._calls += 1
            self._call_open, self._call_key = True, key
        arguments = function.get("arguments")
        if isinstance(arguments, dict):
            arguments = json.dumps(arguments)
        if isinstance(arguments, str) and arguments:
            out += self.builder.tool_call_delta(arguments)
        return out

    def _finish_reason(self, reason: str) -> None:
        self.complete = True
        mapped = _FINISH.get(reason)
        if mapped is not None:
            self.stop_reason = mapped
        elif reason in ("content_filter", "error", "refusal", "sensitive"):
            self.stop_reason = "error"
            self.stop_error = f"Provider stopped the reply: {reason}"
        else:
            self.stop_reason = "stop"
