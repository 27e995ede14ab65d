from __future__ import annotations

from typing import Any

import pytest

from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import CustomMessage, UserMessage
from tau_agent.session.codec import (
    CodecError,
    entry_from_dict,
    entry_to_dict,
    header_from_dict,
    header_to_dict,
)
from tau_agent.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionHeader,
    SessionInfoEntry,
    ThinkingLevelChangeEntry,
    UnknownEntry,
    iso_to_ms,
)
from tau_agent.session.migrate import migrate

TS = "2025-01-02T03:04:05.678Z"
ALL_KINDS: list[SessionEntry] = [
    MessageEntry(id="a", parent_id=None, timestamp=TS, message=UserMessage("hi", 5)),
    ModelChangeEntry(id="b", parent_id="a", timestamp=TS, provider="openai", model_id="gpt-4o"),
    ThinkingLevelChangeEntry(id="c", parent_id="b", timestamp=TS, thinking_level="high"),
    CompactionEntry(
        id="d",
        parent_id="c",
        timestamp=TS,
        summary="s",
        first_kept_entry_id="a",
        tokens_before=9,
        details={"readFiles": ["x"]},
        from_hook=True,
    ),
    BranchSummaryEntry(id="e", parent_id="d", timestamp=TS, from_id="a", summary="went elsewhere"),
    CustomEntry(id="f", parent_id="e", timestamp=TS, custom_type="ext", data={"n": 1}),
    CustomMessageEntry(
        id="g",
        parent_id="f",
        timestamp=TS,
        custom_type="ext",
        content=[TextContent("t"), ImageContent("AAAA", "image/png")],
        display=False,
        details=[1],
    ),
    LabelEntry(id="h", parent_id="g", timestamp=TS, target_id="a", label="start"),
    LabelEntry(id="i", parent_id="h", timestamp=TS, target_id="a", label=None),
    SessionInfoEntry(id="j", parent_id="i", timestamp=TS, name="My session"),
]


@pytest.mark.parametrize("entry", ALL_KINDS, ids=lambda e: f"{e.type}-{e.id}")
def test_every_entry_kind_round_trips_through_json(entry: SessionEntry) -> None:
    data = entry_to_dict(entry)
    assert list(data)[:4] == ["type", "id", "parentId", "timestamp"]
    assert entry_from_dict(data) == entry


def test_optional_fields_are_left_out_as_pi_leaves_them_out() -> None:
    label = entry_to_dict(LabelEntry(id="i", parent_id="h", timestamp=TS, target_id="a"))
    assert "label" not in label
    compaction = entry_to_dict(
        CompactionEntry(
            id="d", parent_id=None, timestamp=TS, summary="s", first_kept_entry_id="a", tokens_before=1
        )
    )
    assert "details" not in compaction and "fromHook" not in compaction


def test_unknown_entry_type_is_kept_verbatim() -> None:
    raw: dict[str, Any] = {
        "type": "future_thing",
        "id": "z",
        "parentId": "a",
        "timestamp": TS,
        "payload": [1, 2],
    }
    entry = entry_from_dict(raw)
    assert isinstance(entry, UnknownEntry)
    assert (entry.id, entry.parent_id, entry.raw_type) == ("z", "a", "future_thing")
    assert entry_to_dict(entry) == raw


def test_unknown_fields_of_known_entries_survive_a_round_trip() -> None:
    raw = {
        "type": "model_change",
        "id": "m",
        "parentId": None,
        "timestamp": TS,
        "provider": "p",
        "modelId": "x",
        "newField": {"k": 1},
    }
    entry = entry_from_dict(raw)
    assert entry.extra == {"newField": {"k": 1}}
    assert entry_to_dict(entry) == raw


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"type": "message", "parentId": None, "message": {"role": "user", "content": "x"}}, "no id"),
        ({"type": "message", "id": "a", "parentId": 5, "message": {}}, "parentId"),
        ({"type": "message", "id": "a", "parentId": None, "message": {"role": "robot"}}, "role"),
        ({"type": "model_change", "id": "a", "parentId": None, "provider": 1, "modelId": "x"}, "provider"),
        ({"type": "label", "id": "a", "parentId": None}, "targetId"),
        ([1, 2], "object"),
    ],
)
def test_malformed_entries_raise_one_line_codec_errors(raw: Any, reason: str) -> None:
    with pytest.raises(CodecError, match=reason) as info:
        entry_from_dict(raw)
    assert "\n" not in str(info.value)


def test_header_round_trips_and_keeps_unknown_fields() -> None:
    header = SessionHeader(id="u", timestamp=TS, cwd="/p", parent_session="/s.jsonl", extra={"provider": "x"})
    assert header_from_dict(header_to_dict(header)) == header
    with pytest.raises(CodecError, match="not a session header"):
        header_from_dict({"type": "message"})


def test_v1_migration_links_entries_in_file_order_and_resolves_compaction_index() -> None:
    header: dict[str, Any] = {"type": "session", "id": "u", "timestamp": TS, "cwd": "/p"}
    lines: list[dict[str, Any]] = [
        {"type": "message", "timestamp": TS, "message": {"role": "user", "content": "a"}},
        {"type": "message", "timestamp": TS, "message": {"role": "user", "content": "b"}},
        {"type": "compaction", "timestamp": TS, "summary": "s", "firstKeptEntryIndex": 2, "tokensBefore": 3},
    ]
    assert migrate(header, lines) == 1
    assert header["version"] == 3
    ids = [line["id"] for line in lines]
    assert len(set(ids)) == 3 and all(len(i) == 8 for i in ids)
    assert [line["parentId"] for line in lines] == [None, ids[0], ids[1]]
    assert lines[2]["firstKeptEntryId"] == ids[1]  # index 2 counts the header as line 0
    assert "firstKeptEntryIndex" not in lines[2]


def test_v2_migration_renames_hook_messages_to_custom() -> None:
    header: dict[str, Any] = {"type": "session", "version": 2, "id": "u", "timestamp": TS, "cwd": "/p"}
    line = {
        "type": "message",
        "id": "a",
        "parentId": None,
        "timestamp": TS,
        "message": {
            "role": "hookMessage",
            "customType": "k",
            "content": "c",
            "display": True,
            "timestamp": 1,
        },
    }
    assert migrate(header, [line]) == 2
    entry = entry_from_dict(line)
    assert isinstance(entry, MessageEntry)
    assert entry.message == CustomMessage("k", "c", True, None, 1)


def test_iso_timestamps_become_exact_milliseconds() -> None:
    assert iso_to_ms("2026-11-30T10:26:54.169Z") == 1796034414169
    assert iso_to_ms("garbage") == 0
