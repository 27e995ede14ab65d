"""The TUI's port relays a streamed reply in batches (one network read each) from a real HTTP
provider, and the TUI state folded from the batches is the state folded event by event."""

from __future__ import annotations

from pathlib import Path

from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEvent, MessageStartEvent, MessageUpdateEvent
from tau_ai.http_provider import HttpProvider
from tau_ai.retry import RetryPolicy
from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.toy_wire import TOY_WIRE, toy_model, toy_text_stream
from tau_coding.tui.items import RunNotice
from tau_coding.tui.state import AssistantItem, TuiState, UserItem, apply
from tests.coding.tui.session_helpers import Rig

PIECES = [f"{i % 10}" for i in range(400)]


def _snapshot(state: TuiState) -> list[tuple[str, str]]:
    out = []
    for item in state.items:
        if isinstance(item, AssistantItem):
            out.append(("assistant", f"{item.message.text}|{item.done}|{item.message.stop_reason}"))
        elif isinstance(item, UserItem):
            out.append(("user", repr(item)))
        else:
            out.append((type(item).__name__, ""))
    return out


async def test_a_reply_comes_in_batches_and_folds_as_its_events_one_by_one(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    # The whole body in one HTTP chunk: one read holds every delta.
    async with ReplayServer(Scripted(body=toy_text_stream(PIECES))) as server:
        provider = HttpProvider(
            toy_model(server.url), TOY_WIRE, api_key="k", retry=RetryPolicy(max_retries=0)
        )
        rig.provider = provider  # type: ignore[assignment]  # what the rig's sessions are made with
        assert not rig.port.reload().is_error  # a session made again, over the HTTP provider
        items = [item async for item in rig.port.prompt("go")]
        await provider.aclose()
    batches = [item for item in items if isinstance(item, EventBatch)]
    assert batches and max(len(batch.events) for batch in batches) >= len(PIECES) // 2
    for batch in batches:  # a reply's start and deltas only
        assert all(type(event) in (MessageStartEvent, MessageUpdateEvent) for event in batch.events)
    flat: list[AgentEvent | RunNotice] = [
        event for item in items for event in (item.events if isinstance(item, EventBatch) else [item])
    ]
    assert sum(isinstance(event, MessageUpdateEvent) for event in flat) >= len(PIECES)

    by_batch, one_by_one = TuiState(), TuiState()
    for item in items:
        apply(by_batch, item, 0.0)
    for event in flat:
        apply(one_by_one, event, 0.0)
    assert _snapshot(by_batch) == _snapshot(one_by_one)
    assert _snapshot(by_batch)[-1] == ("assistant", "".join(PIECES) + "|True|stop")
    assert by_batch.take_changes() == one_by_one.take_changes()
