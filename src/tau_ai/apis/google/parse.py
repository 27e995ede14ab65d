"""Gemini ``streamGenerateContent?alt=sse`` stream -> canonical events.

Each event is a whole ``GenerateContentResponse``: parts with ``text`` (``thought: true``
marks reasoning), whole ``functionCall``s, and ``thoughtSignature``s to replay. Calls carry no
id, so one is made from the response id and the call's position in the reply: the same
response always gives the same ids. Usage is cumulative (the last value wins); a
``finishReason`` means the reply is whole, since Gemini sends no end marker. A JSON ``error``
object in place of a response ends the message with Google's message.
"""

from __future__ import annotations

from typing import Any

from tau_agent.content import TextContent, ThinkingContent
from tau_agent.messages import StopReason, Usage
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.apis._parser_base import BuilderParser
from tau_ai.apis._shared import as_dict, as_int, load_object, make_usage, message_in, one_line, string
from tau_ai.model import Model
from tau_ai.sse import SseEvent

API = "google-generative-ai"
_FINISH: dict[str, StopReason] = {"STOP": "stop", "MAX_TOKENS": "length", "FINISH_REASON_UNSPECIFIED": "stop"}


class GoogleParser(BuilderParser):
    def __init__(self, model: Model, api: str = API) -> None:
        super().__init__(api, model)
        self._calls = 0

    def _feed(self, event: SseEvent) -> list[AssistantMessageEvent]:
        data = load_object(event.data)
        if data is None:
            return self.builder.fail("error", f"malformed event from provider: {one_line(event.data, 200)}")
        b = self.builder
        if data.get("error"):
            return b.fail("error", one_line(message_in(data["error"]) or event.data))
        out = b.start() if not b.started else []
        if b.message.response_id is None and isinstance(data.get("responseId"), str):
            b.message.response_id = data["responseId"]
        usage = data.get("usageMetadata")
        if usage and type(usage) is dict:
            self.raw_usage = usage
        candidates = data.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            feedback = as_dict(data.get("promptFeedback")).get("blockReason")
            if isinstance(feedback, str):
                return out + b.fail("error", f"Prompt blocked by Gemini: {feedback}")
            return out
        candidate = as_dict(candidates[0])
        content = candidate.get("content")
        for part in (content.get("parts") if type(content) is dict else None) or ():
            if type(part) is dict and len(part) == 1 and type(text := part.get("text")) is str:
                if text:  # a plain text part, nearly every event of a reply
                    out += b.text_delta(text)
                continue
            out += self._part(as_dict(part))
        finish = candidate.get("finishReason")
        if isinstance(finish, str) and finish:
            self.complete = True
            mapped = _FINISH.get(finish)
            if mapped is None:
                self.stop_reason = "error"
                self.stop_error = f"Gemini stopped the reply: {finish}"
                message = candidate.get("finishMessage")
                if isinstance(message, str) and message:
                    self.stop_error += f" ({one_line(message, 300)})"
            else:
                self.stop_reason = mapped
        return out

    def convert_usage(self, raw: dict[str, Any]) -> Usage:
        cached = as_int(raw.get("cachedContentTokenCount"))
        thoughts = as_int(raw.get("thoughtsTokenCount"))
        return make_usage(
            input=as_int(raw.get("promptTokenCount")) - cached,
            output=as_int(raw.get("candidatesTokenCount")) + thoughts,
            cache_read=cached,
            reasoning=thoughts,
        )

    def _part(self, part: dict[str, Any]) -> list[AssistantMessageEvent]:
        b = self.builder
        signature = part.get("thoughtSignature")
        signature = signature if isinstance(signature, str) and signature else None
        call = part.get("functionCall")
        if isinstance(call, dict):
            self._calls += 1
            call_id = call.get("id")
            if not isinstance(call_id, str) or not call_id:
                call_id = f"call_{b.message.response_id or 'gemini'}_{self._calls}"
            args = call.get("args")
            return b.tool_call(
                call_id,
                string(call.get("name"), ""),
                args if isinstance(args, dict) else {},
                thought_signature=signature,
            )
        text = part.get("text")
        if not isinstance(text, str):
            return []
        if part.get("thought") is True:
            events = b.thinking_delta(text)
            block = b.message.content[-1]
            if signature and isinstance(block, ThinkingContent):
                block.thinking_signature = signature
            return events
        if not text and signature is not None:
            # A part holding only a signature belongs to the block before it.
            last = b.message.content[-1] if b.message.content else None
            if isinstance(last, TextContent):
                last.text_signature = signature
            elif isinstance(last, ThinkingContent):
                last.thinking_signature = signature
            return []
        return b.text_delta(text, signature=signature) if text or signature else []
