"""The /settings editor over a real CodingSessionPort: rows show the values in force; a change is
saved to settings.json (other keys kept) and applied to the running session at once."""

from __future__ import annotations

import json
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import OptionList

from tau_coding.config.settings_update import update_settings
from tau_coding.tui.screens.choice_picker import ChoicePicker
from tau_coding.tui.screens.settings_editor import SettingsEditor
from tau_coding.tui.settings_table import EDITABLE
from tau_coding.tui.shell.app import TauApp

from .session_helpers import Rig
from .test_app import SIZE, until
from .test_session_screens import command

KEYS = [spec.key for spec in EDITABLE]


def _app(rig: Rig, settings_file: Path) -> TauApp:
    return TauApp(
        rig.port,
        home="/home/user",
        list_files=None,
        save_settings=lambda changes: update_settings(settings_file, changes),
    )


def _row(app: TauApp, key: str) -> str:
    return str(app.screen.query_one(OptionList).get_option_at_index(KEYS.index(key)).prompt)


async def _pick(pilot: Pilot[object], app: TauApp, key: str, choice: str) -> None:
    rows = app.screen.query_one(OptionList)
    rows.highlighted = KEYS.index(key)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, ChoicePicker))
    picker = app.screen.query_one(OptionList)
    prompts = [str(picker.get_option_at_index(i).prompt) for i in range(picker.option_count)]
    picker.highlighted = prompts.index(choice)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, SettingsEditor) and choice in _row(app, key))


async def test_the_editor_lists_the_common_settings_with_their_values(tmp_path: Path) -> None:
    app = _app(Rig(tmp_path), tmp_path / "settings.json")
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsEditor))
        assert _row(app, "defaultModel").split() == ["Model", "(default)", "fake/fake-model"]
        assert _row(app, "theme").endswith(" dark")
        assert _row(app, "retry.enabled").endswith(" true")  # the Rig's settings say so
        assert _row(app, "steeringMode").endswith(" one-at-a-time")  # the default
        assert _row(app, "autoTitle").endswith(" false")


async def test_changes_are_saved_and_applied_to_the_running_session(tmp_path: Path) -> None:
    settings_file = tmp_path / "settings.json"
    settings_file.write_text(json.dumps({"compaction": {"reserveTokens": 9000}, "mine": 1}))
    rig = Rig(tmp_path)
    app = _app(rig, settings_file)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsEditor))
        await _pick(pilot, app, "steeringMode", "all")
        assert rig.control.session.harness.steering_mode == "all"
        await _pick(pilot, app, "compaction.enabled", "false")
        assert rig.control.session.auto_compaction_enabled is False
        await _pick(pilot, app, "theme", "light")
        assert app.theme == "tau-light"
        await _pick(pilot, app, "hideThinkingBlock", "false")
        assert app.transcript.has_class("-show-thinking")
        await _pick(pilot, app, "defaultModel", "fake/other-model")
        assert rig.port.info().model_label == "fake/other-model"
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SettingsEditor))
    saved = json.loads(settings_file.read_text())
    assert saved["mine"] == 1 and saved["compaction"] == {"reserveTokens": 9000, "enabled": False}
    assert saved["steeringMode"] == "all" and saved["theme"] == "light"
    assert saved["hideThinkingBlock"] is False
    assert (saved["defaultProvider"], saved["defaultModel"]) == ("fake", "other-model")


async def test_escape_in_the_picker_changes_nothing(tmp_path: Path) -> None:
    settings_file = tmp_path / "settings.json"
    rig = Rig(tmp_path)
    app = _app(rig, settings_file)
    async with app.run_test(size=SIZE) as pilot:
        await command(pilot, app, "/settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsEditor))
        app.screen.query_one(OptionList).highlighted = KEYS.index("followUpMode")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoicePicker))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SettingsEditor))
        assert _row(app, "followUpMode").endswith(" one-at-a-time")
    assert not settings_file.exists()


async def test_hide_thinking_block_false_shows_thinking_from_the_start(tmp_path: Path) -> None:
    hidden = TauApp(Rig(tmp_path / "a").port, home="/home/user", list_files=None)
    async with hidden.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not hidden.transcript.has_class("-show-thinking")  # Tau's default: hidden
    rig = Rig(tmp_path / "b", settings={"hideThinkingBlock": False})
    app = TauApp(rig.port, home="/home/user", list_files=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.transcript.has_class("-show-thinking")
