"""Interactive mode: the TUI over a SessionPort. Textual is imported here, never at CLI start.

The mode reads the user's look-and-feel files (TAU_HOME/themes/*.json, TAU_HOME/keybindings.json)
and hands their contents to the app, so the TUI itself never reads configuration.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from tau_coding.extensions.ui import LateBoundUI
from tau_coding.modes.interactive.type_ahead import TypeAhead
from tau_coding.tui.port import SessionPort


def run_interactive(
    port: SessionPort,
    initial_prompt: str | None = None,
    *,
    tau_home: Path | None = None,
    theme: str | None = None,
    resume: bool = False,
    ui: LateBoundUI | None = None,
    type_ahead: TypeAhead | None = None,
    notices: Sequence[str] = (),
) -> int:
    """Run the TUI until the user quits (sending ``initial_prompt`` first, if given; opening the
    session picker first when ``resume``); then print how to resume, if the session says.
    What ``type_ahead`` holds when the app starts is replayed into its editor. Returns the
    exit code, 0. ``notices`` (what the user should know, such as a missing key) open the
    transcript."""
    from tau_coding.config.settings_update import update_settings
    from tau_coding.tui.keymap import load_keybindings
    from tau_coding.tui.shell.app import TauApp
    from tau_coding.tui.theme.user_themes import load_user_themes

    themes, problems = load_user_themes(tau_home / "themes") if tau_home else ([], [])
    keymap, key_problems = load_keybindings(tau_home / "keybindings.json") if tau_home else ({}, [])
    app = TauApp(
        port,
        initial_prompt=initial_prompt,
        theme=theme or "dark",
        user_themes=themes,
        keymap=keymap,
        startup_notices=[*notices, *problems, *key_problems],
        start_with_resume=resume,
        type_ahead=type_ahead.take() if type_ahead is not None else "",
        load_themes=(lambda: load_user_themes(tau_home / "themes")) if tau_home else None,
        save_settings=(lambda changes: update_settings(tau_home / "settings.json", changes))
        if tau_home
        else None,
    )
    if ui is not None:  # extensions' dialogs become the app's own from here on
        from tau_coding.modes.interactive.tui_ui import TuiUI
        from tau_coding.tui.screens.dialogs import TuiDialogs

        ui.bind(TuiUI(TuiDialogs(app)))
    hint = app.run()
    if hint:
        sys.stdout.write(hint.rstrip("\n") + "\n")
    return 0
