"""What inline mode writes to the scrollback: which items are settled, and how they read. Pure."""

from __future__ import annotations

from tau_agent.content import TextContent, ThinkingContent
from tau_agent.messages import AssistantMessage
from tau_coding.tui.items import AssistantItem, BashItem, ErrorItem, Item, NoticeItem, ToolItem, UserItem
from tau_coding.tui.shell.inline import HISTORY_ITEMS, ScrollbackFeed
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
        "▌ Which port?",
        " The port is 9090.",
        " Second line.",
        " ▌ ✓ read config.py",
        " ▌ PORT = 9090",
        " ▌ ! ls  (exit 2)",
        "  Cancelled.",
        " ▌ Error: boom",
        " ▌ Try again.",
    ):
        assert any(line.startswith(shown) for line in lines), (shown, text)
    assert lines[-1] == ""  # ends with a line break: the region is drawn below
    assert all(line == line.rstrip() or line.startswith("▌") for line in lines)  # no padding kept


def test_lines_fit_the_width_and_end_in_crlf_for_a_raw_mode_terminal() -> None:
    text = scrollback_text([_reply("word " * 100)], 40, Palette(), color_system=None)
    assert "\n" not in text.replace("\r\n", "")
    assert max(len(line) for line in text.split("\r\n")) <= 40


def test_thinking_is_written_only_while_shown() -> None:
    item = AssistantItem(AssistantMessage([ThinkingContent("secret plan"), TextContent("Done.")]), done=True)
    assert "secret plan" not in "\n".join(_plain([item]))
    assert "secret plan" in "\n".join(_plain([item], show_thinking=True))


def test_the_feed_writes_each_settled_item_once_and_all_of_them_on_exit() -> None:
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    items: list[Item] = [UserItem("first"), _reply("streaming", done=False)]
    options = {"width": 60, "palette": Palette(), "color_system": None, "show_thinking": False}
    feed.feed(items, expand_tools=False, **options)  # type: ignore[arg-type]
    feed.feed(items, expand_tools=False, **options)  # type: ignore[arg-type]
    assert len(written) == 1 and "first" in written[0] and feed.printed == 1
    feed.feed(items, expand_tools=False, everything=True, **options)  # type: ignore[arg-type]
    assert len(written) == 2 and "streaming" in written[1] and feed.printed == 2


def test_a_long_resumed_session_writes_its_newest_items_after_a_count_of_the_rest() -> None:
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    items: list[Item] = [UserItem(f"prompt {i}") for i in range(HISTORY_ITEMS + 5)]
    feed.start(len(items), new_screen=True)
    feed.feed(items, width=60, palette=Palette(), color_system=None, show_thinking=False, expand_tools=False)
    assert written[0].startswith("\x1b[2J\x1b[H")  # a replaced transcript starts a clean screen
    assert "5 earlier items" in written[0]
    assert "prompt 4 " not in written[0] and "prompt 5 " in written[0]
