"""Agent and session events reach plain handlers through the dispatcher: in order, with time
limits, streamed events without waiting and every other event before the run goes on."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from tau_agent.events import MessageUpdateEvent, TurnStartEvent
from tau_coding.extensions.dispatcher import EventDispatcher
from tau_coding.extensions.guard import HandlerFailure
from tests.coding.extensions.helpers import fake, make_rig, write_extension


def test_a_hanging_handler_times_out_the_others_still_hear_and_it_is_skipped_until_it_returns() -> None:
    failures: list[HandlerFailure] = []
    heard: list[str] = []
    release = threading.Event()
    dispatcher = EventDispatcher(failures.append)
    deliveries = [
        ("slow", lambda event: (release.wait(5), heard.append("slow")), 0.1),
        ("fast", lambda event: heard.append("fast"), 5.0),
    ]
    started = time.monotonic()
    dispatcher.post(TurnStartEvent(), deliveries)
    dispatcher.drain()
    assert time.monotonic() - started < 2
    assert heard == ["fast"] and [f.timed_out for f in failures] == [True]
    assert "extension slow: turn_start handler timed out after 0.1s" in str(failures[0])
    dispatcher.post(TurnStartEvent(), deliveries)
    dispatcher.drain()
    assert heard == ["fast", "fast"]  # "slow" is still stuck in its first call: skipped
    release.set()
    deadline = time.monotonic() + 2
    while "slow" in dispatcher.stuck and time.monotonic() < deadline:
        time.sleep(0.01)
    dispatcher.post(TurnStartEvent(), deliveries)
    dispatcher.drain()
    assert heard[-2:] == ["slow", "fast"] and heard.count("slow") == 2  # the first call ended too


def test_a_raising_handler_is_reported_and_the_events_keep_their_order() -> None:
    failures: list[HandlerFailure] = []
    seen: list[int] = []
    dispatcher = EventDispatcher(failures.append)
    for n in range(50):
        dispatcher.post(n, [("boom", lambda event: 1 / 0, 5.0), ("log", seen.append, 5.0)])
    dispatcher.drain()
    assert seen == list(range(50))
    assert len(failures) == 50 and "ZeroDivisionError" in str(failures[0])


async def test_streamed_events_are_all_delivered_by_the_end_of_the_prompt(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "count",
        """
        counts = {"message_update": 0, "turn_end": 0}
        def activate(tau):
            def count(event):
                counts[event.type] += 1
            tau.on("message_update", count)
            tau.on("turn_end", count)
            tau.register_command("counts", lambda args: repr(counts))
        """,
    )
    from tau_agent.testing.fake_provider import reply, text

    rig = make_rig(tmp_path, fake(reply(text("one two three four five six", chunk_size=2))), [ext])
    events = await rig.run("go")
    updates = sum(1 for e in events if isinstance(e, MessageUpdateEvent))
    answer = await rig.run("/counts")
    assert [getattr(e, "text", None) for e in answer if e.type == "input_handled"] == [
        repr({"message_update": updates, "turn_end": 1})
    ]
    assert updates > 5
