"""What inline mode writes to the scrollback: which items are settled, how they read, and how
they are written again when their look changes."""

from __future__ import annotations

import asyncio

from tau_agent.content import TextContent, ThinkingContent
from tau_agent.messages import AssistantMessage
from tau_coding.tui.items import AssistantItem, BashItem, ErrorItem, Item, NoticeItem, ToolItem, UserItem
from tau_coding.tui.shell.inline import CLEAR_ALL, HISTORY_ITEMS, Look, ScrollbackFeed
from tau_coding.tui.shell.scrollback import Palette, is_settled, scrollback_text, settled


def _reply(text: str, *, done: bool = True) -> AssistantItem:
    return AssistantItem(AssistantMessage([TextContent(text)]), done=done)


def _plain(items: list[Item], width: int = 60, **kwargs: bool) -> list[str]:
    return scrollback_text(items, width, Palette(), color_system=None, **kwargs).split("\r\n")


def test_only_finished_replies_and_tools_with_results_are_settled() -> None:
    assert is_settled(UserItem("hi")) and is_settled(NoticeItem("n")) and is_settled(ErrorItem("e"))
    assert not is_settled(_reply("partial", done=False)) and is_settled(_reply("all"))
    assert not is_settled(ToolItem("c", "bash", {}, status="running"))
    assert not is_settled(ToolItem("c", "bash", {}, status="pending"))
    assert is_settled(ToolItem("c", "bash", {}, status="error"))


def test_a_running_tool_keeps_everything_after_it_live() -> None:
    items: list[Item] = [
        UserItem("go"),
        _reply("I'll run two."),
        ToolItem("a", "bash", {}, status="running"),
        ToolItem("b", "bash", {}, status="ok"),
    ]
    assert settled(items, 0) == 2
    assert settled(items, 2) == 2
    assert settled(items, 3) == 4


def test_items_read_as_the_transcript_shows_them_with_line_breaks_kept() -> None:
    tool = ToolItem("c", "read", {"path": "config.py"}, status="ok", output="PORT = 9090\n")
    lines = _plain(
        [
            UserItem("Which port?"),
            _reply("The port is **9090**.\nSecond line."),
            tool,
            BashItem("ls", "a\nb", 2),
            NoticeItem("Cancelled.", "warning"),
            ErrorItem("boom", "Try again."),
        ]
    )
    text = "\n".join(lines)
    for shown in (
        " ▌ Which port?",
        "  The port is 9090.",
        "  Second line.",
        "  ▌ ✓ read config.py",
        "  ▌ PORT = 9090",
        "  ▌ ! ls  (exit 2)",
        "   Cancelled.",
        "  ▌ Error: boom",
        "  ▌ Try again.",
    ):
        assert any(line.startswith(shown) for line in lines), (shown, text)
    assert lines[-1] == ""  # ends with a line break: the region is drawn below
    assert all(line == line.rstrip() or line.startswith(" ▌") for line in lines)  # no padding kept


def test_lines_fit_the_width_and_end_in_crlf_for_a_raw_mode_terminal() -> None:
    text = scrollback_text([_reply("word " * 100)], 40, Palette(), color_system=None)
    assert "\n" not in text.replace("\r\n", "")
    assert max(len(line) for line in text.split("\r\n")) <= 40


def test_thinking_is_written_only_while_shown() -> None:
    item = AssistantItem(AssistantMessage([ThinkingContent("secret plan"), TextContent("Done.")]), done=True)
    assert "secret plan" not in "\n".join(_plain([item]))
    assert "secret plan" in "\n".join(_plain([item], show_thinking=True))
    assert "Thinking… (hidden; Ctrl+T shows it)" in "\n".join(_plain([item]))
    labelled = "\n".join(_plain([item], thinking_hint="pondering…"))  # an extension's label
    assert "pondering…" in labelled and "Ctrl+T" not in labelled and "secret plan" not in labelled


PLAIN = Look(60, Palette(), color_system=None)


def test_the_feed_writes_each_settled_item_once_and_all_of_them_on_exit() -> None:
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    items: list[Item] = [UserItem("first"), _reply("streaming", done=False)]
    feed.feed(items, PLAIN)
    feed.feed(items, PLAIN)
    assert len(written) == 1 and "first" in written[0] and feed.printed == 1
    feed.feed(items, PLAIN, everything=True)
    assert len(written) == 2 and "streaming" in written[1] and feed.printed == 2


def test_a_long_resumed_session_writes_its_newest_items_after_a_count_of_the_rest() -> None:
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    items: list[Item] = [UserItem(f"prompt {i}") for i in range(HISTORY_ITEMS + 5)]
    feed.start(len(items), new_screen=True)
    feed.feed(items, PLAIN)
    assert written[0].startswith("\x1b[2J\x1b[H")  # a replaced transcript starts a clean screen
    assert "5 earlier items" in written[0]
    assert "prompt 4 " not in written[0] and "prompt 5 " in written[0]


def _long_tool() -> ToolItem:
    output = "".join(f"row {i:02d}\n" for i in range(60))
    return ToolItem("c", "read", {"path": "big.txt"}, status="ok", output=output)


async def test_a_reprint_clears_screen_and_scrollback_and_writes_every_item_as_it_now_looks() -> None:
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    items: list[Item] = [UserItem(f"prompt {i}") for i in range(HISTORY_ITEMS + 2)]
    items += [_long_tool(), _reply("Read it."), _reply("streaming", done=False)]
    feed.start(HISTORY_ITEMS + 2)
    feed.feed(items, PLAIN)
    assert "row 59" not in "".join(written)  # collapsed
    assert await feed.reprint(items, Look(60, Palette(), color_system=None, expand_tools=True))
    again = written[-1]
    assert again.startswith(CLEAR_ALL) and again.count(CLEAR_ALL) == 1
    plain = again.removeprefix(CLEAR_ALL)
    assert "2 earlier items" in plain and "prompt 1 " not in plain  # what was written, no more
    order = [
        plain.index(s) for s in ("prompt 2 ", f"prompt {HISTORY_ITEMS + 1} ", "row 00", "row 59", "Read it.")
    ]
    assert order == sorted(order)
    assert plain.count("Read it.") == 1 and "streaming" not in plain  # the live reply stays live
    feed.feed(items, PLAIN)
    assert written[-1] == again  # nothing written twice


async def test_a_reprint_gives_way_to_a_newer_one_and_to_a_new_session() -> None:
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    items: list[Item] = [_long_tool() for _ in range(400)]  # more than one slice to render
    feed.feed(items, PLAIN)
    written.clear()
    first = asyncio.ensure_future(
        feed.reprint(items, Look(60, Palette(), color_system=None, expand_tools=True))
    )
    await asyncio.sleep(0)
    assert await feed.reprint(items, PLAIN) and not await first
    assert len(written) == 1 and "row 59" not in written[0]  # the newer look, written once
    pending = asyncio.ensure_future(feed.reprint(items, PLAIN))
    await asyncio.sleep(0)
    feed.start(0, new_screen=True)  # /resume, /new...: the old items are not written again
    assert not await pending and len(written) == 1
