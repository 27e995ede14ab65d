"""The app driven by Pilot against the real harness: typing, streaming, tools, queueing, keys."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.pilot import Pilot

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.testing import FakeProvider, call, reply, text, thinking
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.state import AssistantItem, BashItem, ErrorItem, NoticeItem, ToolItem, UserItem
from tau_coding.tui.widgets.assistant_view import AssistantView
from tau_coding.tui.widgets.completion_menu import CompletionMenu
from tau_coding.tui.widgets.queue_view import QueueView
from tau_coding.tui.widgets.tool_row import ToolRow
from tau_coding.tui.widgets.transcript import PAGE, WINDOW
from tau_coding.tui.widgets.user_view import UserView

from .helpers import GatedProvider, adapter, gated_tool, shell_tool

SIZE = (100, 32)


async def until(pilot: Pilot[object], condition: Callable[[], bool], timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not reached in time")


async def type_text(pilot: Pilot[object], value: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in value])


def markdown_sources(app: TauApp) -> list[str]:
    return [source for view in app.query(AssistantView) for source in view.sources()]


def make_app(port: object, **kwargs: object) -> TauApp:
    return TauApp(port, home="/home/user", list_files=None, **kwargs)  # type: ignore[arg-type]


async def test_typing_and_enter_sends_a_prompt_and_shows_the_answer() -> None:
    app = make_app(adapter(FakeProvider([reply(text("Hello **you**", chunk_size=2))])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "hi there")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and "Hello **you**" in markdown_sources(app))
        assert [str(v.render()) for v in app.query(UserView)] == ["hi there"]
        assert app.editor.text == ""


async def test_streaming_text_appears_before_the_reply_ends() -> None:
    provider = GatedProvider([reply(text("one two three four", chunk_size=4))], pause_after=2)
    app = make_app(adapter(provider))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "go")
        await pilot.press("enter")
        await until(pilot, provider.paused.is_set)
        await until(pilot, lambda: markdown_sources(app) == ["one two "])
        assert app.state.status == "running"
        provider.gate.set()
        await until(pilot, lambda: markdown_sources(app) == ["one two three four"])
        await until(pilot, lambda: app.state.status == "idle")


async def test_tool_row_shows_running_then_ok_with_output() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    port = adapter(
        FakeProvider([reply(call("wait", {})), reply("finished")]), tools=[gated_tool(gate, started)]
    )
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "wait")
        await pilot.press("enter")
        await until(pilot, lambda: any(r.has_class("-running") for r in app.query(ToolRow)))
        row = app.query_one(ToolRow)
        await until(pilot, lambda: "waiting" in str(row.query_one(".tool-body").render()))
        gate.set()
        await until(pilot, lambda: row.has_class("-ok") and app.state.status == "idle")
        assert "released" in str(row.query_one(".tool-body").render())
        assert "✓ wait" in str(row.query_one(".tool-header").render())


async def test_bash_tool_output_streams_into_its_row(tmp_path: Path) -> None:
    go = tmp_path / "go"
    script = f"echo first; while [ ! -e {go} ]; do sleep 0.02; done; echo second"
    port = adapter(
        FakeProvider([reply(call("bash", {"command": script})), reply("ok")]), tools=[shell_tool()]
    )
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "run")
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.query(ToolRow)))
        row = app.query_one(ToolRow)
        body = row.query_one(".tool-body")
        await until(pilot, lambda: "first" in str(body.render()) and row.has_class("-running"))
        assert "second" not in str(body.render())
        go.write_text("")
        await until(pilot, lambda: "second" in str(body.render()) and row.has_class("-ok"))


async def test_enter_while_running_steers_and_the_queue_is_visible_until_delivered() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    provider = FakeProvider([reply(call("wait", {})), reply("steered reply")])
    app = make_app(adapter(provider, tools=[gated_tool(gate, started)]))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "start")
        await pilot.press("enter")
        await until(pilot, started.is_set)
        await type_text(pilot, "use tabs")
        await pilot.press("enter")
        queue = app.query_one(QueueView)
        await until(pilot, lambda: queue.display and "steer: use tabs" in str(queue.render()))
        gate.set()
        await until(pilot, lambda: app.state.status == "idle" and not queue.display)
        assert [i.text for i in app.state.items if isinstance(i, UserItem)] == ["start", "use tabs"]
        last_context = provider.contexts[-1].messages
        assert isinstance(last_context[-1], UserMessage) and last_context[-1].content == "use tabs"


async def test_alt_enter_queues_a_follow_up_and_alt_up_pulls_it_back() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    app = make_app(
        adapter(FakeProvider([reply(call("wait", {})), reply("x")]), tools=[gated_tool(gate, started)])
    )
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "start")
        await pilot.press("enter")
        await until(pilot, started.is_set)
        await type_text(pilot, "later")
        await pilot.press("alt+enter")
        await until(pilot, lambda: "follow-up: later" in str(app.query_one(QueueView).render()))
        await pilot.press("alt+up")
        await until(pilot, lambda: app.editor.text == "later")
        # The queue view hides at its next refresh, which may come after the editor's.
        await until(pilot, lambda: app.state.queue == [] and not app.query_one(QueueView).display)
        gate.set()
        await until(pilot, lambda: app.state.status == "idle")
        assert [i.text for i in app.state.items if isinstance(i, UserItem)] == ["start"]


async def test_escape_cancels_the_run_and_returns_queued_text_to_the_editor() -> None:
    provider = GatedProvider([reply(text("never finished", chunk_size=3))], pause_after=1)
    app = make_app(adapter(provider))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "go")
        await pilot.press("enter")
        await until(pilot, provider.paused.is_set)
        await type_text(pilot, "queued")
        await pilot.press("enter")
        await pilot.press("escape")
        await until(pilot, lambda: app.state.status == "idle")
        assert app.editor.text == "queued"
        assert any(isinstance(i, NoticeItem) and "Cancelled" in i.text for i in app.state.items)
        reply_item = next(i for i in app.state.items if isinstance(i, AssistantItem))
        assert reply_item.message.stop_reason == "aborted"


async def test_ctrl_c_clears_then_twice_quits_with_the_resume_line() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "draft")
        await pilot.press("ctrl+c")
        assert app.editor.text == "" and app.is_running
        await pilot.press("ctrl+c")
        assert app.is_running
        await pilot.press("ctrl+c")
        await until(pilot, lambda: not app.is_running)
    assert app.return_value is None  # the harness adapter has nothing to resume


async def test_ctrl_d_deletes_forward_in_text_and_quits_on_an_empty_editor() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "ab")
        await pilot.press("left", "ctrl+d")
        assert app.editor.text == "a" and app.is_running
        await pilot.press("backspace", "ctrl+d")
        await until(pilot, lambda: not app.is_running)


async def test_up_and_down_walk_history_seeded_from_the_session() -> None:
    history = [UserMessage("first question"), AssistantMessage([TextContent("a")]), UserMessage("second")]
    app = make_app(adapter(FakeProvider(["ok"]), messages=history))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "draft")
        await pilot.press("up")
        assert app.editor.text == "second"
        await pilot.press("up")
        assert app.editor.text == "first question"
        await pilot.press("down", "down")
        assert app.editor.text == "draft"


async def test_slash_shows_commands_with_descriptions_and_enter_completes() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "/mo")
        menu = app.query_one(CompletionMenu)
        await until(pilot, lambda: menu.is_open)
        first = menu.candidates[0]
        assert first.label == "/model" and "Pick the model" in first.description
        await pilot.press("enter")
        assert app.editor.text == "/model "


async def test_unknown_slash_command_goes_to_the_model_as_text() -> None:
    provider = FakeProvider(["fine"])
    app = make_app(adapter(provider))
    async with app.run_test(size=SIZE) as pilot:
        app.editor.load_text("/frobnicate now")
        await pilot.press("end", "escape", "enter")
        await until(pilot, lambda: app.state.status == "idle" and provider.calls == 1)
        assert [i.text for i in app.state.items if isinstance(i, UserItem)] == ["/frobnicate now"]


async def test_large_paste_shows_a_marker_and_sends_the_full_text() -> None:
    provider = FakeProvider(["got it"])
    app = make_app(adapter(provider))
    pasted = "\n".join(f"log line {i}" for i in range(40))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "explain ")
        app.editor.post_message(events.Paste(pasted))
        await until(pilot, lambda: app.editor.text == "explain [paste #1 +40 lines]")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and provider.calls == 1)
        sent = provider.contexts[0].messages[-1]
        assert isinstance(sent, UserMessage) and sent.content == f"explain {pasted}"


async def test_bang_command_runs_in_the_session_directory(tmp_path: Path) -> None:
    (tmp_path / "marker.txt").write_text("")
    port = adapter(FakeProvider([]), cwd=tmp_path)
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "!ls")
        await pilot.press("enter")
        await until(pilot, lambda: any(isinstance(i, BashItem) for i in app.state.items))
        item = next(i for i in app.state.items if isinstance(i, BashItem))
        assert item.output == "marker.txt\n" and item.exit_code == 0 and not item.excluded
        assert port.messages[-1].role == "bashExecution"


async def test_name_model_and_thinking_commands_update_the_footer() -> None:
    fake = FakeProvider([], provider="fake", model="m1")
    other = FakeProvider([], provider="fake", model="m2")
    port = adapter(fake, providers={"fake/m1": fake, "fake/m2": other})
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        for line in ("/name my work", "/thinking high"):
            app.editor.load_text(line)
            await pilot.press("end", "escape", "enter")
        await pilot.press("ctrl+l")
        await until(pilot, lambda: app.screen.__class__.__name__ == "ModelPicker")
        await type_text(pilot, "m2")
        await pilot.press("enter")
        await until(pilot, lambda: port.info().model_label == "fake/m2")
        footer = str(app.query_one("#footer").render())
        assert "my work" in footer and "fake/m2 • high" in footer


async def test_alt_t_cycles_thinking_and_ctrl_t_reveals_thinking() -> None:
    port = adapter(FakeProvider([reply(thinking("secret plan"), "answer")]))
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+t")
        assert port.info().thinking_level == "minimal"
        await type_text(pilot, "q")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and bool(app.query(".thinking-body")))
        body = app.query_one(".thinking-body")
        assert not body.display or body.styles.display == "none"
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert app.query_one(".thinking-body").styles.display == "block"


async def test_hotkeys_panel_opens_and_closes() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        app.editor.load_text("/hotkeys")
        await pilot.press("end", "escape", "enter")
        await until(pilot, lambda: app.screen.__class__.__name__ == "TextPanel")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen.__class__.__name__ != "TextPanel")


async def test_provider_error_shows_an_error_block_with_advice() -> None:
    from tau_agent.testing import fail

    app = make_app(adapter(FakeProvider([fail("HTTP 401: invalid api key")])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "hi")
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.query(".error")))
        shown = str(app.query_one(".error").render())
        assert "invalid api key" in shown and "retry" in shown
        assert any(isinstance(i, ErrorItem) for i in app.state.items)


async def test_a_long_session_mounts_only_its_newest_items() -> None:
    history = [
        UserMessage(f"question {i}") if i % 2 == 0 else AssistantMessage([TextContent(f"answer {i}")])
        for i in range(10_000)
    ]
    app = make_app(adapter(FakeProvider([]), messages=history))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        transcript = app.transcript
        assert len(app.state.items) == 10_000 and transcript.mounted_count == WINDOW
        assert await transcript.load_earlier() == PAGE and transcript.mounted_count == WINDOW + PAGE


async def test_ctrl_o_expands_every_tool_row() -> None:
    script = "; ".join(f"echo line{i}" for i in range(20))
    port = adapter(
        FakeProvider([reply(call("bash", {"command": script})), reply("ok")]), tools=[shell_tool()]
    )
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "go")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and bool(app.query(ToolRow)))
        body = app.query_one(ToolRow).query_one(".tool-body")
        await until(pilot, lambda: "more lines" in str(body.render()))  # (painted a frame later)
        assert "line19" not in str(body.render())
        await pilot.press("ctrl+o")
        assert "line19" in str(body.render())
        item = app.query_one(ToolRow).item
        assert isinstance(item, ToolItem) and item.status == "ok"


async def test_a_long_streamed_reply_shows_all_its_text_rendered_once_as_a_whole() -> None:
    from textual.visual import Visual, visualize

    from tau_coding.tui.markdown_render import answer_markdown
    from tau_coding.tui.widgets.markdown_stream import MarkdownStream

    fence = "```python\n" + "x = 1\n\n" * 500 + "```\n\n"
    prose = "".join(f"Paragraph {i} " + "word " * 40 + "\n\n" for i in range(60))
    reply_text = prose + fence + prose
    app = make_app(adapter(FakeProvider([reply(text(reply_text, chunk_size=200))])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "go")
        await pilot.press("enter")
        await until(
            pilot, lambda: app.state.status == "idle" and "".join(markdown_sources(app)) == reply_text
        )
        stream = app.query_one(MarkdownStream)
        width = stream.size.width
        whole = Visual.to_strips(
            stream, visualize(stream, answer_markdown(reply_text)), width, None, stream.visual_style
        )
        assert stream.lines(width) == whole


async def test_at_completes_project_files_respecting_gitignore(tmp_path: Path) -> None:
    import subprocess

    from tau_coding.tui.files import project_files

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("secret/\n")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "keys.py").write_text("")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "keyboard.py").write_text("")
    app = TauApp(adapter(FakeProvider([]), cwd=tmp_path), home="/home/user", list_files=project_files)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "look at @key")
        menu = app.query_one(CompletionMenu)
        await until(pilot, lambda: menu.is_open)
        assert [c.label for c in menu.candidates] == ["@src/keyboard.py"]
        await pilot.press("tab")
        assert app.editor.text == "look at @src/keyboard.py "


async def test_tab_completes_a_path_in_the_session_directory(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("")
    app = make_app(adapter(FakeProvider([]), cwd=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "read sr")
        await pilot.press("tab")
        assert app.editor.text == "read src/"
        await type_text(pilot, "m")
        await pilot.press("tab")
        assert app.editor.text == "read src/main.py"


async def test_copy_puts_the_last_answer_on_the_clipboard() -> None:
    app = make_app(adapter(FakeProvider(["the answer"])))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "q")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and "the answer" in markdown_sources(app))
        app.editor.load_text("/copy")
        await pilot.press("end", "escape", "enter")
        await until(pilot, lambda: app.clipboard == "the answer")


async def test_new_clears_the_transcript_and_session_shows_info() -> None:
    port = adapter(FakeProvider(["first answer"]))
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "q")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and bool(app.query(AssistantView)))
        app.editor.load_text("/new")
        await pilot.press("end", "escape", "enter")
        await until(pilot, lambda: not app.query(AssistantView))
        assert list(port.messages) == []
        assert [type(i).__name__ for i in app.state.items] == ["NoticeItem"]
        app.editor.load_text("/session")
        await pilot.press("end", "escape", "enter")
        await until(pilot, lambda: app.screen.__class__.__name__ == "TextPanel")


async def test_quitting_returns_the_sessions_resume_line() -> None:
    from tests.coding.tui.harness_port import HarnessSessionAdapter

    class Saved(HarnessSessionAdapter):
        def resume_hint(self) -> str | None:
            return "Resume this session with: tau --session 0b1c"

    port = adapter(FakeProvider([]))
    app = make_app(Saved(port.harness, cwd="/work/project"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+d")
        await until(pilot, lambda: not app.is_running)
    assert app.return_value == "Resume this session with: tau --session 0b1c"


async def test_theme_command_switches_between_dark_and_light() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "tau-dark"
        app.editor.load_text("/theme light")
        await pilot.press("end", "escape", "enter")
        await until(pilot, lambda: app.theme == "tau-light")


async def test_an_initial_prompt_is_sent_on_start() -> None:
    provider = FakeProvider(["hello back"])
    app = TauApp(adapter(provider), home="/home/user", list_files=None, initial_prompt="hello")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.state.status == "idle" and "hello back" in markdown_sources(app))
        await pilot.press("up")
        assert app.editor.text == "hello"


async def test_an_extensions_shortcut_is_bound_and_its_answer_shown() -> None:
    from tau_coding.tui.port import CommandResult
    from tests.coding.tui.harness_port import HarnessSessionAdapter

    pressed: list[str] = []

    class WithShortcut(HarnessSessionAdapter):
        def shortcuts(self) -> list[tuple[str, str]]:
            return [("ctrl+k", "count tokens")]

        async def run_shortcut(self, key: str) -> CommandResult | None:
            pressed.append(key)
            return CommandResult("1,234 tokens")

    base = adapter(FakeProvider([]))
    app = make_app(WithShortcut(base.harness, cwd=Path.cwd()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+k")
        await until(
            pilot,
            lambda: any(isinstance(i, NoticeItem) and "1,234 tokens" in i.text for i in app.state.items),
        )
    assert pressed == ["ctrl+k"]
