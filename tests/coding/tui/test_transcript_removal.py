"""Views the transcript removes are freed by the next frame, even when nothing else happens.

Textual keeps a list of each container's displayed children, rebuilt only when something
reads it again (a child's styles being updated, as when one is mounted), and its last few
arrangements. A frame laid out before a removal leaves both holding every removed view, and
its rendered lines, for as long as the app stays idle (style_cache.py). These tests lay out
a frame first, as a running app does, then remove, and wait for the frame after that (the
screen's own map of what it drew lets go of the removed views there).
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.testing import FakeProvider
from tau_coding.tui.state import Item, NoticeItem
from tau_coding.tui.widgets.transcript import PAGE, WINDOW, Transcript

from .helpers import adapter
from .test_app import SIZE, make_app


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Transcript()


def notes(count: int) -> list[Item]:
    return [NoticeItem(f"note {i}", "info") for i in range(count)]


def alive(refs: list[weakref.ref[object]]) -> int:
    gc.collect()
    return sum(ref() is not None for ref in refs)


async def freed(pilot: Pilot[None], refs: list[weakref.ref[object]]) -> int:
    """How many of ``refs`` are still alive once the next frame has been drawn (2 s at most)."""
    for _ in range(40):
        await pilot.pause(0.05)
        if alive(refs) == 0:
            return 0
    return alive(refs)


async def test_views_trimmed_off_the_top_of_a_live_run_are_freed_by_the_next_frame() -> None:
    app = _Host()
    async with app.run_test(size=SIZE) as pilot:
        transcript = app.query_one(Transcript)
        items = notes(WINDOW + PAGE)
        await transcript.append(items, range(1))  # as a live run does: a few items at a time
        await transcript.append(items, range(1, len(items)))
        await pilot.pause()  # a frame: Textual lays out (and lists) every mounted view
        assert len(transcript.displayed_children) == WINDOW + PAGE
        oldest = [weakref.ref(view) for view in list(transcript.views())[: PAGE + 1]]
        more = [*items, *notes(1)]
        await transcript.append(more, range(len(items), len(more)))  # one past the cap: trims
        assert transcript.mounted_count == WINDOW and transcript.view(PAGE) is None
        assert await freed(pilot, oldest) == 0


async def test_views_written_to_the_scrollback_are_freed_by_the_next_frame() -> None:
    app = _Host()
    async with app.run_test(size=SIZE) as pilot:
        transcript = app.query_one(Transcript)
        items = notes(10)
        await transcript.append(items, range(len(items)))
        await pilot.pause()
        written = [weakref.ref(view) for view in list(transcript.views())[:8]]
        await transcript.forget_before(8)  # inline mode printed the first eight
        assert transcript.mounted_count == 2
        assert await freed(pilot, written) == 0


async def test_clearing_the_transcript_frees_every_view_by_the_next_frame() -> None:
    app = _Host()
    async with app.run_test(size=SIZE) as pilot:
        transcript = app.query_one(Transcript)
        items = notes(10)
        await transcript.append(items, range(len(items)))
        await pilot.pause()
        views = [weakref.ref(view) for view in transcript.views()]
        await transcript.clear_all()
        assert await freed(pilot, views) == 0


async def test_views_on_screen_while_a_session_is_read_are_freed_after_a_switch(tmp_path: Path) -> None:
    """Reading the session switched to freezes nothing (tau_agent/session/bulk.py): the views
    on screen while it is read are still collected once the switch removes them."""
    path = tmp_path / "next.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    log.append_message(UserMessage("hi"))
    log.append_message(AssistantMessage([TextContent("hello")]))
    log.close()
    app = make_app(adapter(FakeProvider([])), inline=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for i in range(10):
            app.notice(f"note {i}", "info")
        await app.paint()
        await pilot.pause()
        views = [weakref.ref(view) for view in app.transcript.views()]
        assert views
        frozen = gc.get_freeze_count()
        JsonlSessionStorage.open(path, read_only=True)
        assert gc.get_freeze_count() <= frozen  # (frozen objects may die meanwhile)
        await app.reset_transcript()
        assert await freed(pilot, views) == 0
