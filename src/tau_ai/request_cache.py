"""RequestCache: each request of a conversation built from what the previous one converted.

A conversation grows by appending: every request repeats the whole history and adds a few
messages. So the handoff transform (``handoff.Handoff``) and the API's wire conversion
(``WireApi.incremental``) are kept between requests as folds over the messages seen so far,
with the converted history held as encoded JSON (``apis/_converted.py``); a request costs
O(new messages), and encoding its body copies the history's bytes instead of re-encoding it.

What a caller may rely on: ``build`` returns exactly what a full conversion would
(``transform_messages`` then ``WireApi.build_request``), with converted messages possibly
given as ``orjson.Fragment``s of the same JSON (``plain_body`` turns a body back into plain
JSON values). When the messages are not the previously seen ones plus more (a compaction,
an edited or replaced history, another system prompt), the conversion starts over. Messages
are compared by identity, then by value, so equal messages rebuilt by a caller still count
as seen; a message must not be changed in place after it was sent.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from tau_agent.messages import LlmMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.body_encoding import encode_body
from tau_ai.handoff import Handoff, transform_messages
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, MessageConverter, WireApi


class RequestCache:
    """Builds the requests of one model's conversation (one per provider instance)."""

    __slots__ = ("_converter", "_handoff", "_model", "_seen", "_system", "_wire")

    def __init__(self, model: Model, wire: WireApi) -> None:
        self._model = model
        self._wire = wire
        self._system: str | None = None
        self._seen: list[LlmMessage] = []
        self._handoff = Handoff(model)
        self._converter: MessageConverter | None = None

    def build(self, context: Context, options: StreamOptions, api_key: str | None) -> HttpRequestSpec:
        """The request for ``context`` (see the module docstring)."""
        incremental = self._wire.incremental
        if incremental is None:
            prepared = Context(
                context.system_prompt, transform_messages(context.messages, self._model), context.tools
            )
            return self._wire.build_request(self._model, prepared, options, api_key)
        messages = self._converted(context, incremental)
        return incremental.build_request(self._model, context, options, api_key, messages)

    def _converted(self, context: Context, incremental: IncrementalRequests) -> list[Any]:
        messages = context.messages
        seen = self._seen
        known = len(seen)
        converter = self._converter
        if (
            converter is None
            or context.system_prompt != self._system
            or len(messages) < known
            or list(messages[:known]) != seen
        ):
            self._system, self._seen, known = context.system_prompt, [], 0
            self._handoff = Handoff(self._model)
            converter = self._converter = incremental.new_converter(self._model, context.system_prompt, True)
        handoff = self._handoff
        try:
            for message in messages[known:]:
                for prepared in handoff.add(message):
                    converter.add(prepared)
        except BaseException:
            self._converter = None  # half advanced: the next request starts over
            raise
        self._seen.extend(messages[known:])
        closing = handoff.closing()  # results for calls still open at the end: this request only
        if closing:
            converter = converter.copy()
            for result in closing:
                converter.add(result)
        return converter.messages()


def plain_body(body: Any) -> Any:
    """``body`` as plain JSON values (dicts, lists, strings, numbers): a deep copy, with any
    ``orjson.Fragment`` of converted history decoded, for code that reads or edits a body."""
    encoded = encode_body(body)
    try:
        return orjson.loads(encoded)
    except orjson.JSONDecodeError:  # orjson refuses the escape of a lone surrogate; json keeps it
        return json.loads(encoded)
