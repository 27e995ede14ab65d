"""Pilot tests of the session commands and keys over a real CodingSession (FakeProvider replies)."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot
from textual.theme import Theme
from textual.widgets import Input, OptionList, Static

from tau_agent.testing import FakeProvider
from tau_coding.tui.screens.fork_picker import ForkPicker
from tau_coding.tui.screens.scoped_models import ScopedModels
from tau_coding.tui.screens.session_picker import SessionPicker
from tau_coding.tui.screens.settings_editor import SettingsEditor
from tau_coding.tui.screens.text_panel import TextPanel
from tau_coding.tui.screens.text_prompt import TextPrompt
from tau_coding.tui.screens.tree_view import TreeScreen
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.state import ErrorItem, NoticeItem, UserItem
from tau_coding.tui.theme.user_themes import load_user_themes
from tau_coding.tui.widgets.row_list import RowList

from .helpers import adapter
from .session_helpers import Rig, drain, write_long_session
from .test_app import SIZE, type_text, until


def make_app(port: object, **kwargs: object) -> TauApp:
    return TauApp(port, home="/home/user", list_files=None, **kwargs)  # type: ignore[arg-type]


async def command(pilot: Pilot[object], app: TauApp, text: str) -> None:
    app.editor.load_text(text)
    await pilot.press("end", "escape", "enter")


def notices(app: TauApp) -> list[str]:
    return [i.text for i in app.state.items if isinstance(i, NoticeItem)]


def errors(app: TauApp) -> list[str]:
    return [i.message for i in app.state.items if isinstance(i, ErrorItem)]


def users(app: TauApp) -> list[str]:
    return [i.text for i in app.state.items if isinstance(i, UserItem)]


def option_texts(screen: object) -> list[str]:
    """Every row's text, as the screen's list draws it (its OptionList or RowList)."""
    assert isinstance(screen, SessionPicker | TreeScreen | ForkPicker)
    if isinstance(screen, TreeScreen):
        rows = screen.query_one(RowList)
        return [rows.prompt(i).plain for i in range(rows.row_count)]
    options = screen.query_one(OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_resume_picker_switches_to_the_chosen_session(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["current answer"])
    await drain(rig.port, "current work")
    rig.other_session("older question", "older answer", name="older work")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/resume")
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        rows = option_texts(app.screen)
        assert len(rows) == 2 and any(r.endswith("(current)") for r in rows)
        await type_text(pilot, "older")
        await until(pilot, lambda: len(option_texts(app.screen)) == 1)
        await pilot.press("enter")
        await until(pilot, lambda: users(app) == ["older question"])
        assert rig.port.info().session_name == "older work"
        assert app.title == "tau — older work"


async def test_resume_picker_tab_shows_every_projects_sessions(tmp_path: Path) -> None:
    from tau_agent.content import TextContent
    from tau_agent.messages import AssistantMessage, UserMessage
    from tau_coding.session.store.manager import SessionManager

    rig = Rig(tmp_path)
    far = SessionManager(rig.manager.root, str(tmp_path / "far"))
    log = far.new()
    log.append_message(UserMessage("far away"))
    log.append_message(AssistantMessage([TextContent("far answer")]))
    log.set_name("far session")
    log.close()
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/resume")
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        picker = app.screen
        assert isinstance(picker, SessionPicker)
        assert option_texts(picker) == []
        await pilot.press("tab")
        await until(pilot, lambda: len(option_texts(picker)) == 1)
        assert "far session" in option_texts(picker)[0] and str(tmp_path / "far") in option_texts(picker)[0]
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SessionPicker))


async def test_resume_picker_renames_and_deletes_after_a_second_press(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    other = rig.other_session("doomed question", "answer")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/resume")
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        picker = app.screen
        await pilot.press("ctrl+r")
        rename = picker.query_one("#session-rename", Input)
        await until(pilot, lambda: rename.has_focus)
        rename.value = ""
        await type_text(pilot, "renamed")
        await pilot.press("enter")
        await until(pilot, lambda: option_texts(picker)[0].startswith("renamed"))
        await pilot.press("ctrl+d")
        assert other.exists()
        await pilot.press("ctrl+d")
        await until(pilot, lambda: not other.exists())
        assert option_texts(picker) == []


async def test_tau_resume_opens_the_picker_at_start(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.other_session("earlier", "reply")
    app = make_app(rig.port, start_with_resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        await pilot.press("enter")
        await until(pilot, lambda: users(app) == ["earlier"])


async def test_tau_resume_with_a_prompt_sends_it_to_the_session_picked(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["continued"])
    other = rig.other_session("earlier", "reply")
    app = make_app(rig.port, start_with_resume=True, initial_prompt="go on")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        assert list(rig.port.messages) == []  # nothing sent while the picker is open
        await pilot.press("enter")
        await until(pilot, lambda: users(app) == ["earlier", "go on"] and app.state.status == "idle")
        assert rig.port.info().session_file == str(other)


async def test_tree_screen_moves_to_a_prompt_and_hands_it_back_for_editing(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/tree")
        await until(pilot, lambda: isinstance(app.screen, TreeScreen))
        rows = option_texts(app.screen)
        assert rows == ["● user: first", "● assistant: one", "● user: second", "▶ assistant: two"]
        await pilot.press("up", "enter")
        await until(pilot, lambda: app.editor.text == "second")
        assert users(app) == ["first"]
        await pilot.press("enter")  # send the edited prompt: a new branch
        await until(pilot, lambda: app.state.status == "idle" and len(rig.port.tree()) == 6)
        assert [r.depth for r in rig.port.tree()] == [0, 0, 1, 1, 1, 1]


async def test_clicking_a_tree_row_moves_there(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/tree")
        await until(pilot, lambda: isinstance(app.screen, TreeScreen))
        await pilot.click(RowList, offset=(4, 3))  # the border's line, then rows 0, 1, 2
        await until(pilot, lambda: app.editor.text == "second")
        assert users(app) == ["first"]


async def test_tree_screen_labels_the_highlighted_entry_with_l(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/tree")
        await until(pilot, lambda: isinstance(app.screen, TreeScreen))
        tree = app.screen
        await pilot.press("l")
        await until(pilot, lambda: tree.query_one("#tree-label", Input).has_focus)
        await type_text(pilot, "good")
        await pilot.press("enter")
        await until(pilot, lambda: option_texts(tree)[-1].endswith("[good]"))
        assert rig.port.tree()[-1].label == "good"


def drawn_rows(screen: TreeScreen) -> list[str]:
    """The rows the tree's list draws right now, as plain text."""
    rows = screen.query_one(RowList)
    lines = (rows.render_line(y).text for y in range(rows.scrollable_content_region.height))
    return [line.strip() for line in lines if line.strip()]


async def test_tree_screen_with_thousands_of_entries_opens_at_the_leaf_and_navigates(
    tmp_path: Path,
) -> None:
    rig = Rig(tmp_path)
    write_long_session(rig, 2_500, branch_at=2_000)  # 5,000 entries; 2 rows sit below the leaf
    rows = rig.port.tree()
    assert len(rows) == 5_000 and rows[-3].is_leaf and rows[-1].text == "assistant: answer 2000"
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/tree")
        await until(pilot, lambda: isinstance(app.screen, TreeScreen))
        tree = app.screen
        assert isinstance(tree, TreeScreen)
        listing = tree.query_one(RowList)
        await until(pilot, lambda: bool(drawn_rows(tree)))
        assert listing.highlighted == 4_997 and tree.highlighted == rows[-3]
        assert "▶ assistant: answer 2499" in drawn_rows(tree)
        await pilot.press("end")
        await until(pilot, lambda: drawn_rows(tree)[-1] == "○ assistant: answer 2000")
        assert listing.highlighted == 4_999
        await pilot.press("home")
        await until(pilot, lambda: drawn_rows(tree)[0] == "● user: question 0")
        assert listing.highlighted == 0
        await pilot.press("up")  # wraps to the last row
        assert listing.highlighted == 4_999
        await pilot.press("down", "pagedown")
        page = listing.scrollable_content_region.height
        assert listing.highlighted == page and drawn_rows(tree)[-1] == f"● {rows[page].text}"
        await pilot.press("pageup", "down", "enter")  # row 1: the first answer
        await until(pilot, lambda: not isinstance(app.screen, TreeScreen))
        await until(pilot, lambda: rig.control.session.log.leaf_id == rows[1].entry_id)
        assert users(app) == ["question 0"]


async def test_tree_s_moves_with_a_branch_summary_or_says_why_not(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two", "the summary"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/tree")
        await until(pilot, lambda: isinstance(app.screen, TreeScreen))
        await pilot.press("up", "s")
        await until(pilot, lambda: bool(errors(app)) or app.editor.text == "second")
        assert app.state.status == "idle"
        if errors(app):  # without the feature the transcript stays, with the "working" notice on it
            assert "Summarising the branch left behind… (Esc cancels)" in notices(app)
            assert errors(app)[0].startswith(
                ("Branch summaries are not available", "Branch summary failed: ")
            )


async def test_escape_twice_on_an_empty_idle_editor_opens_the_tree(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "x")
        await pilot.press("escape", "escape")
        assert not isinstance(app.screen, TreeScreen)  # text in the editor: Esc does not open it
        app.editor.clear()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TreeScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TreeScreen))


async def test_fork_picks_an_earlier_message_into_a_new_session(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    before = rig.port.info().session_id
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/fork")
        await until(pilot, lambda: isinstance(app.screen, ForkPicker))
        assert option_texts(app.screen) == ["second", "first"]
        await pilot.press("enter")
        await until(pilot, lambda: app.editor.text == "second")
        assert users(app) == ["first"] and rig.port.info().session_id != before


async def test_new_starts_a_fresh_stored_session(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/new")
        await until(pilot, lambda: "New session started." in notices(app))
        assert users(app) == [] and list(rig.port.messages) == []


async def test_compact_reports_its_outcome(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "summary"])
    await drain(rig.port, "first")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/compact keep the plan")
        # one short exchange: compacted keeping all of it, as Pi does
        await until(pilot, lambda: bool(errors(app)) or any(n.startswith("Compacted") for n in notices(app)))
        assert errors(app) == []
        assert "Compacted 14 tokens. summary" in notices(app)


async def test_compact_on_a_bare_harness_says_it_needs_a_stored_session() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/compact")
        await until(pilot, lambda: errors(app) == ["Compaction needs a stored session."])


async def test_export_writes_html_and_says_where(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/export share.html")
        target = rig.project / "share.html"
        await until(pilot, lambda: f"Exported to {target}" in notices(app))
        assert "first" in target.read_text()


async def test_reload_rebuilds_the_session(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/reload")
        await until(pilot, lambda: "Reloaded settings, models and resources." in notices(app))
        assert rig.reloads == 1


async def test_reload_reads_the_users_themes_again(tmp_path: Path) -> None:
    themes = tmp_path / "user-themes"
    themes.mkdir()
    app = make_app(Rig(tmp_path).port, load_themes=lambda: load_user_themes(themes))
    async with app.run_test(size=SIZE) as pilot:
        assert "ocean" not in app.theme_names()
        (themes / "ocean.json").write_text(json.dumps({"name": "ocean", "colors": {"primary": "#0088ff"}}))
        (themes / "bad.json").write_text("{oops")
        await command(pilot, app, "/reload")
        await until(pilot, lambda: "Reloaded settings, models and resources." in notices(app))
        assert "ocean" in app.theme_names()
        assert any(n.startswith(f"{themes / 'bad.json'}: invalid JSON") for n in notices(app))


async def test_settings_panel_lists_effective_settings(tmp_path: Path) -> None:
    app = make_app(Rig(tmp_path).port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsEditor))
        rows = app.screen.query_one(OptionList)
        rows.highlighted = rows.option_count - 1  # "All effective settings…"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TextPanel))
        body = app.screen.query_one(".panel-body", Static)
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(body.content)
        lines = console.export_text().splitlines()
        assert any(line.split() == ["retry.enabled", "True"] for line in lines)
        assert any(line.split() == ["model", "fake/fake-model"] for line in lines)


async def test_login_asks_for_the_key_hidden_and_logout_removes_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/login openai")
        await until(pilot, lambda: isinstance(app.screen, TextPrompt))
        assert app.screen.query_one(Input).password
        await type_text(pilot, "sk-secret")
        await pilot.press("enter")
        await until(pilot, lambda: rig.auth_file.exists())
        assert json.loads(rig.auth_file.read_text()) == {"openai": {"type": "api_key", "key": "sk-secret"}}
        assert not any("sk-secret" in n for n in notices(app))
        await command(pilot, app, "/logout openai")
        await until(pilot, lambda: json.loads(rig.auth_file.read_text()) == {})
        await command(pilot, app, "/login")
        await until(pilot, lambda: any(n.startswith("Subscriptions: anthropic (") for n in notices(app)))


async def test_login_with_the_key_inline_keeps_it_out_of_the_prompt_history(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/session")
        await until(pilot, lambda: isinstance(app.screen, TextPanel))
        await pilot.press("escape")
        await command(pilot, app, "/login groq gsk-inline")
        await until(pilot, lambda: rig.auth_file.exists())
        assert json.loads(rig.auth_file.read_text())["groq"]["key"] == "gsk-inline"
        assert app.editor.prompt_history.entries == ["/session"]


async def test_scoped_models_choose_what_ctrl_p_cycles(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/scoped-models")
        await until(pilot, lambda: isinstance(app.screen, ScopedModels))
        await pilot.press("space", "down", "down", "space", "enter")  # fake-model and third-model
        await until(pilot, lambda: not isinstance(app.screen, ScopedModels))
        assert rig.port.scoped_models() == ["fake/fake-model", "other/third-model"]
        await pilot.press("ctrl+p")
        assert rig.port.info().model_label == "other/third-model"
        await pilot.press("ctrl+p")
        assert rig.port.info().model_label == "fake/fake-model"


async def test_ctrl_p_cycles_every_model_when_none_is_scoped() -> None:
    models = {"fake/a": FakeProvider([]), "fake/b": FakeProvider([])}
    port = adapter(FakeProvider([]), providers=models)
    app = make_app(port)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        assert port.info().model_label == "fake/a" and port.harness.provider is models["fake/a"]
        await pilot.press("ctrl+p")
        assert port.harness.provider is models["fake/b"]


def editor_script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-editor"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


async def test_ctrl_g_edits_the_prompt_in_visual(tmp_path: Path) -> None:
    script = editor_script(tmp_path, 'printf "edited by editor\\n" >> "$1"')
    app = make_app(adapter(FakeProvider([])), environ={"VISUAL": script, "EDITOR": "false"})
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "draft")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: app.editor.text == "draftedited by editor")


async def test_ctrl_g_failing_or_missing_editor_keeps_the_prompt(tmp_path: Path) -> None:
    script = editor_script(tmp_path, 'echo gone > "$1"; exit 3')
    app = make_app(adapter(FakeProvider([])), environ={"EDITOR": script})
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "keep")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: any("exited with status 3" in n for n in notices(app)))
        assert app.editor.text == "keep"
    app = make_app(adapter(FakeProvider([])), environ={})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+g")
        await until(pilot, lambda: any("$VISUAL or $EDITOR" in n for n in notices(app)))


async def test_themes_high_contrast_and_a_users_own() -> None:
    mine = Theme(name="tau-sunset", primary="#ff8800", background="#201010")
    app = make_app(adapter(FakeProvider([])), user_themes=[mine])
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/theme high-contrast")
        await until(pilot, lambda: app.theme == "tau-high-contrast")
        await command(pilot, app, "/theme sunset")
        await until(pilot, lambda: app.theme == "tau-sunset")
        await command(pilot, app, "/theme nope")
        await until(
            pilot,
            lambda: any(n.startswith("Themes: dark, light, high-contrast, sunset") for n in notices(app)),
        )


async def test_the_start_theme_is_in_place_before_the_css_is_first_parsed() -> None:
    app = make_app(adapter(FakeProvider([])), theme="light")
    assert app.theme == "tau-light" and app.has_class("-light-mode")  # before the app runs
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        light = app.get_theme("tau-light")
        assert light is not None and app.screen.styles.background.hex == light.background.upper()
        # Textual counts each invalidation of the app's CSS (a re-parse and re-style of every
        # widget): none at start, where setting the theme in on_mount made one.
        assert app._css_update_count == 0


async def test_an_unknown_theme_falls_back_to_dark_and_says_so() -> None:
    app = make_app(adapter(FakeProvider([])), theme="missing")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "tau-dark"
        assert "Unknown theme 'missing'; using dark." in notices(app)


async def test_keybindings_remap_an_action_and_startup_problems_are_shown() -> None:
    models = {"fake/a": FakeProvider([]), "fake/b": FakeProvider([])}
    port = adapter(FakeProvider([]), providers=models)
    app = make_app(port, keymap={"cycle_model": "ctrl+n"}, startup_notices=["keybindings.json: oops"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        assert port.info().model_label != "fake/a"
        await pilot.press("ctrl+n")
        assert port.harness.provider is models["fake/a"]
        assert "keybindings.json: oops" in notices(app)


async def test_hotkeys_lists_remapped_keys() -> None:
    app = make_app(adapter(FakeProvider([])), keymap={"external_editor": "ctrl+e,f2"})
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/hotkeys")
        await until(pilot, lambda: isinstance(app.screen, TextPanel))
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(app.screen.query_one(".panel-body", Static).content)
        lines = [" ".join(line.split()) for line in console.export_text().splitlines()]
        assert "From keybindings.json" in lines
        assert "ctrl+e, f2 edit the prompt in $VISUAL/$EDITOR (Ctrl+G)" in lines


async def test_terminal_title_names_the_directory_then_the_session() -> None:
    app = make_app(adapter(FakeProvider([]), cwd="/home/user/code/tau"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.title == "tau — ~/code/tau"
        await command(pilot, app, "/name my work")
        await until(pilot, lambda: app.title == "tau — my work")
