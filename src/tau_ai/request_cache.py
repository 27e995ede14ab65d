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

A ``Checkpoint`` (``checkpoint``/``resume``) carries the converted history of a conversation
up to one of its user messages from one process to the next (a resumed session's first
request then converts only what followed that message); request_checkpoint.py encodes it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from tau_agent.messages import LlmMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.body_encoding import Part, Spliced, encode_body
from tau_ai.handoff import Handoff, transform_messages
from tau_ai.model import Model
from tau_ai.request_checkpoint import Checkpoint, checkpoint_key, pieces_of
from tau_ai.wire_api import HttpRequestSpec, IncrementalRequests, MessageConverter, WireApi

FOLD = 8192
"""Converted items of a long history kept as one run (``MessageConverter.fold``) once this many
have gathered before a user message: a body or checkpoint then holds the runs by reference, and
each is a piece a checkpoint keeps in its file (about 1 MiB or more, for items of ~130 bytes)."""


class RequestCache:
    """Builds the requests of one model's conversation (one per provider instance)."""

    __slots__ = (
        "_converter",
        "_fold",
        "_handoff",
        "_loose",
        "_mark",
        "_model",
        "_opening",
        "_seen",
        "_system",
        "_waiting",
        "_wire",
        "keep_runs",
        "marked",
    )

    def __init__(self, model: Model, wire: WireApi, fold: int = FOLD) -> None:
        self._model = model
        self._fold = fold
        self._wire = wire
        self._system: str | None = None
        self._seen: list[LlmMessage] = []
        self._handoff = Handoff(model)
        self._converter: MessageConverter | None = None
        # The latest user message that can be a checkpoint: (messages up to and including it,
        # converted items before it, the handoff's memory size then).
        self._mark: tuple[int, int, tuple[int, int]] | None = None
        self._waiting: tuple[Checkpoint, list[LlmMessage]] | None = None  # see ``resume``
        self._opening = 0  # items a converter starts with (the system prompt's), never checkpointed
        self._loose = 0  # the first item not folded into a run (``FOLD``)
        self.keep_runs: Callable[[memoryview], Part] | None = None
        """Where the runs of a long history go (``stored_text.SpillFile.keep``: a file, read
        again when a body is sent); None keeps them in memory."""
        self.marked: Callable[[RequestCache], None] | None = None
        """Called with this cache when ``build`` has made a request that moved the latest
        checkpoint to a new user message (``checkpoint`` now returns it), before the request is
        sent: a caller can keep the checkpoint while the request is on its way
        (request_checkpoints.py)."""

    def build(self, context: Context, options: StreamOptions, api_key: str | None) -> HttpRequestSpec:
        """The request for ``context`` (see the module docstring)."""
        incremental = self._wire.incremental
        if incremental is None:
            prepared = Context(
                context.system_prompt, transform_messages(context.messages, self._model), context.tools
            )
            return self._wire.build_request(self._model, prepared, options, api_key)
        mark = self._mark
        messages = self._converted(context, incremental)
        spec = incremental.build_request(self._model, context, options, api_key, messages)
        if self._mark is not mark and self._mark is not None and self.marked is not None:
            self.marked(self)
        return spec

    def _converted(self, context: Context, incremental: IncrementalRequests) -> list[Any]:
        if self._waiting is not None:
            waiting, self._waiting = self._waiting, None
            self._take_up(waiting, context, incremental)
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
            self._system, self._seen, known, self._mark = context.system_prompt, [], 0, None
            self._handoff = Handoff(self._model)
            converter = self._converter = incremental.new_converter(self._model, context.system_prompt, True)
            self._opening = self._loose = len(converter)
        handoff = self._handoff
        passes, add, convert = handoff.passes, handoff.add, converter.add
        try:
            for at in range(known, len(messages)):
                message = messages[at]
                if passes(message):  # the usual message: itself, alone
                    # _can_mark(message), inline (a call per message of a long history); a user
                    # message that passes has text content
                    if type(message) is not UserMessage or not message.content:
                        convert(message)
                        continue
                    size = len(converter)
                    convert(message)
                else:
                    out = add(message)  # closing results, then the message
                    if not (
                        type(message) is UserMessage and isinstance(message.content, str) and message.content
                    ):
                        for converted in out:
                            convert(converted)
                        continue
                    for converted in out[:-1]:
                        convert(converted)
                    size = len(converter)
                    convert(out[-1])  # a user message with text always comes out as itself
                # Bedrock merges a user message into the user item before it (tool results, the
                # closing ones too): that item is not the message's own, so no checkpoint can
                # end just before it.
                grown = len(converter)
                if grown > size:  # the message's own item is the last (an API may add one before it)
                    # A checkpoint ends with the item before the message's alone; the ones
                    # before that can be one run.
                    if grown - 2 - self._loose >= self._fold:
                        grown -= converter.fold(self._loose, grown - 2, self.keep_runs)
                        self._loose = grown - 2
                    self._mark = (at + 1, grown - 1, handoff.memory_size())
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

    def checkpoint(self) -> tuple[Checkpoint, list[LlmMessage]] | None:
        """The latest checkpoint of the conversation converted so far, and the messages it
        covers (the first ``Checkpoint.messages`` of the ones sent); None if there is none:
        no user message with text was sent since the conversion (re)started."""
        converter, mark = self._converter, self._mark
        if converter is None or mark is None or self._system is None:
            return None
        messages, count, memory = mark
        items = converter.items()[self._opening : count]
        frozen = [item for item in items if isinstance(item, orjson.Fragment | Spliced)]
        if len(frozen) != len(items):
            return None  # an item JSON cannot say: it fails where bodies are encoded
        key = checkpoint_key(self._model)
        checkpoint = Checkpoint(key, messages, pieces_of(frozen), self._handoff.memory(memory))
        return checkpoint, self._seen[:messages]

    def resume(self, checkpoint: Checkpoint, messages: Sequence[LlmMessage]) -> bool:
        """Take up the conversation from ``checkpoint``, which a cache of this model made for the
        same first ``checkpoint.messages`` of ``messages`` (the caller makes sure of that). The
        next request uses it if its messages start with those (whatever its system prompt);
        else it converts as usual. False if it cannot serve at all."""
        count = checkpoint.messages
        if (
            self._wire.incremental is None
            or not 0 < count <= len(messages)
            or not _can_mark(messages[count - 1])
        ):
            return False
        self._waiting = (checkpoint, list(messages[:count]))
        return True

    def _take_up(
        self, waiting: tuple[Checkpoint, list[LlmMessage]], context: Context, incremental: IncrementalRequests
    ) -> None:
        checkpoint, covered = waiting
        count = checkpoint.messages
        if checkpoint.key != checkpoint_key(self._model) or list(context.messages[:count]) != covered:
            return
        converter = incremental.new_converter(self._model, context.system_prompt, True)
        opening = len(converter)
        converter.seed([*converter.items(), *checkpoint.fragments()])
        before = len(converter)
        handoff = Handoff.restored(self._model, checkpoint.handoff)
        for converted in handoff.add(covered[-1]):
            converter.add(converted)
        self._converter, self._handoff, self._system = converter, handoff, context.system_prompt
        self._seen, self._opening, self._loose = covered, opening, max(before - 1, opening)
        self._mark = (count, before, handoff.memory_size())


def _can_mark(message: LlmMessage) -> bool:
    """A user message with text, which every API but Bedrock always turns into an item of its own."""
    return type(message) is UserMessage and isinstance(message.content, str) and bool(message.content)


def plain_body(body: Any) -> Any:
    """``body`` as plain JSON values (dicts, lists, strings, numbers): a deep copy, with any
    ``orjson.Fragment`` of converted history decoded, for code that reads or edits a body."""
    encoded = encode_body(body)
    try:
        return orjson.loads(encoded)
    except orjson.JSONDecodeError:  # orjson refuses the escape of a lone surrogate; json keeps it
        return json.loads(encoded)
