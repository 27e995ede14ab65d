"""Fuzz the session reader the way a resume uses it: bytes on disk, opened, replayed.

Documented: only a file whose first line is not a session header is refused (SessionFileError);
past the header nothing is fatal, whatever the lines hold: each bad line is a warning.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.reader import SessionFileError, read_session

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/p"}
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
ids = st.sampled_from(["a", "b", "c", "d", None, 7])
content = st.one_of(
    st.text(max_size=10),
    st.lists(
        st.fixed_dictionaries(
            {"type": st.sampled_from(["text", "thinking", "toolCall", "image", "other", 3])},
            optional={"text": json_values, "id": ids, "name": json_values, "arguments": json_values},
        ),
        max_size=3,
    ),
    json_values,
)
messages = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "custom", "nope", 1])},
    optional={
        "content": content,
        "toolCallId": ids,
        "stopReason": st.sampled_from(["stop", "toolUse", "error", "aborted", "length", "x"]),
        "timestamp": json_values,
        "usage": json_values,
    },
)
entries = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "message",
                "model_change",
                "thinking_level_change",
                "compaction",
                "branch_summary",
                "custom",
                "custom_message",
                "label",
                "session_info",
                "session",
                "junk",
            ]
        ),
        "id": ids,
        "parentId": ids,
    },
    optional={
        "timestamp": json_values,
        "message": messages | json_values,
        "summary": json_values,
        "firstKeptEntryId": ids,
        "tokensBefore": json_values,
        "provider": json_values,
        "modelId": json_values,
        "thinkingLevel": json_values,
        "targetId": ids,
        "label": json_values,
        "data": json_values,
        "fromId": ids,
    },
)
lines = st.one_of(
    entries.map(lambda e: json.dumps(e).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
)


def replay(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.jsonl"
        path.write_bytes(data)
        with JsonlSessionStorage.open(path, read_only=True) as storage:
            SessionLog(storage).state()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_read_or_refused_as_not_a_session_file(data: bytes) -> None:
    with contextlib.suppress(SessionFileError):
        read_session(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, max_size=12), st.booleans())
def test_after_a_header_no_line_stops_the_session_from_opening_and_replaying(
    body: list[bytes], torn: bool
) -> None:
    data = b"\n".join([json.dumps(HEADER).encode(), *body]) + (b"" if torn else b"\n")
    loaded = read_session(data)
    assert loaded.header is not None
    replay(data)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["type", "version", "id", "timestamp", "cwd", "parentSession"]), json_values
    )
)
def test_a_strange_header_is_read_or_refused_as_not_a_session_file(header: dict[str, Any]) -> None:
    with contextlib.suppress(SessionFileError):
        replay(
            json.dumps(header).encode() + b"\n" + json.dumps({"type": "message", "id": "a"}).encode() + b"\n"
        )
