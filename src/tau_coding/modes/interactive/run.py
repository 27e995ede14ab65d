"""Interactive mode: the TUI over a SessionPort. Textual is imported here, never at CLI start.

The mode reads the user's look-and-feel files (TAU_HOME/themes/*.json, TAU_HOME/keybindings.json)
and hands their contents to the app, so the TUI itself never reads configuration.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tau_coding.extensions.ui import LateBoundUI
from tau_coding.modes.interactive.type_ahead import TypeAhead
from tau_coding.tui.port import SessionPort
from tau_coding.tui.port_opening import PortOpener, PortUnavailable

if TYPE_CHECKING:
    from tau_coding.modes.interactive.session_port import CodingSessionPort
    from tau_coding.modes.interactive.tui_builtins import TuiBuiltins
    from tau_coding.tui.shell.app import TauApp


def run_interactive(
    port: SessionPort | None,
    initial_prompt: str | None = None,
    *,
    open_port: PortOpener | None = None,
    more_prompts: Sequence[str] = (),
    theme_paths: Sequence[str] = (),
    no_themes: bool = False,
    tau_home: Path | None = None,
    theme: str | None = None,
    resume: bool = False,
    ui: LateBoundUI | None = None,
    type_ahead: TypeAhead | None = None,
    builtins: TuiBuiltins | None = None,
    mentions: Callable[[], Sequence[str]] | None = None,
    notices: Sequence[str] = (),
    fullscreen: bool = False,
) -> int:
    """Run the TUI until the user quits (sending ``initial_prompt`` first, if given, then each of
    ``more_prompts`` as a follow-up; opening the session picker first when ``resume``); then
    print how to resume, if the session says. Themes come from TAU_HOME/themes (unless
    ``no_themes``) and from ``theme_paths`` (``--theme``: files or folders).
    What ``type_ahead`` holds when the app starts is replayed into its editor; ``builtins`` (the
    TUI's commands and keys the session's built-in extension registered) act on this app.
    ``notices`` (what the user should know, such as a missing key) open the transcript.
    The app runs inline, writing the conversation into the terminal's scrollback, unless
    ``fullscreen`` (``--fullscreen``, the ``tui.fullscreen`` setting; docs/tui.md).
    ``port`` None: the app paints first and opens the session with ``open_port`` (the sooner the
    editor shows, the sooner the user types; tui/port_opening.py). Returns the exit code: 0, or
    2 when the session could not be opened (its line printed to stderr, as the CLI's errors)."""
    from textual.theme import Theme

    from tau_coding.config.settings_update import update_settings
    from tau_coding.tui.keymap import load_keybindings
    from tau_coding.tui.shell.app import TauApp
    from tau_coding.tui.theme.user_themes import load_user_themes

    theme_places = [Path(p).expanduser() for p in theme_paths]
    if tau_home is not None and not no_themes:
        theme_places.insert(0, tau_home / "themes")

    def load_themes() -> tuple[list[Theme], list[str]]:
        themes: list[Theme] = []
        problems: list[str] = []
        for place in theme_places:
            found, bad = load_user_themes(place)
            themes += found
            problems += bad
        return themes, problems

    themes, problems = load_themes()
    if tau_home is not None:
        from tau_coding import __version__
        from tau_coding.modes.interactive.changelog_notice import changelog_notice

        if (updated := changelog_notice(tau_home / "settings.json", __version__)) is not None:
            notices = [updated, *notices]
    keymap, key_problems = load_keybindings(tau_home / "keybindings.json") if tau_home else ({}, [])

    def opened(port: SessionPort) -> None:  # the app and the session, joined
        from tau_coding.modes.interactive.session_port import CodingSessionPort

        if ui is not None:  # extensions' dialogs become the app's own from here on
            from tau_coding.modes.interactive.tui_ui import TuiUI
            from tau_coding.tui.screens.dialogs import TuiDialogs

            ui.bind(TuiUI(TuiDialogs(app, waited=app.dialog_waited, asking=app.key_guard.asking), app))
        if builtins is not None:
            builtins.bind(app)
        if isinstance(port, CodingSessionPort):  # a title made in the background shows at once
            port.titles.listeners.append(app.refresh_footer)
            # an extension's new session, fork, switch or tree move (tau.sessions) is shown at once
            port.control.outside_change.append(lambda change: app.show_outside_change(change.editor_text))
            port.control.run_from_record = _run_from_record(app, port)
            port.control.shutdown = _on_app_loop(app, app.shutdown_when_idle)

    def join(opener: PortOpener) -> PortOpener:
        def open_and_join() -> tuple[SessionPort, Sequence[str]]:
            port, notices = opener()
            opened(port)
            return port, notices

        return open_and_join

    app = TauApp(
        port,
        open_port=join(open_port) if port is None and open_port is not None else None,
        initial_prompt=initial_prompt,
        more_prompts=more_prompts,
        theme=theme or "dark",
        user_themes=themes,
        keymap=keymap,
        startup_notices=[*notices, *problems, *key_problems],
        start_with_resume=resume,
        type_ahead=type_ahead.take() if type_ahead is not None else "",
        shell_modes=type_ahead.restore if type_ahead is not None else None,
        load_themes=load_themes if theme_places else None,
        mentions=mentions,
        save_settings=(lambda changes: update_settings(tau_home / "settings.json", changes))
        if tau_home
        else None,
        inline=not fullscreen,
    )
    if port is not None:
        opened(port)
    try:
        # Inline, the mouse stays the terminal's: selecting and scrolling the scrollback work.
        hint = app.run(inline=not fullscreen, mouse=fullscreen)
    finally:
        if builtins is not None:
            builtins.bind(None)
    if app.start_error is not None:
        sys.stderr.write(f"tau: {app.start_error}\n")
        return 2
    if hint:
        sys.stdout.write(hint.rstrip("\n") + "\n")
    return 0


def _on_app_loop(app: TauApp, action: Callable[[], object]) -> Callable[[], None]:
    """``action`` on the app's loop, whether called from a handler's worker thread or the loop."""

    def call() -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a plain handler runs in a worker thread
            app.call_from_thread(action)
        else:
            action()

    return call


def _run_from_record(app: TauApp, port: CodingSessionPort) -> Callable[[], bool]:
    """An extension's ``trigger_turn``, from its handler's worker thread or the app's loop."""

    def start() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a plain handler runs in a worker thread
            app.call_from_thread(app.run_outside, port.continue_)
        else:
            app.run_outside(port.continue_)
        return True

    return start


__all__ = ["PortOpener", "PortUnavailable", "run_interactive"]  # the opener's contract, for the CLI
