"""Cross-provider handoff: make a transcript safe to replay on the target model (pure).

A conversation may move between models mid-session. Before every request the messages are
rewritten so the target API accepts them, without losing what the user or model said:

* Replies of the same model (provider, api and id equal) keep their blocks verbatim, with
  signatures and redacted thinking, because that model can verify them.
* From another model: redacted thinking and empty thinking are dropped, other thinking
  becomes a plain text block, text signatures and Google ``thought_signature`` are dropped.
* Tool-call ids from another API that the target would refuse are replaced by a stable,
  valid id (same input, same output), and the matching tool results are rewritten to it.
* Failed or aborted replies are dropped, with any results of their tool calls; a tool call
  left without a result before the next user or assistant message gets an error result.
* Lone UTF-16 surrogates (which no API accepts in JSON) become U+FFFD.

The input is never mutated; unchanged messages are passed through as the same objects.
The transform is idempotent, so a converter may apply it again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import re
from collections.abc import Sequence

import msgspec

from tau_agent.content import AssistantContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_ai.model import Model

NO_RESULT_TEXT = "No result provided"

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclasses.dataclass(frozen=True, slots=True)
class ToolIdRule:
    """Tool-call ids an API accepts: ``pattern`` (full match) and the maximum length."""

    pattern: re.Pattern[str]
    max_length: int
    exact_alnum: int | None = None  # Mistral: exactly N letters and digits


_DEFAULT_RULE = ToolIdRule(re.compile(r"[A-Za-z0-9_-]+"), 64)
TOOL_ID_RULES: dict[str, ToolIdRule] = {
    "anthropic-messages": _DEFAULT_RULE,
    "openai-completions": ToolIdRule(re.compile(r"[A-Za-z0-9_-]+"), 40),
    "openai-responses": _DEFAULT_RULE,
    "azure-openai-responses": _DEFAULT_RULE,
    "google-vertex": _DEFAULT_RULE,
    "anthropic-vertex": _DEFAULT_RULE,
    "google-generative-ai": _DEFAULT_RULE,
    "mistral-conversations": ToolIdRule(re.compile(r"[A-Za-z0-9]{9}"), 9, exact_alnum=9),
}


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:12], "big")


def _base62(number: int, length: int) -> str:
    out = []
    for _ in range(length):
        number, digit = divmod(number, 62)
        out.append(_ALPHABET[digit])
    return "".join(out)


def normalize_tool_id(call_id: str, api: str) -> str:
    """``call_id`` if ``api`` accepts it, else a valid id derived from it (stable, near-unique)."""
    rule = TOOL_ID_RULES.get(api, _DEFAULT_RULE)
    if len(call_id) <= rule.max_length and rule.pattern.fullmatch(call_id):
        return call_id
    if rule.exact_alnum is not None:
        return _base62(_digest(call_id), rule.exact_alnum)
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", call_id)[: rule.max_length - 9] or "call"
    return f"{cleaned}_{_base62(_digest(call_id), 8)}"


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None  # isascii: a fast no


def _clean(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text) if _has_surrogate(text) else text


def _is_same_model(message: AssistantMessage, model: Model) -> bool:
    return message.provider == model.provider and message.api == model.api and message.model == model.id


def _convert_blocks(
    message: AssistantMessage, model: Model, id_map: dict[str, str]
) -> list[AssistantContent]:
    same = _is_same_model(message, model)
    foreign_api = message.api != model.api
    blocks: list[AssistantContent] = []
    for block in message.content:
        if isinstance(block, ThinkingContent):
            if same:
                blocks.append(block)
            elif not block.redacted and block.thinking.strip():
                blocks.append(TextContent(_clean(block.thinking)))
        elif isinstance(block, TextContent):
            text = _clean(block.text)
            if text is block.text and (same or block.text_signature is None):
                blocks.append(block)
            else:
                blocks.append(TextContent(text, block.text_signature if same else None))
        else:
            new_id = normalize_tool_id(block.id, model.api) if foreign_api else block.id
            if new_id != block.id:
                id_map[block.id] = new_id
            if same or (new_id == block.id and block.thought_signature is None):
                blocks.append(block)
            else:
                blocks.append(msgspec.structs.replace(block, id=new_id, thought_signature=None))
    return blocks


def _kept_as_is(message: AssistantMessage, model: Model) -> list[ToolCall] | None:
    """The tool calls of ``message`` if the transform keeps it as the same object (what
    ``_convert_blocks`` would return block for block, for a reply that did not fail), else
    None: the slow way decides. Told without building anything, for a long history's replies."""
    if message.stop_reason in ("error", "aborted") or message.api != model.api or not message.content:
        return None
    same = message.provider == model.provider and message.model == model.id
    calls: list[ToolCall] = []
    for block in message.content:
        kind = type(block)
        if kind is TextContent:
            text = block.text  # type: ignore[union-attr]
            if (not same and block.text_signature is not None) or (  # type: ignore[union-attr]
                not text.isascii() and _has_surrogate(text)
            ):
                return None
        elif kind is ToolCall:
            if not same and block.thought_signature is not None:  # type: ignore[union-attr]
                return None
            calls.append(block)  # type: ignore[arg-type]
        elif kind is not ThinkingContent or not same:  # another model's thinking: text, or gone
            return None
    return calls


def _clean_user(message: UserMessage) -> UserMessage:
    content = message.content
    if isinstance(content, str):
        cleaned = _clean(content)
        return message if cleaned is content else msgspec.structs.replace(message, content=cleaned)
    if not any(isinstance(b, TextContent) and _has_surrogate(b.text) for b in content):
        return message
    blocks = [TextContent(_clean(b.text)) if isinstance(b, TextContent) else b for b in content]
    return msgspec.structs.replace(message, content=blocks)


def _orphan_results(calls: list[ToolCall], answered: set[str]) -> list[ToolResultMessage]:
    return [
        ToolResultMessage(call.id, call.name, [TextContent(NO_RESULT_TEXT)], is_error=True)
        for call in calls
        if call.id not in answered
    ]


@dataclasses.dataclass(frozen=True, slots=True)
class HandoffMemory:
    """Tool-call ids rewritten so far (original -> new, in the order first met) and the calls of
    failed replies, whose late results are dropped."""

    tool_ids: list[tuple[str, str]]
    dropped_calls: list[str]


class Handoff:
    """The transform as a fold, for a caller that sees a transcript grow (``transform_messages``
    is this, run over a whole list).

    ``add`` takes the next message and returns what it becomes (nothing, itself, a rewritten
    copy, possibly preceded by error results for calls the previous reply left open);
    ``closing`` returns the error results the transcript would end with if it ended now,
    without changing the state. So ``add`` over m1..mn then ``closing`` equals
    ``transform_messages([m1..mn])``, however the adds were spread over time.
    """

    __slots__ = ("_answered", "_dropped_calls", "_id_map", "_model", "_open", "_pending")

    def __init__(self, model: Model) -> None:
        self._model = model
        self._id_map: dict[str, str] = {}
        self._dropped_calls: dict[str, None] = {}  # a set in insertion order (see ``memory``)
        self._pending: list[ToolCall] = []  # calls of the last assistant message still awaiting results
        self._answered: set[str] = set()
        self._open = 0  # distinct ids among the pending calls: all answered when ``_answered`` has as many

    @classmethod
    def restored(cls, model: Model, memory: HandoffMemory) -> Handoff:
        """A fold in the state another was in right after a user message, which had left it
        ``memory`` (``memory_size`` and ``memory`` taken then or any time later)."""
        handoff = cls(model)
        handoff._id_map = dict(memory.tool_ids)
        handoff._dropped_calls = dict.fromkeys(memory.dropped_calls)
        return handoff

    def memory_size(self) -> tuple[int, int]:
        """How much the fold remembers of what it saw (it only ever grows)."""
        return len(self._id_map), len(self._dropped_calls)

    def memory(self, size: tuple[int, int]) -> HandoffMemory:
        """What it remembered when ``memory_size`` was ``size``: after a user message, that
        and the model are the whole state (no calls are open then)."""
        ids, dropped = size
        return HandoffMemory(
            list(itertools.islice(self._id_map.items(), ids)),
            list(itertools.islice(self._dropped_calls, dropped)),
        )

    def closing(self) -> list[ToolResultMessage]:
        return _orphan_results(self._pending, self._answered)

    def _close_pending(self, out: list[LlmMessage]) -> None:
        if self._pending:
            if len(self._answered) < self._open:  # else closing() would be empty
                out.extend(self.closing())
            self._pending = []
            self._answered = set()

    def passes(self, message: LlmMessage) -> bool:
        """Take ``message`` if ``add`` would return it alone, as it is, and say so; else change
        nothing and return False (then call ``add``). The usual message of a long history
        passes: a cache converting one message at a time then makes no list per message."""
        kind = type(message)
        if kind is ToolResultMessage:  # a result for an open call, with clean text
            call_id = message.tool_call_id  # type: ignore[union-attr]  # told by its exact type
            for call in self._pending:
                if call.id == call_id:
                    if call_id in self._id_map or call_id in self._dropped_calls:
                        return False  # (a rewritten id that happens to equal another call's)
                    for b in message.content:
                        if type(b) is TextContent and not b.text.isascii() and _has_surrogate(b.text):
                            return False
                    self._answered.add(call_id)
                    return True
            return False
        if self._pending and len(self._answered) < self._open:
            return False  # error results for the open calls come first
        if kind is AssistantMessage:  # a reply kept as it is
            kept = _kept_as_is(message, self._model)  # type: ignore[arg-type]
            if kept is None:
                return False
            if self._pending:
                self._answered.clear()
            self._pending = kept
            self._open = len({call.id for call in kept}) if len(kept) > 1 else len(kept)
            return True
        if kind is UserMessage:  # plain text (``_clean_user``'s plain case)
            content = message.content
            if type(content) is not str or not content.isascii():
                return False
            if self._pending:
                self._pending = []
                self._answered.clear()
            return True
        return False

    def add(self, message: LlmMessage) -> list[LlmMessage]:
        if self.passes(message):
            return [message]
        return self._general(message)

    def _general(self, message: LlmMessage) -> list[LlmMessage]:
        """``add`` for any message: ``add`` takes the usual cases a shorter way, to the same
        result (tests/ai/test_handoff_properties.py holds the two equal)."""
        out: list[LlmMessage] = []
        if isinstance(message, ToolResultMessage):
            self._result(message, out)
        elif isinstance(message, AssistantMessage):
            self._close_pending(out)
            if message.stop_reason in ("error", "aborted"):
                self._dropped_calls.update((call.id, None) for call in message.tool_calls)
                return out
            content = message.content
            blocks = _convert_blocks(message, self._model, self._id_map)
            if not blocks:
                return out
            kept = message
            if len(blocks) != len(content) or any(a is not b for a, b in zip(blocks, content, strict=True)):
                kept = msgspec.structs.replace(message, content=blocks)
            out.append(kept)
            pending = self._pending = [block for block in blocks if type(block) is ToolCall]
            self._open = len({call.id for call in pending}) if len(pending) > 1 else len(pending)
        else:
            self._close_pending(out)
            out.append(_clean_user(message))
        return out

    def _result(self, message: ToolResultMessage, out: list[LlmMessage]) -> None:
        call_id = message.tool_call_id
        if call_id in self._dropped_calls:
            return
        new_id = self._id_map.get(call_id, call_id)
        for call in self._pending:
            if call.id == new_id:
                break
        else:
            return  # a result with no call before it: every API refuses it
        self._answered.add(new_id)
        texts_clean = True
        for b in message.content:
            if type(b) is TextContent and not b.text.isascii() and _has_surrogate(b.text):
                texts_clean = False
                break
        if new_id == call_id and texts_clean:
            out.append(message)
        else:
            cleaned = [
                TextContent(_clean(b.text)) if isinstance(b, TextContent) else b for b in message.content
            ]
            out.append(msgspec.structs.replace(message, tool_call_id=new_id, content=cleaned))


def transform_messages(messages: Sequence[LlmMessage], model: Model) -> list[LlmMessage]:
    """The messages rewritten for ``model`` (see the module docstring for the rules)."""
    handoff = Handoff(model)
    out: list[LlmMessage] = []
    for message in messages:
        out += handoff.add(message)
    out += handoff.closing()
    return out
