"""Extensions' questions become the TUI's own dialogs, and the person's answer comes back."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.widgets import OptionList, Static

from tau_coding.modes.interactive.tui_ui import TuiUI
from tau_coding.tui.screens.choice_picker import ChoicePicker
from tau_coding.tui.screens.confirm_dialog import ConfirmDialog
from tau_coding.tui.screens.dialogs import TuiDialogs
from tau_coding.tui.screens.text_prompt import TextPrompt


async def _until(pilot: object, app: App[object], kind: type) -> None:
    for _ in range(50):
        if isinstance(app.screen, kind):
            return
        await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError(f"{kind.__name__} never opened")


async def test_confirm_yes_and_no() -> None:
    app: App[object] = App()
    async with app.run_test() as pilot:
        ui = TuiUI(TuiDialogs(app))
        for key, expected in (("y", True), ("n", False), ("escape", False)):
            answer = asyncio.ensure_future(ui.confirm("Dangerous command", "Allow: rm -rf build"))
            await _until(pilot, app, ConfirmDialog)
            await pilot.press(key)
            assert await answer is expected


async def test_select_returns_the_chosen_option_or_the_default() -> None:
    app: App[object] = App()
    async with app.run_test() as pilot:
        ui = TuiUI(TuiDialogs(app))
        answer = asyncio.ensure_future(ui.select("Deploy to", ["staging", "production"]))
        await _until(pilot, app, ChoicePicker)
        await pilot.press("down", "enter")
        assert await answer == "production"
        answer = asyncio.ensure_future(ui.select("Deploy to", ["staging"], default="staging"))
        await _until(pilot, app, ChoicePicker)
        await pilot.press("escape")
        assert await answer == "staging"


async def test_input_returns_what_was_typed() -> None:
    app: App[object] = App()
    async with app.run_test() as pilot:
        ui = TuiUI(TuiDialogs(app))
        answer = asyncio.ensure_future(ui.input("Ticket number"))
        await _until(pilot, app, TextPrompt)
        await pilot.press("4", "2", "enter")
        assert await answer == "42"


async def test_dialogs_show_brackets_as_written_not_as_markup() -> None:
    # A command or path with [abc], [b]…[/b] or a bare [/] must reach the person as it will run:
    # read as markup, "ls [abc]*" showed as "ls *", and "[/]" crashed the dialog.
    command = 'grep -E "[a-z]+" f; ls [abc]* [b]x[/b] [/]'
    app: App[object] = App()
    async with app.run_test() as pilot:
        ui = TuiUI(TuiDialogs(app))
        answer = asyncio.ensure_future(
            ui.select(f"Allow bash: {command}?", ["Yes, once", f"Bash({command})"])
        )
        await _until(pilot, app, ChoicePicker)
        shown = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert f"Allow bash: {command}?" in shown
        options = app.screen.query_one(OptionList)
        assert str(options.get_option_at_index(1).prompt) == f"Bash({command})"
        await pilot.press("escape")
        assert await answer is None
        confirm = asyncio.ensure_future(ui.confirm(f"Run {command}", f"[red]{command}"))
        await _until(pilot, app, ConfirmDialog)
        shown = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert f"Run {command}" in shown and f"[red]{command}" in shown
        await pilot.press("n")
        assert await confirm is False
