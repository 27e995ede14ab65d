"""The fast path of reading session lines must agree with the careful path wherever it accepts a
line, and refuse (so the careful path decides) everything else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session import fast_decode, reader
from tau_agent.session.codec import CodecError, entry_from_dict, entry_to_dict
from tau_agent.session.entries import MessageEntry, SessionHeader
from tau_agent.session.fastjson import dumps_line, loads
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog

# Any JSON value, to put where a well-typed one is expected. Integers stay within 64 bits: beyond
# that the careful path's parser gives a float and the fast path the exact integer.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


REQUIRED = {"id", "message", "provider", "modelId", "thinkingLevel", "summary", "customType", "targetId"}
_DROP = "(drop the required fields)"


def _object(fields: dict[str, st.SearchStrategy[Any]], **fixed: Any) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with the ``fixed`` fields, the required ones and some others of ``fields``, well
    typed; now and then one field holds any JSON value instead, the required ones are left out,
    or a field nobody knows is added."""
    keys = sorted(fields)

    def build(
        chosen: set[str], values: dict[str, Any], spoil: str | None, bad: Any, extra: dict[str, Any]
    ) -> Any:
        out = {**fixed, **{k: values[k] for k in keys if (k in REQUIRED and spoil != _DROP) or k in chosen}}
        if spoil in fields:
            out[spoil] = bad
        return {**out, **extra}

    return st.builds(
        build,
        st.sets(st.sampled_from(keys)) if keys else st.just(set()),
        st.fixed_dictionaries(fields),
        st.sampled_from([None] * (4 * len(keys) + 4) + keys + [_DROP]),
        json_values,
        st.sampled_from([{}] * 20 + [{"zzz": 1}]),
    )


text = st.text(max_size=8)
ints = st.integers(0, 10**12)
floats = st.floats(0, 10, allow_nan=False)
opt_text = st.none() | text
text_block = _object({"text": text, "textSignature": opt_text}, type="text")
image_block = _object({"data": text, "mimeType": text}, type="image")
thinking_block = _object(
    {"thinking": text, "thinkingSignature": opt_text, "redacted": st.booleans()}, type="thinking"
)
call_block = _object(
    {
        "id": text,
        "name": text,
        "arguments": st.dictionaries(text, json_values, max_size=2),
        "thoughtSignature": opt_text,
    },
    type="toolCall",
)
any_block = st.one_of(text_block, image_block, thinking_block, call_block)
cost = _object(
    {"input": floats, "output": floats, "cacheRead": floats, "cacheWrite": floats, "total": floats}
)
usage = _object(
    {
        "input": ints,
        "output": ints,
        "cacheRead": ints,
        "cacheWrite": ints,
        "reasoning": ints,
        "totalTokens": ints,
        "cost": cost,
    }
)
blocks = st.lists(any_block, max_size=3)
user_content = text | st.lists(st.one_of(text_block, image_block), max_size=2)
messages = st.one_of(
    _object({"content": user_content, "timestamp": ints}, role="user"),
    _object(
        {
            "content": blocks,
            "api": text,
            "provider": text,
            "model": text,
            "usage": usage | st.none(),
            "stopReason": st.sampled_from(["stop", "length", "toolUse", "error", "aborted"]),
            "errorMessage": opt_text,
            "responseId": opt_text,
            "timestamp": ints,
        },
        role="assistant",
    ),
    _object(
        {
            "toolCallId": text,
            "toolName": text,
            "content": user_content,
            "details": json_values,
            "isError": st.booleans(),
            "timestamp": ints,
        },
        role="toolResult",
    ),
    _object(
        {
            "command": text,
            "output": text,
            "exitCode": st.none() | st.integers(-2, 300),
            "cancelled": st.booleans(),
            "truncated": st.booleans(),
            "fullOutputPath": opt_text,
            "excludeFromContext": st.booleans(),
            "timestamp": ints,
        },
        role="bashExecution",
    ),
    *(
        _object(
            {"customType": text, "content": user_content, "display": st.booleans(), "details": json_values},
            role=role,
        )
        for role in ("custom", "hookMessage")
    ),
    _object({"summary": text, "tokensBefore": ints, "timestamp": ints}, role="compactionSummary"),
    _object({"summary": text, "fromId": text, "timestamp": ints}, role="branchSummary"),
)
base = {"id": st.text(max_size=4), "parentId": opt_text, "timestamp": text}
entries = st.one_of(
    *[_object({**base, "message": messages}, type="message")] * 10,
    _object({**base, "provider": text, "modelId": text}, type="model_change"),
    _object({**base, "thinkingLevel": text}, type="thinking_level_change"),
    _object(
        {
            **base,
            "summary": text,
            "firstKeptEntryId": opt_text,
            "tokensBefore": ints,
            "details": json_values,
            "fromHook": st.none() | st.booleans(),
        },
        type="compaction",
    ),
    _object({**base, "fromId": opt_text, "summary": text, "details": json_values}, type="branch_summary"),
    _object({**base, "customType": text, "data": json_values}, type="custom"),
    _object(
        {
            **base,
            "customType": text,
            "content": user_content,
            "display": st.booleans(),
            "details": json_values,
        },
        type="custom_message",
    ),
    _object({**base, "targetId": text, "label": opt_text}, type="label"),
    _object({**base, "name": opt_text}, type="session_info"),
    _object(base, type="something_new"),
)


@settings(max_examples=1500, deadline=None)
@given(entries)
def test_whatever_the_fast_path_accepts_the_careful_path_reads_identically(value: dict[str, Any]) -> None:
    line = dumps_line(value)
    try:
        fast = fast_decode.decode_line(line)
    except fast_decode.DecodeError:
        return
    careful = entry_from_dict(loads(line))  # must not raise either
    assert fast == careful
    assert entry_to_dict(fast) == entry_to_dict(careful)


def test_lines_with_fields_the_fast_path_does_not_know_are_read_carefully_and_keep_them() -> None:
    line = b'{"type":"model_change","id":"a","parentId":null,"timestamp":"t","provider":"p","modelId":"m","v9":1}'
    with pytest.raises(fast_decode.DecodeError):
        fast_decode.decode_line(line)
    loaded = reader.read_session(b'{"type":"session","version":3,"id":"s","cwd":"/"}\n' + line + b"\n")
    assert loaded.warnings == []
    assert loaded.entries[0].extra == {"v9": 1}


def test_a_refused_line_sends_only_its_own_batch_down_the_careful_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "_CHUNK", 600)  # a few lines a batch
    path = tmp_path / "s.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    for i in range(30):
        log.append_message(UserMessage(f"question {i}", 1))
        log.append_message(
            AssistantMessage([TextContent(f"answer {i}"), ToolCall(f"c{i}", "read", {"p": i})])
        )
        log.append_message(ToolResultMessage(f"c{i}", "read", [TextContent("result")]))
    log.close()
    lines = path.read_bytes().split(b"\n")
    lines[40] = b'{"type":"message","id":"broken'  # line 41 of the file
    lines[60] = lines[60][:-1] + b',"addedLater":true}'
    path.write_bytes(b"\n".join(lines))
    storage = JsonlSessionStorage.open(path, read_only=True)
    assert storage.warnings == [f"{path.name}: line 41 is not a JSON object; skipped"]
    assert len(storage.entries) == 89
    assert [e.extra for e in storage.entries if e.extra] == [{"addedLater": True}]
    replay = SessionLog(storage).state()  # the entry after the lost one is now a root
    assert len(replay.messages) == 50 and replay.messages[-1] == ToolResultMessage(
        "c29", "read", [TextContent("result")], timestamp=replay.messages[-1].timestamp
    )


def test_a_repeated_id_is_reported_with_its_line_number() -> None:
    head = b'{"type":"session","version":3,"id":"s","cwd":"/"}\n'
    entry = b'{"type":"session_info","id":"a","parentId":null,"timestamp":"t","name":"n"}\n'
    loaded = reader.read_session(head + entry + entry.replace(b'"n"', b'"m"'))
    assert loaded.warnings == ["session: line 3: duplicate entry id a; skipped"]
    assert len(loaded.entries) == 1


def test_a_message_without_a_timestamp_reads_as_time_zero_not_as_now() -> None:
    head = b'{"type":"session","version":3,"id":"s","cwd":"/"}\n'
    line = b'{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}\n'
    with pytest.raises(fast_decode.DecodeError):
        fast_decode.decode_line(line)
    (entry,) = reader.read_session(head + line).entries
    assert isinstance(entry, MessageEntry) and entry.message == UserMessage("x", 0)


def test_careful_errors_still_name_the_entry() -> None:
    with pytest.raises(CodecError, match="message entry a"):
        entry_from_dict({"type": "message", "id": "a", "message": {"role": "nobody"}})


@pytest.mark.parametrize("name", ["pi-v3.jsonl", "tau-v3.jsonl"])
def test_every_line_pi_and_tau_write_takes_the_fast_path(name: str) -> None:
    golden = Path(__file__).resolve().parents[2] / "golden" / "sessions" / name
    lines = [line for line in golden.read_bytes().split(b"\n")[1:] if line.strip()]
    assert lines
    for line in lines:
        assert fast_decode.decode_line(line) == entry_from_dict(loads(line))
