"""A resumed session's history: rendered in slices with the event loop running in between, and
written to the terminal in one piece (history_slices.py)."""

from __future__ import annotations

import asyncio

from tau_coding.tui.items import NoticeItem, ToolItem, UserItem
from tau_coding.tui.shell.history_slices import HeldWriter, write_in_slices
from tau_coding.tui.shell.inline import Look, ScrollbackFeed, palette_of
from tau_coding.tui.theme import THEMES


def _look() -> Look:
    return Look(80, palette_of(THEMES[0]), "256")


async def test_the_history_renders_in_slices_and_is_written_once_in_order() -> None:
    written: list[str] = []
    writer = HeldWriter(written.append)
    feed = ScrollbackFeed(writer)
    items = [UserItem(f"question {i}") for i in range(100)]
    feed.start(len(items))
    turns = 0

    async def other_work() -> None:  # what the event loop runs meanwhile: keys, frames
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(other_work())
    await write_in_slices(feed, items, _look, writer, slice_seconds=0)
    other.cancel()
    assert turns >= 79  # a turn of the loop after each of the 80 items written
    assert len(written) == 1
    text = written[0]
    assert text.startswith("\x1b[2m▲ 20 earlier items")
    order = [text.index(f"question {i}\x1b") for i in range(20, 100)]
    assert order == sorted(order) and "question 19\x1b" not in text
    writer("after")  # released: writes go straight through again
    assert written[-1] == "after"


async def test_what_is_written_while_held_follows_in_order_and_a_live_item_stops_the_slices() -> None:
    written: list[str] = []
    writer = HeldWriter(written.append)
    writer.hold()
    writer("one ")
    writer("two")
    assert written == []
    writer.release()
    writer.release()  # nothing held: nothing written
    assert written == ["one two"]
    writer = HeldWriter(written.append)
    feed = ScrollbackFeed(writer)
    items = [
        NoticeItem("settled"),
        ToolItem("c1", "bash", {"command": "sleep 9"}, "running"),
        UserItem("next"),
    ]
    feed.start(len(items))
    await write_in_slices(feed, items, _look, writer)
    assert feed.printed == 1  # the running tool stays live, and what follows it with it
    assert "settled" in written[-1] and "next" not in written[-1]
