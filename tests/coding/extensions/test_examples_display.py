"""The examples that draw (header/footer, clock, to-do widget, tool rendering, title, model
status, a game screen) or reach elsewhere (ssh, notify-on-done, a lighter context), loaded
from examples/extensions/ in a real session."""

from __future__ import annotations

import asyncio
import re
import stat
import sys
from pathlib import Path

from rich.text import Text
from textual.app import App

from tau_agent.messages import BashExecutionMessage, ToolResultMessage
from tau_agent.testing.fake_provider import call, reply
from tau_ai.model import Model
from tau_coding.common.tool_renderers import rendered_call, rendered_result
from tau_coding.modes.interactive.tui_ui import TuiUI
from tau_coding.tui.items import ToolItem
from tau_coding.tui.screens.dialogs import TuiDialogs
from tau_coding.tui.widgets.tool_row import body, header_text
from tests.coding.extensions.helpers import fake, make_rig

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


async def test_custom_chrome_draws_a_header_and_footer_and_turns_them_off(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("a"), [EXAMPLES / "custom_chrome.py"])
    await rig.run("hi")
    assert rig.ui.header == [f"── {tmp_path.name} ──"]
    assert rig.ui.footer == ["fake/fake-model · turns 1"]
    await rig.run("/chrome off")
    assert rig.ui.header is None and rig.ui.footer is None


async def test_clock_status_shows_the_time_and_stops_with_the_session(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("a"), [EXAMPLES / "clock_status.py"])
    module = rig.host.extensions["clock_status"].module
    assert module is not None
    module.CLOCK = lambda: "12:34"
    await rig.run("hi")
    for _ in range(50):
        if "clock" in rig.ui.status:
            break
        await asyncio.sleep(0.01)
    assert rig.ui.status["clock"] == "🕒 12:34"
    tasks = [t for t in asyncio.all_tasks() if "tick" in repr(t.get_coro())]
    rig.session.close()
    await asyncio.sleep(0)
    assert tasks and all(t.cancelled() or t.done() for t in tasks)


async def test_todo_widget_keeps_the_list_below_the_editor_and_in_the_session(tmp_path: Path) -> None:
    provider = fake(
        reply(
            call("todo", {"action": "add", "text": "write docs"}, id="a"),
            call("todo", {"action": "add", "text": "ship"}, id="b"),
            call("todo", {"action": "done", "text": "1"}, id="c"),
        ),
        "ok",
    )
    rig = make_rig(tmp_path, provider, [EXAMPLES / "todo_widget.py"])
    await rig.run("plan")
    assert rig.ui.widgets["todo"] == ["[x] 1. write docs", "[ ] 2. ship"] and "todo" in rig.ui.below
    assert rig.result_text(2) == "1. done: write docs\n2. open: ship"
    again = make_rig(tmp_path, fake("b"), [EXAMPLES / "todo_widget.py"])
    again.session.use_log(rig.session.log)
    await again.run("hi")  # session_start on the resumed file restores the list
    assert again.ui.widgets["todo"] == ["[x] 1. write docs", "[ ] 2. ship"]


async def test_rendered_tool_draws_its_call_and_result_its_own_way(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("one two\nthree\n")
    rig = make_rig(
        tmp_path, fake(reply(call("file_stats", {"path": "notes.md"})), "ok"), [EXAMPLES / "rendered_tool.py"]
    )
    await rig.run("stats")
    result = rig.tool_results()[0]
    assert result.details == {"lines": 2, "words": 3, "bytes": 14}
    assert rendered_call("file_stats", {"path": "notes.md"}) == "📄 notes.md"
    drawn = rendered_result("file_stats", rig.result_text(), result.details, False, False)
    assert drawn == "2 lines · 3 words · 14 bytes\n█"
    item = ToolItem(
        "c", "file_stats", {"path": "notes.md"}, "ok", output=rig.result_text(), details=result.details
    )
    assert str(header_text(item, 0.0)) == "✓ file_stats 📄 notes.md"  # the TUI's row
    shown = body(item, expanded=False)
    assert isinstance(shown, Text) and shown.plain == drawn
    rig.host.unload_all()
    assert rendered_call("file_stats", {"path": "notes.md"}) is None  # unloaded: default look


async def test_ssh_remote_runs_the_tool_and_bang_commands_through_the_ssh_program(tmp_path: Path) -> None:
    fake_ssh = tmp_path / "fake-ssh"  # ssh's argument shape: options, host, then the command
    fake_ssh.write_text(
        f"#!{sys.executable}\nimport subprocess, sys\nargs = sys.argv[1:]\n"
        "host, command = args[2], args[3]\nprint('on', host)\n"
        "sys.exit(subprocess.call(['sh', '-c', command]))\n"
    )
    fake_ssh.chmod(fake_ssh.stat().st_mode | stat.S_IEXEC)
    provider = fake(reply(call("remote_bash", {"command": "echo remote; exit 3"})), "ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "ssh_remote.py"])
    assert rig.host.registry.parse_flags(["--ssh", "me@box", f"--ssh-program={fake_ssh}"]) == []
    await rig.run("go")
    result = rig.tool_results()[0]
    assert result.is_error and rig.result_text() == "on me@box\nremote\n\n(exit code 3)"
    message = await rig.session.run_bash("echo typed")
    assert isinstance(message, BashExecutionMessage)
    assert (message.output, message.exit_code) == ("on me@box\ntyped\n", 0)


async def test_notify_done_says_what_the_agent_answered(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("All  tests pass now. " * 5), [EXAMPLES / "notify_done.py"])
    await rig.run("fix")
    level, text = rig.ui.notices[-1]
    assert level == "info" and text.startswith("✓ done: All tests pass now. All") and text.endswith("…")


async def test_model_status_follows_model_and_thinking_choices(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("a", "b"), [EXAMPLES / "model_status.py"])
    await rig.run("hi")
    assert rig.ui.status["model"] == "fake-model · thinking off"
    rig.session.set_model(Model("other", "fake", "fake", "http://127.0.0.1", reasoning=True))
    rig.session.set_thinking_level("high")
    await rig.run("again")  # events are delivered before the run goes on
    assert rig.ui.status["model"] == "other · thinking high"


async def test_title_spinner_marks_a_run_in_the_title(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("a"), [EXAMPLES / "title_spinner.py"])
    titles: list[str | None] = []
    keep = rig.ui.set_title

    def record(title: str | None) -> None:
        titles.append(title)
        keep(title)

    rig.ui.set_title = record  # type: ignore[method-assign]  # what the frontend was told, in order
    await rig.run("hi")
    assert titles == [f"τ ⏳ {tmp_path.name}", None] and rig.ui.title is None


async def test_context_trim_cuts_old_tool_output_in_the_request_only(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text("".join(f"line {i}\n" for i in range(20)))
    replies = [reply(call("read", {"path": "long.txt"}, id=f"r{i}")) for i in range(5)]
    provider = fake(*replies, "done")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "context_trim.py"])
    await rig.run("read it five times")
    last = provider.contexts[-1].messages
    sent = [m for m in last if isinstance(m, ToolResultMessage)]
    texts = ["".join(getattr(b, "text", "") for b in m.content) for m in sent]
    assert [t.endswith("[… 15 older lines left out]") for t in texts] == [True, True, False, False, False]
    assert all("line 19" in "".join(getattr(b, "text", "") for b in m.content) for m in rig.tool_results())


async def test_guess_game_needs_the_tui_in_print_mode(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake(), [EXAMPLES / "guess_game.py"])
    events = await rig.run("/guess")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == [
        "the guessing game needs the TUI"
    ]


async def test_guess_game_plays_on_its_own_screen_in_the_tui(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake(), [EXAMPLES / "guess_game.py"])
    module = rig.host.extensions["guess_game"].module
    assert module is not None
    module.SECRET[:] = [6]
    app: App[object] = App()
    async with app.run_test() as pilot:
        rig.host.ui = TuiUI(TuiDialogs(app))
        command = rig.host.registry.commands["guess"]
        answer = asyncio.ensure_future(command.handler(""))
        for _ in range(100):
            if type(app.screen).__name__ == "GuessScreen":
                break
            await pilot.pause(0.01)
        await pilot.press("3")
        board = str(app.screen.query_one("#board").render())
        assert re.search(r"3\? higher! \(try 1\)", board)
        await pilot.press("9", "6")
        assert await answer == "guessed it in 3 tries"


async def test_word_count_editor_asks_for_its_editor_and_gives_it_back(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("a"), [EXAMPLES / "word_count_editor.py"])
    module = rig.host.extensions["word_count_editor"].module
    assert module is not None
    await rig.run("hi")  # session_start: print mode keeps the factory without a TUI to use it
    assert rig.ui.editor_component is module.make
    assert rig.ui.get_editor_component() is module.make
    events = await rig.run("/wordcount off")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == [
        "word count editor off"
    ]
    assert rig.ui.get_editor_component() is None
    # in the TUI the editor is swapped: tests/coding/tui/test_extension_chrome.py
