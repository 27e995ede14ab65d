"""JSON print mode: deltas come from the run's batches, every other event from the subscription,
and the lines are exactly every event's line in the order a subscriber hears the events."""

from __future__ import annotations

import json
from pathlib import Path

from tau_agent.events import MessageUpdateEvent
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import RetryPolicy
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream
from tau_coding.modes.event_lines import event_line
from tau_coding.modes.print_mode import run_print
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import SessionEvent
from tau_coding.session.store.manager import SessionManager

PIECES = [f"{i % 10}" for i in range(400)]


async def test_json_lines_are_every_event_in_the_order_subscribers_hear_them(tmp_path: Path) -> None:
    overloaded = Scripted(status=529, body=b'{"error":"overloaded"}', chunked=False)
    replies = [overloaded, Scripted(body=toy_text_stream(PIECES), chunk_size=700)]
    async with ReplayServer(replies) as server:
        model = toy_model(server.url)
        provider = HttpProvider(
            model, TOY_WIRE, api_key="k", retry=RetryPolicy(max_retries=1, base_delay=0.01)
        )
        session = CodingSession(
            log=SessionManager(tmp_path / "sessions", str(tmp_path)).new(),
            model=model,
            provider_factory=lambda m: provider,
            tools=[],
            system_prompt="",
            cwd=tmp_path,
        )
        heard: list[SessionEvent] = []
        session.subscribe(heard.append)  # hears message_update too, one by one
        with (tmp_path / "out.jsonl").open("w") as out, (tmp_path / "err.txt").open("w") as err:
            ok = await run_print(session, [("go", [])], json_output=True, out=out, err=err)
        await provider.aclose()
        session.close()
    assert ok
    header, _, lines = (tmp_path / "out.jsonl").read_bytes().partition(b"\n")
    assert json.loads(header)["type"] == "session"
    assert lines == b"".join(event_line(event) for event in heard)
    kinds = [json.loads(line)["type"] for line in lines.splitlines()]
    assert kinds.index("auto_retry_start") < kinds.index("message_update")  # written when it happened
    assert kinds.count("message_update") == sum(type(e) is MessageUpdateEvent for e in heard) > len(PIECES)
