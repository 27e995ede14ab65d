"""A live run of many turns keeps the transcript's mounted views bounded, so a turn's cost stays flat."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult

from tau_agent.cancellation import CancellationToken
from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage
from tau_agent.testing import FakeProvider, call, reply
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tui.state import AssistantItem, Item, ToolItem
from tau_coding.tui.widgets.tool_row import ToolRow
from tau_coding.tui.widgets.transcript import PAGE, WINDOW, Transcript

from .helpers import adapter
from .test_app import SIZE, make_app, type_text, until

TURNS = 150  # 300+ items: well past WINDOW + PAGE


def read_tool() -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        return AgentToolResult.text(f"contents of {args['path']}")

    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    return AgentTool("read", "Read a file.", schema, execute)


async def test_a_long_live_run_unmounts_the_oldest_views_and_scrolling_up_brings_them_back() -> None:
    replies = [reply(call("read", {"path": f"f{i}.py"})) for i in range(TURNS)] + [reply("all read")]
    app = make_app(adapter(FakeProvider(replies), tools=[read_tool()]))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "go")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and app.state.tool_calls == TURNS, 60)
        transcript = app.transcript
        # Frames are paced by their cost (bridge.py): the last one may come a few tenths later.
        await until(
            pilot,
            lambda: (
                transcript.mounted_count <= WINDOW + PAGE
                and transcript.view(len(app.state.items) - 1) is not None
            ),
            10,
        )
        items = app.state.items
        assert len(items) > 2 * (WINDOW + PAGE)
        assert WINDOW <= transcript.mounted_count <= WINDOW + PAGE
        # The newest rows are the mounted ones, and the last tool row shows its finished result.
        assert transcript.view(len(items) - 1) is not None and transcript.view(0) is None
        last_tool = max(i for i, item in enumerate(items) if isinstance(item, ToolItem))
        row = transcript.view(last_tool)
        assert isinstance(row, ToolRow) and row.item.status == "ok"
        assert f"f{TURNS - 1}.py" in str(row.query_one(".tool-header").render())
        earlier = str(transcript.query_one(".earlier").render())
        assert f"{len(items) - transcript.mounted_count} earlier items" in earlier
        before = transcript.mounted_count
        assert await transcript.load_earlier() == PAGE and transcript.mounted_count == before + PAGE


def style_caches() -> int:
    """How many StylesCaches are alive, counting those the app froze (gc.freeze at start-up
    hides them from get_objects: counted before the app starts, then hidden, they would make
    room for as many leaked ones)."""
    gc.unfreeze()
    gc.collect()
    return sum(isinstance(o, StylesCache) for o in gc.get_objects())


async def test_unmounted_views_leave_no_rendered_lines_behind() -> None:
    """Every widget owns one StylesCache (its rendered lines); after a long run only the mounted
    widgets' caches are alive, not those of the views trimmed away (Textual memoises them)."""
    replies = [reply(call("read", {"path": f"f{i}.py"})) for i in range(TURNS)] + [reply("all read")]
    app = make_app(adapter(FakeProvider(replies), tools=[read_tool()]))
    before = style_caches()  # other tests' apps, if any
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "go")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and app.state.tool_calls == TURNS, 60)
        last = len(app.state.items) - 1
        await until(
            pilot,
            lambda: app.transcript.mounted_count <= WINDOW + PAGE and app.transcript.view(last) is not None,
            10,
        )  # the last frame

        def settled() -> tuple[int, int]:
            return style_caches() - before, len(list(app.screen.walk_children(with_self=True)))

        # Measured: 2 fewer caches than widgets in the walk. The screen lets go of removed
        # widgets at its next frame (later on a loaded machine), so the count is read until it
        # settles; a leak never does. Each leaked view adds one cache or more: without the
        # trimming, ~150 more at 150 turns; without style_cache.release_removed_children, the
        # last frame's list of the column's children (40-320 more, never freed while idle).
        counts = settled()
        for _ in range(50):
            if counts[0] <= counts[1] + 10:
                break
            await pilot.pause(0.1)
            counts = settled()
        assert counts[0] <= counts[1] + 10, counts


class TranscriptApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Transcript()


def items(count: int) -> list[Item]:
    made: list[Item] = []
    for i in range(count // 2):
        made.append(
            AssistantItem(AssistantMessage(content=[TextContent(f"Let me *look* at f{i}.py.")]), True)
        )
        made.append(ToolItem(f"call_{i}", "read", {"path": f"f{i}.py"}, "ok", output="contents"))
    return made


async def test_removed_views_are_freed_without_waiting_for_the_collector() -> None:
    """A view the transcript removes goes when it is dropped, not at the collector's next full
    pass: those grow rarer as a session's live objects grow, and meanwhile each dead view's
    lines and caches stay resident (style_cache.detach_styles). The collector is off here, so
    a removed view still alive is one that only a pass would free."""
    app = TranscriptApp()
    async with app.run_test(size=SIZE) as pilot:
        transcript = app.query_one(Transcript)
        shown = items(WINDOW)
        await transcript.append(shown, range(len(shown)))
        await pilot.pause()
        await pilot.pause()
        views = [weakref.ref(view) for index in range(PAGE) if (view := transcript.view(index))]
        assert len(views) == PAGE
        gc.collect()
        gc.disable()
        try:
            await transcript.forget_before(PAGE)
            for _ in range(5):  # the screen lets go of removed views at its next frame
                await pilot.pause(0.05)
            # Measured: 0-1 left (one may stay referenced by Textual's state of the last frame a
            # while longer); without detach_styles, all 20.
            assert sum(ref() is not None for ref in views) <= 1
        finally:
            gc.enable()
