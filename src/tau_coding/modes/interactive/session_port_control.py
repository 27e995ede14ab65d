"""ControlPort: the session-level half of CodingSessionPort, over SessionControl.

Every operation answers with a CommandResult whose message is one line for the user; a
failure (``ControlError``, a busy agent, a locked or missing file) is an error result, never
an exception into the TUI. API keys go through an ``AuthService`` the mode passes in
(config.auth.AuthStore satisfies it), so the TUI never touches credentials.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from tau_agent.content import text_of
from tau_agent.harness import AgentBusyError
from tau_agent.messages import UserMessage
from tau_agent.session.entries import MessageEntry
from tau_agent.session.jsonl import SessionLockedError
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import SessionReadOnlyError
from tau_coding.config.model_scope import ScopedModel, resolve_model_scope
from tau_coding.modes.interactive.tree_rows import tree_rows
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import ChangeRefusedError, ControlError, SessionControl
from tau_coding.session.store.manager import SessionNotFoundError, repair_notice
from tau_coding.tui.git_branch import git_branch
from tau_coding.tui.port import CommandResult, ForkPoint, StoredSession, TreeFilter, TreeRows

# What a control operation may raise that is the user's to read, not a bug.
_EXPECTED = (
    ControlError,
    AgentBusyError,
    SessionNotFoundError,
    SessionLockedError,
    SessionReadOnlyError,
    OSError,
    ValueError,
)


class AuthService(Protocol):
    """Where /login and /logout keep API keys (and logins: auth.json at ``path``)."""

    path: Path

    def set_api_key(self, provider: str, key: str) -> None: ...

    def remove(self, provider: str) -> None: ...


class ControlPort:
    """``scoped``: ``--models`` patterns for Ctrl+P (config/model_scope.py), when the control's
    ``scoped`` list was not set already."""

    def __init__(
        self,
        control: SessionControl,
        *,
        auth: AuthService | None = None,
        settings: Callable[[], Mapping[str, Any]] = dict,
        scoped: Sequence[str] = (),
    ) -> None:
        self.control = control
        self._auth = auth
        self._settings = settings
        self._branch = git_branch(control.session.cwd)
        control.reloaded.append(self._moved)
        if scoped:
            control.scoped = resolve_model_scope(scoped, control.available_models())[0]

    def _moved(self, session: CodingSession) -> None:
        """A rebuilt session may run elsewhere (a resumed session from another project)."""
        self._branch = git_branch(session.cwd)

    # -- models -----------------------------------------------------------------------------------

    def models(self) -> Sequence[str]:
        return [f"{m.provider}/{m.id}" for m in self.control.available_models()]

    def set_model(self, label: str) -> CommandResult:
        provider, _, model_id = label.partition("/")
        try:
            self.control.set_model(provider, model_id)
        except ControlError:
            return CommandResult(f"unknown model {label!r}", is_error=True)
        return CommandResult(f"model: {label}")

    def scoped_models(self) -> Sequence[str]:
        return [scoped.label for scoped in self.control.scoped]

    def set_scoped_models(self, labels: Sequence[str]) -> None:
        """Labels or patterns (``--models``' syntax); a label chosen again keeps its level."""
        levels = {s.label: s.thinking_level for s in self.control.scoped}
        chosen = resolve_model_scope(labels, self.control.available_models())[0]
        self.control.scoped = [
            s if s.thinking_level is not None else ScopedModel(s.model, levels.get(s.label)) for s in chosen
        ]

    def scoped_level(self, label: str) -> str | None:
        return next((s.thinking_level for s in self.control.scoped if s.label == label), None)

    # -- which session ------------------------------------------------------------------------------

    def _attempt(self, action: Callable[[], str], *, replaced: bool = False) -> CommandResult:
        try:
            message = action()
        except _EXPECTED as exc:
            return CommandResult(str(exc) or type(exc).__name__, is_error=True)
        return CommandResult(message, replaced_transcript=replaced)

    async def _change(self, action: Callable[[], str], *, replaced: bool = False) -> CommandResult:
        """``_attempt`` for a change extensions are asked about (``SessionControl.asking``)."""
        try:
            message = await self.control.asking(action)
        except _EXPECTED as exc:
            return CommandResult(str(exc) or type(exc).__name__, is_error=True)
        return CommandResult(message, replaced_transcript=replaced)

    async def new_session(self) -> CommandResult:
        def new() -> str:
            self.control.new_session()
            return ""

        return await self._change(new)

    def list_sessions(self, *, everywhere: bool) -> Sequence[StoredSession]:
        current = self.control.session.session_file
        return [
            StoredSession(
                ref=str(info.path),
                title=info.title,
                cwd=info.cwd,
                modified=info.modified.astimezone().strftime("%Y-%m-%d %H:%M"),
                message_count=info.message_count,
                is_current=current is not None and info.path.resolve() == current.resolve(),
            )
            for info in self.control.list_sessions(everywhere=everywhere)
        ]

    async def switch_session(self, ref: str) -> CommandResult:
        def switch() -> str:
            self.control.switch_session(ref)
            session = self.control.session
            first = next((text_of(m.content) for m in session.messages if isinstance(m, UserMessage)), "")
            title = session.log.name or " ".join(first.split())[:60] or Path(ref).name
            notice = repair_notice(session.log)
            return f"Resumed: {title}" + (f". The {notice}" if notice else "")

        return await self._change(switch, replaced=True)

    async def clone_session(self) -> CommandResult:
        def clone() -> str:
            self.control.clone()
            return f"Cloned into a new session: {self.control.session.session_file}"

        return await self._change(clone, replaced=True)

    async def import_session(self, path: str) -> CommandResult:
        if not path.strip():
            return CommandResult("Usage: /import <session file>", is_error=True)

        def take() -> str:
            self.control.import_session(path.strip())
            return f"Imported {path.strip()} as {self.control.session.session_file}"

        return await self._change(take, replaced=True)

    def rename_session(self, ref: str, name: str) -> CommandResult:
        def rename() -> str:
            current = self.control.session.session_file
            if current is not None and Path(ref).resolve() == current.resolve():
                self.control.session.set_name(name)
            else:
                log: SessionLog = self.control.manager.open(ref)
                try:
                    log.set_name(name)
                finally:
                    log.close()
            return f"Renamed to {name.strip()}"

        return self._attempt(rename)

    def delete_session(self, ref: str) -> CommandResult:
        def delete() -> str:
            current = self.control.session.session_file
            if current is not None and Path(ref).resolve() == current.resolve():
                raise ControlError("cannot delete the session in use")
            return f"Deleted {self.control.manager.delete(ref).name}"

        return self._attempt(delete)

    # -- the tree -----------------------------------------------------------------------------------

    def tree(self, filter: TreeFilter = "default") -> TreeRows:
        return tree_rows(self.control.session.log, filter)

    def _target(self, entry_id: str) -> tuple[str | None, str | None]:
        """Where to move for ``entry_id``, and the text to hand back. Moving to one of your own
        messages moves to just before it and hands its text back for editing, so the next
        prompt starts a new branch in its place (not a reply to it)."""
        entry = self.control.session.log.tree.get(entry_id)
        if entry is None:
            raise ControlError(f"no entry {entry_id!r} in this session")
        message = entry.message if isinstance(entry, MessageEntry) else None
        if isinstance(message, UserMessage):
            return entry.parent_id, text_of(message.content)
        return entry_id, None

    async def navigate(self, entry_id: str) -> CommandResult:
        text: str | None = None

        def navigate() -> str:
            nonlocal text
            parent, text = self._target(entry_id)
            self.control.navigate(parent)
            return "Moved in the session tree."

        result = await self._change(navigate, replaced=True)
        return (
            result
            if result.is_error
            else CommandResult(result.message, editor_text=text, replaced_transcript=True)
        )

    async def branch_with_summary(self, entry_id: str) -> CommandResult:
        """Move to ``entry_id`` and summarise the branch left behind (``summarize_move``: the
        extensions' ``session_before_tree`` handlers are awaited, and one may refuse or write
        the summary)."""
        try:
            parent, text = self._target(entry_id)
            await self.control.summarize_move(parent)
        except ChangeRefusedError as refused:
            return CommandResult(str(refused), is_error=True)
        except Exception as exc:  # the summary run may fail in any way; the user reads why
            return CommandResult(f"Branch summary failed: {exc or type(exc).__name__}", is_error=True)
        return CommandResult(
            "Moved; the branch left behind is summarised.", editor_text=text, replaced_transcript=True
        )

    def set_label(self, entry_id: str, label: str | None) -> CommandResult:
        text = (label or "").strip() or None

        def label_it() -> str:
            self.control.set_label(entry_id, text)
            return f"Label: {text}" if text else "Label cleared"

        return self._attempt(label_it)

    def fork_points(self) -> Sequence[ForkPoint]:
        return [ForkPoint(m.entry_id, m.text) for m in self.control.fork_messages()]

    async def fork(self, entry_id: str) -> CommandResult:
        try:
            text = await self.control.asking(lambda: self.control.fork(entry_id))
        except _EXPECTED as exc:
            return CommandResult(str(exc), is_error=True)
        # "": a session_before_fork handler asked to leave the editor as it is
        return CommandResult("Forked into a new session.", editor_text=text or None, replaced_transcript=True)

    # -- the rest -----------------------------------------------------------------------------------

    async def compact(self, focus: str | None) -> CommandResult:
        try:
            result = await self.control.compact(focus or None)
        except Exception as exc:  # any failure of the summary run is for the user to read
            return CommandResult(f"Compaction failed: {exc or type(exc).__name__}", is_error=True)
        head = f"Compacted {result.tokens_before} tokens"
        first = result.summary.strip().splitlines()[0] if result.summary.strip() else ""
        return CommandResult(f"{head}. {first}".strip(), replaced_transcript=True)

    def export_html(self, path: str | None) -> CommandResult:
        return self._attempt(lambda: f"Exported to {self.control.export_html(path or None)}")

    def reload(self) -> CommandResult:
        def reload() -> str:
            self.control.reload()
            return "Reloaded settings, models and resources."

        return self._attempt(reload, replaced=True)

    def settings(self) -> Sequence[tuple[str, str]]:
        session = self.control.session
        rows = [
            ("model", f"{session.model.provider}/{session.model.id}"),
            ("thinking", session.thinking_level),
            ("steeringMode", session.harness.steering_mode),
            ("followUpMode", session.harness.follow_up_mode),
            ("session file", str(session.session_file or "(not saved)")),
        ]
        return rows + _flatten(self._settings())

    def login(self, provider: str, key: str) -> CommandResult:
        if self._auth is None:
            return CommandResult("Storing keys is not available here.", is_error=True)
        if not provider or not key.strip():
            return CommandResult("Usage: /login <provider> <api key>", is_error=True)
        try:
            self._auth.set_api_key(provider, key.strip())
        except _EXPECTED as exc:
            return CommandResult(f"Could not store the key: {exc}", is_error=True)
        return CommandResult(f"Stored an API key for {provider} in auth.json." + self._reload_note())

    def logout(self, provider: str) -> CommandResult:
        if self._auth is None:
            return CommandResult("Removing keys is not available here.", is_error=True)
        if not provider:
            return CommandResult("Usage: /logout <provider>", is_error=True)
        try:
            self._auth.remove(provider)
        except _EXPECTED as exc:
            return CommandResult(f"Could not remove the key: {exc}", is_error=True)
        return CommandResult(f"Removed the stored key for {provider}." + self._reload_note())

    def _reload_note(self) -> str:
        """Keys are read when the provider is built, so a reload makes the change count now."""
        result = self.reload()
        return " Reloaded." if not result.is_error else f" (/reload to use it: {result.message})"


def _flatten(values: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for key in sorted(values):
        value = values[key]
        if isinstance(value, Mapping):
            rows += _flatten(value, f"{prefix}{key}.")
        else:
            rows.append((f"{prefix}{key}", str(value)))
    return rows
