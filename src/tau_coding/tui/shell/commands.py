"""The TUI's own slash commands: a table (``BUILTIN`` specs, ``HANDLERS``), one row per command.

In the interactive mode the built-in extension registers every row (``register_command``,
``modes/interactive/tui_builtins.py``) and a typed command reaches its handler through the
session port; anything else goes to the session as a prompt. Handlers take the app and the
argument text; they return nothing and report through notices in the transcript, so every
outcome is visible where the user is looking.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from rich.table import Table
from rich.text import Text

from tau_agent.messages import AssistantMessage
from tau_coding import __version__
from tau_coding.common.changelog import changelog_text
from tau_coding.tui.keymap import ACTIONS
from tau_coding.tui.port import CommandSpec
from tau_coding.tui.shell import session_commands, settings_command
from tau_coding.tui.shell.command_host import CommandHost
from tau_coding.tui.summaries import tokens

BUILTIN = [
    CommandSpec("model", "Pick the model (or /model provider/id)", "[name]"),
    CommandSpec("thinking", "Set the thinking level (or Alt+T to cycle)", "[level]"),
    CommandSpec("new", "Start a new session"),
    CommandSpec("name", "Name this session", "<name>"),
    CommandSpec("session", "Show session information"),
    CommandSpec("copy", "Copy the last answer to the clipboard"),
    CommandSpec("theme", "Switch theme (dark, light, high-contrast, yours)", "[name]"),
    CommandSpec("hotkeys", "Show keyboard shortcuts"),
    CommandSpec("changelog", "Show what changed in each Tau release"),
    *session_commands.SPECS,
    CommandSpec("quit", "Quit Tau"),
    CommandSpec("exit", "Quit Tau"),
]

HOTKEYS = [
    ("Enter", "send; while a run is going: steer"),
    ("Shift+Enter, Ctrl+J", "new line"),
    ("Alt+Enter", "queue a follow-up for when the run ends"),
    ("Alt+Up", "pull queued messages back into the editor"),
    ("Esc", "cancel the run (queued messages come back to the editor)"),
    ("Up / Down", "prompt history (from the first / last line)"),
    ("PageUp / PageDown", "scroll the conversation (also with Shift)"),
    ("Ctrl+Home / Ctrl+End", "start / end of the conversation (End follows new output)"),
    ("Tab", "complete a path, or accept a completion"),
    ("Ctrl+K / Ctrl+U, Ctrl+Y", "delete to line end / start; put the deleted text back"),
    ("/  @", "commands, files (fuzzy, .gitignore respected)"),
    ("!cmd  !!cmd", "run a shell command (!! keeps it out of the model's context)"),
    ("Ctrl+T", "show or hide thinking"),
    ("Ctrl+O", "expand or collapse all tool output"),
    ("Alt+T", "cycle thinking level"),
    ("Shift+Tab", "cycle permission mode (ask, accept-edits, plan, yolo)"),
    ("Ctrl+L", "model picker"),
    ("Ctrl+P", "next model (the /scoped-models list, else all)"),
    ("Ctrl+G", "edit the prompt in $VISUAL / $EDITOR"),
    ("Ctrl+V", "paste the clipboard's image (an image file's path attaches it too)"),
    ("Esc Esc", "on an empty editor while idle: the session tree"),
    ("Ctrl+C", "clear the editor; twice to quit"),
    ("Ctrl+D", "quit (on an empty editor)"),
]

Handler = Callable[[CommandHost, str], Awaitable[None]]


def hotkeys_table(keymap: Mapping[str, str] | None = None) -> Table:
    """The defaults, then what keybindings.json changed (``keymap``: action -> keys)."""
    table = Table.grid(padding=(0, 2))
    for key, what in HOTKEYS:
        table.add_row(Text(key, style="bold"), what)
    if keymap:
        table.add_row("", "")
        table.add_row(Text("From keybindings.json", style="bold underline"), "")
        for action, keys in sorted(keymap.items()):
            table.add_row(Text(keys.replace(",", ", "), style="bold"), ACTIONS.get(action, action))
    return table


async def _quit(app: CommandHost, args: str) -> None:
    app.quit_with_hint()


async def _new(app: CommandHost, args: str) -> None:
    if app.port.is_running:
        app.notice("Wait for the run to finish (or Esc) before starting a new session.", "warning")
    else:  # in a worker: an extension asked first may open a dialog (session_commands.changing)
        app.run_worker(_start_new(app), group="command")


async def _start_new(app: CommandHost) -> None:
    result = await app.port.new_session()
    if result.is_error:
        app.notice(result.message or "This session cannot start a new one.", "warning")
    else:
        await app.reset_transcript()
        app.notice("New session started.")


async def _name(app: CommandHost, args: str) -> None:
    if not args:
        name = app.port.info().session_name
        app.notice(f"Session name: {name}" if name else "This session has no name; /name <name> sets one.")
        return
    app.port.set_session_name(" ".join(args.split()))
    app.notice(f"Session named: {' '.join(args.split())}")
    app.refresh_footer()


async def _copy(app: CommandHost, args: str) -> None:
    last = next((m for m in reversed(app.port.messages) if isinstance(m, AssistantMessage) and m.text), None)
    if last is None:
        app.notice("Nothing to copy yet.", "warning")
        return
    app.copy_to_clipboard(last.text)
    app.notice(f"Copied the last answer ({len(last.text)} characters).")


async def _hotkeys(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.text_panel import TextPanel

    await app.push_screen(TextPanel("Keyboard shortcuts", hotkeys_table(app.keymap)))


async def _changelog(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.text_panel import TextPanel

    text = changelog_text()
    if text is None:
        app.notice("This installation of Tau has no CHANGELOG.md.", "warning")
        return
    from rich.markdown import Markdown  # markdown-it and pygments: not at launch

    await app.push_screen(TextPanel(f"Changelog (Tau {__version__})", Markdown(text)))


async def _session(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.text_panel import TextPanel

    info, state = app.port.info(), app.state
    table = Table.grid(padding=(0, 2))
    rows = [
        ("Directory", info.cwd),
        ("Branch", info.git_branch or "-"),
        ("Session", info.session_name or "-"),
        ("Session id", info.session_id or "- (not saved)"),
        ("File", info.session_file or "-"),
        ("Model", info.model_label),
        ("Thinking", info.thinking_level),
        ("Messages", str(len(app.port.messages))),
        ("Turns / tool calls", f"{state.turns} / {state.tool_calls}"),
        (
            "Tokens",
            f"in {tokens(state.usage.input)}, out {tokens(state.usage.output)}, "
            f"cache read {tokens(state.usage.cache_read)}, write {tokens(state.usage.cache_write)}",
        ),
        ("Cost", f"${state.usage.cost:.4f}"),
        ("Context window", tokens(info.context_window) if info.context_window else "unknown"),
    ]
    for key, value in rows:
        table.add_row(Text(key, style="bold"), value)
    await app.push_screen(TextPanel("Session", table))


async def _model(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.model_picker import ModelPicker

    models = list(app.port.models())
    if args:
        result = app.port.set_model(args)
        app.notice(result.message, "warning" if result.is_error else "info")
        app.refresh_footer()
        if not result.is_error:
            app.remember_model()
        return
    if not models:
        app.notice("No other models are available in this session.", "warning")
        return

    def chosen(label: str | None) -> None:
        if label is not None:
            result = app.port.set_model(label)
            app.notice(result.message, "warning" if result.is_error else "info")
            app.refresh_footer()
            if not result.is_error:
                app.remember_model()

    await app.push_screen(ModelPicker(models, app.port.info().model_label), chosen)


async def _thinking(app: CommandHost, args: str) -> None:
    levels = list(app.port.thinking_levels())
    if not levels:
        app.notice("This model does not think.", "warning")
    elif not args:
        app.cycle_thinking()
    elif args in levels:
        app.port.set_thinking_level(args)
        app.notice(f"Thinking level: {args}")
        app.refresh_footer()
        app.remember({"defaultThinkingLevel": args})
    else:
        app.notice(f"Unknown thinking level {args!r}; one of: {', '.join(levels)}", "warning")


async def _theme(app: CommandHost, args: str) -> None:
    names = app.theme_names()
    wanted = args.strip() or ("light" if app.theme == "tau-dark" else "dark")
    if wanted not in names:
        app.notice(f"Themes: {', '.join(names)}", "warning")
        return
    settings_command.switch_theme(app, wanted)


HANDLERS: dict[str, Handler] = {
    "quit": _quit,
    "exit": _quit,
    "new": _new,
    "name": _name,
    "copy": _copy,
    "hotkeys": _hotkeys,
    "changelog": _changelog,
    "session": _session,
    "model": _model,
    "thinking": _thinking,
    "theme": _theme,
    **session_commands.HANDLERS,
}
