"""Every recorded stream, served by a real local HTTP server in random pieces, through the
HttpProvider and the real wire API, gives exactly the golden events that the pure parser gives.

This is the whole adapter path (socket, chunked transfer, SSE decoding, parsing, cost) against
the same goldens as tests/ai/apis/test_golden_events.py.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_agent.wire import message_to_dict
from tau_agent.wire_events import assistant_event_to_dict
from tau_ai.http_provider import HttpProvider
from tau_ai.testing.replay_server import ReplayServer, recorded
from tests.golden.goldens import DATA, Recording, events_path, stream_recordings

STREAMS = stream_recordings()


async def _stream_over_http(recording: Recording, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    size = len(recording.body)
    cuts = sorted(rng.sample(range(1, size), min(12, size - 1)))
    response = recorded(DATA / recording.provider, recording.name, split_at=cuts)
    async with ReplayServer(response) as server:
        model = replace(recording.model, base_url=server.url)
        provider = HttpProvider(model, recording.wire, api_key="test-key")
        lines: list[dict[str, Any]] = []
        final: dict[str, Any] | None = None
        try:
            async for event in provider.stream(Context("sys", [UserMessage("hi")]), StreamOptions()):
                if isinstance(event, DoneEvent | ErrorEvent):
                    event.message.timestamp = 0
                    final = message_to_dict(event.message)
                lines.append(assistant_event_to_dict(event))
        finally:
            await provider.aclose()
        lines.append({"finalMessage": final})
        return lines


@pytest.mark.parametrize("recording", STREAMS, ids=[r.case for r in STREAMS])
@pytest.mark.parametrize("seed", [1, 2])
async def test_recorded_stream_over_http_matches_golden(recording: Recording, seed: int) -> None:
    expected = [json.loads(line) for line in events_path(recording).read_text().splitlines()]
    assert await _stream_over_http(recording, seed) == expected
