"""/settings: the settings editor over the app. A change is saved to the user's settings.json
(atomically, other keys kept: ``CommandHost.remember``) and put into force at once where it can
be: the theme, the model, the thinking level, the permission mode and showing thinking here,
the queue modes, auto-compaction and auto-retry in the session (``port.apply_setting``); the
rest are read where they are used (Esc Esc, titles, images) or at the next start."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from tau_coding.tui.settings_table import (
    EDITABLE,
    LiveState,
    SettingSpec,
    parse_choice,
    saved_changes,
    shown,
)
from tau_coding.tui.shell.command_host import CommandHost
from tau_coding.tui.widgets.tool_row import ToolRow

_LIVE = ("theme", "defaultModel", "defaultThinkingLevel", "permissions.defaultMode")


def _live(app: CommandHost) -> LiveState:
    info = app.port.info()
    theme = app.theme[4:] if app.theme.startswith("tau-") else app.theme
    return LiveState(theme, info.model_label, info.thinking_level, info.permission_mode)


def switch_theme(app: CommandHost, name: str) -> None:
    """Use Tau's theme ``name`` (one of ``app.theme_names()``) and save it as the default."""
    app.theme = f"tau-{name}"
    for row in app.query(ToolRow):  # diffs are drawn in the theme's colours
        row.recolor()
    app.notice(f"Theme: {name}")
    app.remember({"theme": name})


def rows(app: CommandHost) -> list[tuple[SettingSpec, str]]:
    """Each editable setting with the value it has now."""
    effective = dict(app.port.settings())
    live = _live(app)
    return [(spec, shown(spec, effective, live)) for spec in EDITABLE]


def choices(app: CommandHost, spec: SettingSpec) -> Sequence[str]:
    if spec.key == "theme":
        return app.theme_names()
    if spec.key == "defaultModel":
        return list(app.port.models())
    if spec.key == "defaultThinkingLevel":
        return list(app.port.thinking_levels()) or ["off"]
    return spec.choices or ()


async def change(app: CommandHost, spec: SettingSpec, choice: str) -> str:
    """Save and apply ``choice``; the value the editor shows afterwards."""
    value = parse_choice(spec, choice)
    if spec.key == "theme":
        switch_theme(app, choice)
    elif spec.key == "defaultModel":
        result = app.port.set_model(choice)
        app.notice(result.message, "warning" if result.is_error else "info")
        if not result.is_error:
            app.remember_model()
    elif spec.key == "defaultThinkingLevel":
        app.port.set_thinking_level(choice)
        app.remember({"defaultThinkingLevel": choice})
    elif spec.key == "permissions.defaultMode":
        app.port.set_permission_mode(choice)
        app.remember({spec.key: value})
    else:
        app.remember(saved_changes(spec, value))
        app.port.apply_setting(spec.key, value)
        if spec.key == "hideThinkingBlock":
            app.show_thinking(value is False)
    app.refresh_footer()
    if spec.key in _LIVE:  # what is in force (a refused model leaves the old one)
        return shown(spec, {}, _live(app))
    return choice


def apply_at_start(app: CommandHost) -> None:
    """What the TUI itself reads from the settings when it opens: ``hideThinkingBlock: false``
    shows thinking blocks from the start (Tau hides them unless told)."""
    if dict(app.port.settings()).get("hideThinkingBlock") == "False":
        app.show_thinking(True)


async def show_all(app: CommandHost) -> None:
    from tau_coding.tui.screens.text_panel import TextPanel

    table = Table.grid(padding=(0, 2))
    for key, value in app.port.settings():
        table.add_row(Text(key, style="bold"), value)
    await app.push_screen(TextPanel("Settings (user, then project, merged)", table))


async def settings(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.settings_editor import SettingsEditor

    async def changed(spec: SettingSpec, choice: str) -> str:
        return await change(app, spec, choice)

    async def everything() -> None:
        await show_all(app)

    await app.push_screen(SettingsEditor(rows(app), lambda spec: choices(app, spec), changed, everything))
