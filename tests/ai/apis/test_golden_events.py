"""Every recorded provider response replays to the checked-in events, however it is split.

The body is cut at fixed chunk sizes (1 byte included) and at hypothesis-chosen offsets;
each split must give exactly the golden event sequence and final message. Regenerate the
goldens with ``python -m tests.golden.regenerate`` (see tests/golden/README.md).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.golden.goldens import (
    GOLDEN,
    Recording,
    dump_events,
    error_goldens,
    errors_path,
    events_path,
    every,
    replay,
    stream_recordings,
)

STREAMS = stream_recordings()
IDS = [r.case for r in STREAMS]


def golden(recording: Recording) -> str:
    path = events_path(recording)
    assert path.exists(), f"no golden for {recording.case}; run python -m tests.golden.regenerate"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("recording", STREAMS, ids=IDS)
@pytest.mark.parametrize("chunk", [None, 1, 2, 3, 7, 64, 997])
def test_recorded_stream_replays_to_golden_events_at_any_chunk_size(
    recording: Recording, chunk: int | None
) -> None:
    cuts = every(chunk, len(recording.body)) if chunk else ()
    assert dump_events(replay(recording, cuts)) == golden(recording)


@pytest.mark.parametrize("recording", STREAMS, ids=IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_recorded_stream_replays_to_golden_events_at_random_offsets(
    recording: Recording, data: st.DataObject
) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(recording.body)), max_size=40))
    assert dump_events(replay(recording, cuts)) == golden(recording)


@pytest.mark.parametrize("recording", STREAMS, ids=IDS)
def test_recorded_stream_ends_exactly_once_with_its_final_message(recording: Recording) -> None:
    lines = replay(recording)
    terminal = [line for line in lines if line.get("type") in ("done", "error")]
    assert len(terminal) == 1
    key = "message" if terminal[0]["type"] == "done" else "error"
    assert terminal[0][key] == lines[-1]["finalMessage"]
    assert lines[0] == {"type": "start"}


def test_every_golden_event_file_belongs_to_a_recording() -> None:
    expected = {events_path(r) for r in STREAMS}
    present = set((GOLDEN / "events").rglob("*.jsonl"))
    assert present == expected


def test_error_bodies_give_the_golden_provider_messages() -> None:
    computed = error_goldens()
    stored = {path.stem: json.loads(path.read_text()) for path in (GOLDEN / "errors").glob("*.json")}
    assert computed == stored
    for api in computed:
        assert errors_path(api).exists()
    for messages in computed.values():
        for message in messages.values():
            assert "\n" not in message and 0 < len(message) <= 500
