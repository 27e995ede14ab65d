"""What extensions draw in the TUI besides dialogs: header, footer, widgets below, title, editor text, screens."""

from __future__ import annotations

import asyncio

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tau_agent.testing import FakeProvider, call, reply, thinking
from tau_coding.extensions.autocomplete import Suggestion, Suggestions
from tau_coding.modes.interactive.tui_ui import TuiUI
from tau_coding.tui.screens.dialogs import TuiDialogs
from tau_coding.tui.widgets.extension_panel import ChromeLines, ExtensionPanel
from tau_coding.tui.widgets.status_footer import StatusFooter
from tau_coding.tui.widgets.tool_row import ToolRow

from .helpers import adapter, gated_tool
from .test_app import SIZE, make_app, type_text, until


class Guess(Screen[int]):
    """A tiny custom screen: press a digit, it is the answer."""

    def compose(self) -> ComposeResult:
        yield Static("Guess a digit", id="guess")

    def on_key(self, event: events.Key) -> None:
        if event.key.isdigit():
            self.dismiss(int(event.key))


def _text(widget: Static) -> str:
    return str(widget.render())


async def test_header_footer_and_a_widget_below_the_editor_are_drawn_and_removed() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        header = app.query_one("#extension-header", ChromeLines)
        own_footer = app.query_one("#extension-footer", ChromeLines)
        below = app.query_one("#extension-below", ExtensionPanel)
        assert not header.display and not own_footer.display and not below.display
        ui.set_header(["my agent"])
        ui.set_footer(["custom footer · 12:00"])
        ui.set_widget("todo", ["[ ] write tests"], "below")
        await pilot.pause()
        assert header.display and "my agent" in _text(header)
        assert own_footer.display and not app.query_one(StatusFooter).display
        assert below.display and "write tests" in _text(below)
        assert not app.query_one("#extension-panel", ExtensionPanel).display  # nothing above
        ui.set_footer(None)
        ui.set_header(None)
        ui.set_widget("todo", None)
        await pilot.pause()
        assert not header.display and not own_footer.display and not below.display
        assert app.query_one(StatusFooter).display


async def test_title_and_editor_text_go_through_the_app() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        ui.set_title("τ working")
        assert app.title == "τ working"
        await type_text(pilot, "draft")
        assert ui.get_editor_text() == "draft"
        ui.set_editor_text("replaced by extension")
        assert app.editor.text == "replaced by extension"
        ui.set_title(None)
        assert app.title != "τ working"


async def test_a_custom_screen_is_shown_until_dismissed_and_its_value_returned() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        answer = asyncio.ensure_future(ui.custom(Guess))
        await until(pilot, lambda: isinstance(app.screen, Guess))
        await pilot.press("7")
        assert await answer == 7
        assert not isinstance(app.screen, Guess)


async def test_an_extensions_editor_replaces_tau_s_and_keeps_the_text() -> None:
    import importlib.util
    from pathlib import Path

    from tau_coding.tui.widgets.prompt_editor import PromptEditor

    path = Path(__file__).resolve().parents[3] / "examples" / "extensions" / "word_count_editor.py"
    spec = importlib.util.spec_from_file_location("word_count_editor", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    app = make_app(adapter(FakeProvider(["ok"])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        await type_text(pilot, "hello")
        assert ui.get_editor_component() is None  # Tau's own
        await ui.set_editor_component(example.make)
        assert ui.get_editor_component() is example.make
        assert type(app.editor).__name__ == "WordCountEditor" and app.editor.text == "hello"
        await pilot.pause()
        assert len(app.query(PromptEditor)) == 1 and app.editor.has_focus
        await type_text(pilot, " there")
        await pilot.pause()
        assert app.editor.border_subtitle == "2 words", app.editor.text
        await pilot.press("enter")  # still sends
        await until(pilot, lambda: app.state.status == "idle" and app.editor.text == "")
        await ui.set_editor_component(None)
        assert type(app.editor) is PromptEditor and ui.get_editor_component() is None


async def test_what_an_extension_drew_before_the_app_ran_is_shown_when_it_starts() -> None:
    from tau_coding.extensions.ui import HeadlessUI, LateBoundUI

    late = LateBoundUI(HeadlessUI(lambda line: None))  # what a resumed session's extensions see first
    late.set_widget("todo", ["[~] survey"], "below")
    late.set_header(["my agent"])
    late.set_footer(["own footer"])
    late.add_autocomplete_provider(_issues)
    app = make_app(adapter(FakeProvider([])))
    late.bind(TuiUI(TuiDialogs(app), app))  # before app.run(): nothing may touch a widget yet
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "survey" in _text(app.query_one("#extension-below", ExtensionPanel))
        assert "my agent" in _text(app.query_one("#extension-header", ChromeLines))
        assert app.query_one("#extension-footer", ChromeLines).display
        assert not app.query_one(StatusFooter).display
        await type_text(pilot, "#27")
        await pilot.pause()
        assert app.editor.menu is not None and [c.label for c in app.editor.menu.candidates] == [
            "#2753 stale"
        ]


async def test_an_extensions_shutdown_waits_for_the_run_then_quits() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    app = make_app(
        adapter(FakeProvider([reply(call("wait", {})), reply("done")]), tools=[gated_tool(gate, started)])
    )
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "wait")
        await pilot.press("enter")
        await until(pilot, lambda: started.is_set())
        app.shutdown_when_idle()  # what tau.shutdown() calls in the TUI
        await pilot.pause(0.1)
        assert app.is_running and app.state.status != "idle"  # the run is not cut short
        gate.set()
        await until(pilot, lambda: not app.is_running)
    assert app.port.messages[-1].content[0].text == "done"  # type: ignore[union-attr]


async def test_tools_expanded_is_ctrl_o_and_the_working_status_may_be_hidden_or_marked() -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    app = make_app(
        adapter(FakeProvider([reply(call("wait", {})), reply("done")]), tools=[gated_tool(gate, started)])
    )
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        footer = app.query_one(StatusFooter)
        assert ui.get_tools_expanded() is False
        await type_text(pilot, "wait")
        await pilot.press("enter")
        await until(pilot, lambda: started.is_set() and bool(app.query(ToolRow)))
        await until(pilot, lambda: "working…" in _text(footer))
        ui.set_working_visible(False)
        assert "working…" not in _text(footer)
        ui.set_working_visible(True)
        ui.set_working_indicator(["●", "○"])
        assert "● working…" in _text(footer)
        ui.set_working_indicator([])
        assert "working…" in _text(footer) and "●" not in _text(footer)
        ui.set_tools_expanded(True)
        row = app.query_one(ToolRow)
        assert ui.get_tools_expanded() and row.expanded
        await pilot.press("ctrl+o")  # the key and the call are one state
        await until(pilot, lambda: not ui.get_tools_expanded() and not row.expanded)
        gate.set()
        await until(pilot, lambda: app.state.status == "idle")


async def test_themes_are_listed_and_read_without_switching() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE):
        ui = TuiUI(TuiDialogs(app), app)
        names = ui.get_all_themes()
        assert "dark" in names and "light" in names
        before = app.theme
        light = ui.get_theme("light")
        assert light is not None and light.name == "tau-light" and light.dark is False
        assert app.theme == before  # not switched
        assert ui.get_theme("nope") is None


async def test_hidden_thinking_says_the_extensions_label_on_shown_and_new_replies() -> None:
    replies = [reply(thinking("secret plan"), "answer"), reply(thinking("more"), "again")]
    app = make_app(adapter(FakeProvider(replies)))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)

        def hints() -> list[str]:
            return [_text(h) for h in app.query(".thinking-hint").results(Static)]

        await type_text(pilot, "q")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and len(hints()) == 1)
        assert hints() == ["Thinking… (Ctrl+T to show)"]
        ui.set_hidden_thinking_label("pondering…")
        assert hints() == ["pondering…"]
        await type_text(pilot, "r")
        await pilot.press("enter")
        await until(pilot, lambda: app.state.status == "idle" and len(hints()) == 2)
        assert hints() == ["pondering…", "pondering…"]
        ui.set_hidden_thinking_label(None)
        assert hints() == ["Thinking… (Ctrl+T to show)"] * 2


def _issues(line: str, column: int) -> Suggestions | None:
    """An extension's ``#123`` completion; anything else is left to Tau."""
    word = line[:column].rpartition(" ")[2]
    if not word.startswith("#"):
        return None
    found = [Suggestion("#2983", description="autocomplete API"), Suggestion("#2753", "#2753 stale")]
    return Suggestions(word, [s for s in found if s.value.startswith(word)])


async def test_an_extensions_autocomplete_provider_offers_its_words_and_leaves_the_rest() -> None:
    from tau_coding.tui.widgets.completion_menu import CompletionMenu

    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        ui.add_autocomplete_provider(_issues)
        menu = app.query_one(CompletionMenu)
        await type_text(pilot, "fix #29")
        await until(pilot, lambda: menu.is_open)
        assert [(c.label, c.description) for c in menu.candidates] == [("#2983", "autocomplete API")]
        await pilot.press("tab")
        assert app.editor.text == "fix #2983"
        app.editor.load_text("")
        await type_text(pilot, "/mod")  # not the provider's: Tau's own commands still complete
        await until(pilot, lambda: menu.is_open)
        assert "/model" in [c.label for c in menu.candidates]


async def test_a_failing_autocomplete_provider_is_reported_once_and_typing_goes_on() -> None:
    calls: list[str] = []

    def broken(line: str, column: int) -> Suggestions | None:
        calls.append(line)
        raise ValueError("no index")

    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        ui.add_autocomplete_provider(broken)
        await type_text(pilot, "abc")
        await pilot.pause()
        assert app.editor.text == "abc" and calls == ["a"]
        assert [n.message for n in app._notifications if "no index" in n.message]


async def test_terminal_input_reaches_an_extension_first_which_may_consume_it() -> None:
    seen: list[str] = []

    def no_x(key: str) -> bool:
        seen.append(key)
        return key == "x"

    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        ui = TuiUI(TuiDialogs(app), app)
        unsubscribe = ui.on_terminal_input(no_x)
        await type_text(pilot, "axb")
        await pilot.press("ctrl+u")
        await type_text(pilot, "xy")
        await pilot.pause()
        assert seen == ["a", "x", "b", "ctrl+u", "x", "y"]
        assert app.editor.text == "y"  # the x's never arrived; Ctrl+U (not consumed) cleared "ab"
        unsubscribe()
        await type_text(pilot, "x")
        await pilot.pause()
        assert app.editor.text == "yx" and seen[-1] == "y"


async def test_a_handler_set_before_the_app_ran_is_moved_to_it_and_can_still_unsubscribe() -> None:
    from tau_coding.extensions.ui import HeadlessUI, LateBoundUI

    late = LateBoundUI(HeadlessUI(lambda line: None))
    unsubscribe = late.on_terminal_input(lambda key: key == "q")
    app = make_app(adapter(FakeProvider([])))
    late.bind(TuiUI(TuiDialogs(app), app))
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "aq")
        await pilot.pause()
        assert app.editor.text == "a"
        unsubscribe()
        await type_text(pilot, "q")
        await pilot.pause()
        assert app.editor.text == "aq"
