"""Slash commands that act on the stored session: /resume, /tree, /fork, /rewind, /compact,
/export, /reload, /settings, /login (a subscription's OAuth login, or an API key), /logout,
/scoped-models.

Each goes through the SessionPort and shows its CommandResult where the user is looking:
errors as error blocks, the rest as notices; a result that replaced the record repaints the
transcript, and a result carrying text (a fork's or a tree move's message) puts it in the editor.
"""

from __future__ import annotations

import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tau_coding.tui.port import CommandResult, CommandSpec
from tau_coding.tui.rewind_port import REWIND_CHOICES, RewindChoice
from tau_coding.tui.shell import settings_command
from tau_coding.tui.shell.command_host import CommandHost
from tau_coding.tui.state import add_error, set_status

if TYPE_CHECKING:  # the screens are imported when their command runs, not at start
    from tau_coding.tui.screens.tree_view import TreeChoice

SPECS = [
    CommandSpec("resume", "Resume a stored session (picker)"),
    CommandSpec("tree", "Navigate the session tree (Esc Esc on an empty editor)"),
    CommandSpec("fork", "New session from an earlier message of yours"),
    CommandSpec("rewind", "Go back to before an earlier prompt: code, conversation or both"),
    CommandSpec("compact", "Summarise older messages to free context", "[focus]"),
    CommandSpec("export", "Export the session as HTML", "[path]"),
    CommandSpec("share", "Export the session as HTML to a file to share; prints its path"),
    CommandSpec("clone", "Continue in a copy of this session"),
    CommandSpec("import", "Continue in a copy of a session file", "<path>"),
    CommandSpec("reload", "Re-read settings, models, prompts and skills"),
    CommandSpec("settings", "Change settings (theme, model, thinking, modes, …)"),
    CommandSpec("login", "Log in to a subscription, or store an API key", "[provider] [key]"),
    CommandSpec("logout", "Forget a login or a stored API key", "<provider>"),
    CommandSpec("scoped-models", "Choose the models Ctrl+P cycles through"),
]


async def show_result(app: CommandHost, result: CommandResult) -> None:
    if result.replaced_transcript and not result.is_error:
        await app.reset_transcript()
    if result.is_error:
        add_error(app.state, result.message, "")
        app.request_paint()
    elif result.message:
        app.notice(result.message, "command")
    if result.editor_text is not None:
        app.editor.load_text(result.editor_text)
        app.editor.move_cursor(app.editor.document.end)
    app.refresh_footer()


def in_background(app: CommandHost, notice: str, operation: Callable[[], Awaitable[CommandResult]]) -> None:
    """Run a model-backed operation (compaction, a branch summary) in a worker, so the screen
    stays live; the status is "running" meanwhile, so Esc cancels it like a run."""
    set_status(app.state, "running")
    app.notice(notice)

    async def work() -> None:
        try:
            result = await operation()
        finally:
            set_status(app.state, "idle")
            app.request_paint()
        await show_result(app, result)

    app.run_worker(work(), group="command")


def changing(app: CommandHost, change: Callable[[], Awaitable[CommandResult]]) -> None:
    """A change of session (new, resume, fork, tree, clone, import) in a worker: extensions are
    asked first, and one may open a dialog, which needs the screen live meanwhile."""

    async def work() -> None:
        await show_result(app, await change())

    app.run_worker(work(), group="command")


def _busy(app: CommandHost, what: str) -> bool:
    if app.port.is_running or app.state.status != "idle":
        app.notice(f"Wait for the run to finish (or Esc) before {what}.", "warning")
        return True
    return False


async def resume(app: CommandHost, args: str, *, then: Callable[[], None] | None = None) -> None:
    """``then`` runs once the picker closes, whatever was chosen."""
    from tau_coding.tui.screens.session_picker import SessionPicker

    if _busy(app, "switching sessions"):
        return

    async def chosen(ref: str | None) -> None:
        if ref is not None:
            changing(app, lambda: app.port.switch_session(ref))
        if then is not None:
            then()

    await app.push_screen(SessionPicker(app.port), chosen)


async def tree(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.tree_view import TreeScreen

    if _busy(app, "moving in the tree"):
        return

    async def chosen(choice: TreeChoice | None) -> None:
        if choice is None:
            return
        if not choice.summarize:
            changing(app, lambda: app.port.navigate(choice.entry_id))
            return
        in_background(
            app,
            "Summarising the branch left behind… (Esc cancels)",
            lambda: app.port.branch_with_summary(choice.entry_id),
        )

    await app.push_screen(TreeScreen(app.port), chosen)


async def fork(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.fork_picker import ForkPicker

    if _busy(app, "forking"):
        return
    points = app.port.fork_points()
    if not points:
        app.notice("No message of yours to fork from yet.", "warning")
        return

    async def chosen(entry_id: str | None) -> None:
        if entry_id is not None:
            changing(app, lambda: app.port.fork(entry_id))

    await app.push_screen(ForkPicker(points), chosen)


async def rewind(app: CommandHost, args: str) -> None:
    """Pick a checkpoint, then what to restore; a code restore shows its diff and asks first."""
    from tau_coding.tui.screens.choice_picker import ChoicePicker
    from tau_coding.tui.screens.confirm_dialog import ConfirmDialog
    from tau_coding.tui.screens.rewind_picker import RewindPicker

    if _busy(app, "rewinding"):
        return
    points = app.port.rewind_points()
    if points.error is not None or not points.rows:
        app.notice(points.error or "No checkpoint to rewind to yet.", "warning")
        return
    labels = dict((label, choice) for choice, label in REWIND_CHOICES)

    async def go(checkpoint_id: str, choice: RewindChoice) -> None:
        if choice == "summarize":
            in_background(
                app,
                "Summarising what followed… (Esc cancels)",
                lambda: app.port.rewind(checkpoint_id, choice),
            )
        else:
            await show_result(app, await app.port.rewind(checkpoint_id, choice))

    async def chosen_choice(checkpoint_id: str, label: str | None) -> None:
        choice = labels.get(label or "")
        if choice is None:
            return
        if choice not in ("code", "both"):
            await go(checkpoint_id, choice)
            return
        preview = app.port.rewind_preview(checkpoint_id)
        if preview.is_error:
            await show_result(app, preview)
            return

        async def confirmed(yes: bool | None) -> None:
            if yes:
                await go(checkpoint_id, choice)

        message = preview.message + '\n\nYour files as they are now are kept as a "before rewind" checkpoint.'

        await app.push_screen(ConfirmDialog("Restore these files?", message), confirmed)

    async def chosen_point(checkpoint_id: str | None) -> None:
        if checkpoint_id is not None:
            picker = ChoicePicker("Rewind: what to restore?", list(labels))
            await app.push_screen(picker, lambda label: chosen_choice(checkpoint_id, label))

    await app.push_screen(RewindPicker(points.rows), chosen_point)


async def compact(app: CommandHost, args: str) -> None:
    """Runs in a worker so the screen stays live; Esc cancels it like a run."""
    if _busy(app, "compacting"):
        return
    in_background(app, "Compacting… (Esc cancels)", lambda: app.port.compact(args.strip() or None))


async def export(app: CommandHost, args: str) -> None:
    await show_result(app, app.port.export_html(args.strip() or None))


async def reload(app: CommandHost, args: str) -> None:
    """The session's one reload (settings, models, extensions, skills, prompts), then themes."""
    if _busy(app, "reloading"):
        return
    result = app.port.reload()
    await show_result(app, result)
    if not result.is_error:
        for problem in app.reload_themes():
            app.notice(problem, "warning")


async def login(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.text_prompt import TextPrompt

    provider, _, key = args.strip().partition(" ")
    subscriptions = {name: (what, on) for name, what, on in app.port.subscription_logins()}
    if not provider:
        offered = "; ".join(
            f"{n} ({what}{', logged in' if on else ''})" for n, (what, on) in subscriptions.items()
        )
        app.notice(
            f"Subscriptions: {offered}. /login <provider> logs in; /login <provider> <key> stores an API key."
        )
        return
    if provider in subscriptions and not key.strip():

        async def run() -> None:
            await show_result(app, await app.port.subscription_login(provider, app.notice))

        app.notice(f"Logging in to {subscriptions[provider][0]}…")
        app.run_worker(run(), group="login", exclusive=True)
        return
    if key.strip():
        app.editor.prompt_history.forget_newest("/login")  # Up must not bring the key back
        await show_result(app, app.port.login(provider, key.strip()))
        return

    async def entered(value: str | None) -> None:
        if value:
            await show_result(app, app.port.login(provider, value))

    await app.push_screen(TextPrompt(f"API key for {provider}", password=True), entered)


async def logout(app: CommandHost, args: str) -> None:
    await show_result(app, app.port.logout(args.strip()))


async def scoped_models(app: CommandHost, args: str) -> None:
    from tau_coding.tui.screens.scoped_models import ScopedModels

    models = list(app.port.models())
    if not models:
        app.notice("No models to choose from in this session.", "warning")
        return

    def chosen(labels: list[str] | None) -> None:
        if labels is not None:
            app.port.set_scoped_models(labels)
            app.notice(f"Ctrl+P cycles: {', '.join(labels)}" if labels else "Ctrl+P cycles all models")

    await app.push_screen(ScopedModels(models, app.port.scoped_models()), chosen)


def cycle_model(app: CommandHost) -> None:
    """Ctrl+P: the next model of the scoped list (all models when none is scoped)."""
    labels = list(app.port.scoped_models()) or list(app.port.models())
    if len(labels) < 1:
        app.notify("No other model to switch to.")
        return
    current = app.port.info().model_label
    following = labels[(labels.index(current) + 1) % len(labels)] if current in labels else labels[0]
    if following == current:
        app.notify("No other model to switch to.")
        return
    result = app.port.set_model(following)
    level = None if result.is_error else app.port.scoped_level(following)
    if level is not None:  # Pi's --models sonnet:high: the scoped model's own level
        app.port.set_thinking_level(level if level in app.port.thinking_levels() else "off")
    app.refresh_footer()
    if not result.is_error:
        app.remember_model()
    app.notify(
        result.message, severity="error" if result.is_error else "information", timeout=1.5, markup=False
    )


async def share(app: CommandHost, args: str) -> None:
    """An HTML export outside the project (the temp folder), its path shown and copied."""
    folder = Path(tempfile.gettempdir()) / "tau-share"
    name = app.port.info().session_id or "session"
    result = app.port.export_html(str(folder / f"tau-{name}.html"))
    await show_result(app, result)
    if not result.is_error:
        app.copy_to_clipboard(str(folder / f"tau-{name}.html"))


async def clone(app: CommandHost, args: str) -> None:
    if not _busy(app, "cloning"):
        changing(app, app.port.clone_session)


async def import_session(app: CommandHost, args: str) -> None:
    if not _busy(app, "importing"):
        changing(app, lambda: app.port.import_session(args))


HANDLERS = {
    "resume": resume,
    "tree": tree,
    "fork": fork,
    "rewind": rewind,
    "compact": compact,
    "export": export,
    "share": share,
    "clone": clone,
    "import": import_session,
    "reload": reload,
    "settings": settings_command.settings,
    "login": login,
    "logout": logout,
    "scoped-models": scoped_models,
}
