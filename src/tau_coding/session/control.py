"""SessionControl: what a frontend does to a session besides prompting it.

New session, switch, fork, tree navigation and labels, model and thinking-level cycling,
queue modes, statistics, HTML export, reload. RPC mode and the SDK both drive a CodingSession
through this one object, so the two cannot drift apart. Every operation that replaces the
transcript refuses while a prompt runs (``AgentBusyError``); every other failure is a
``ControlError`` whose message is one line for the user.

``session`` may be replaced (``reload`` builds a fresh CodingSession around the same log), so
callers hold the control object and read ``control.session`` each time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes
from tau_agent.content import text_of
from tau_agent.harness import AgentBusyError, QueueMode
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.provider import THINKING_LEVELS, ThinkingLevel
from tau_agent.session.entries import MessageEntry, SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_ai.model import Model
from tau_coding.checkpoints.changes import FileChange
from tau_coding.checkpoints.git import CheckpointError
from tau_coding.config.model_scope import ScopedModel
from tau_coding.permissions.modes import PermissionMode
from tau_coding.session.change_questions import (
    ChangeQuestions,
    ChangeRefusedError,
    ControlError,
    OutsideChange,
)
from tau_coding.session.checkpointing import RewindPoint
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.compaction.context_usage import ContextUsage
from tau_coding.session.compaction.result import CompactionResult
from tau_coding.session.hooks import LeaveReason, SessionChange
from tau_coding.session.rewind import RewindOutcome, checkpoints_of, find, rewind
from tau_coding.session.store.listing import SessionInfo
from tau_coding.session.store.manager import SessionManager, SessionNotFoundError

# Levels cycled through on a reasoning model; "xhigh" is set explicitly, never cycled into.
CYCLED_LEVELS: tuple[ThinkingLevel, ...] = ("off", "minimal", "low", "medium", "high")
QUEUE_MODES: tuple[QueueMode, ...] = ("all", "one-at-a-time")


PLAN_APPROVED = "The user approved the plan. Carry it out now."


@dataclass(frozen=True, slots=True)
class ForkMessage:
    entry_id: str
    text: str


class SessionControl(ChangeQuestions):
    """Session-level operations on ``session``; ``manager`` decides where session files live."""

    def __init__(
        self,
        session: CodingSession,
        manager: SessionManager,
        *,
        models: Callable[[], Sequence[Model]] = lambda: (),
        rebuild: Callable[[CodingSession], CodingSession] | None = None,
    ) -> None:
        """``models`` lists what ``set_model``/``cycle_model`` may choose from (read on each
        call, so a changed models.json counts); ``rebuild`` makes a fresh session from the
        user's files for ``reload`` (it must keep the log it is given)."""
        self.session = session
        self.manager = manager
        self._models = models
        self._rebuild = rebuild
        self.reloaded: list[Callable[[CodingSession], None]] = []  # told of the fresh session
        # Told when the transcript becomes another path: new, switched or forked session, a
        # move in the tree (state derived from the path, such as the task list, follows).
        self.path_changed: list[Callable[[CodingSession], None]] = []
        # Sessions left before their file was written (a fork of the first message, a new
        # session), by path: switching back continues them instead of failing on a missing file.
        self._unwritten: dict[Path, SessionLog] = {}
        # Writes an approved plan's steps as the task list and says how many (the app sets it).
        self.plan_to_todos: Callable[[CodingSession, str], int] | None = None
        # What cycle_model goes through (``--models``, ``enabledModels``); empty: every model.
        self.scoped: list[ScopedModel] = []
        # Told after a change made outside the frontend (an extension's command: new session,
        # fork, switch, tree) replaced the transcript, with its kind and text for the editor;
        # the frontend repaints. The frontend's own commands repaint by themselves.
        self.outside_change: list[Callable[[OutsideChange], object]] = []
        # How the frontend runs the agent from the record as it stands, as it runs a prompt (an
        # extension's ``trigger_turn``); False when it cannot now. None: no frontend runs one.
        self.run_from_record: Callable[[], bool] | None = None
        # How the frontend exits cleanly once no run goes on (an extension's ``shutdown()``);
        # callable from any thread. None: nothing to exit (print mode ends by itself; the SDK).
        self.shutdown: Callable[[], None] | None = None
        self._asking = False  # inside ``asking``: the first run, which stops at the question
        self._answered: SessionChange | None = None  # the change ``asking`` has an answer for
        if rebuild is not None:
            session.reloader = self.reload  # ``/reload`` typed as a prompt means this reload

    # -- which session ---------------------------------------------------------------------------

    @property
    def in_memory(self) -> bool:
        return isinstance(self.session.log.storage, InMemorySessionStorage)

    def _replace_log(
        self, log: SessionLog, *, restore: bool = False, leaving: LeaveReason | None = None
    ) -> None:
        old = self.session.log
        if leaving is not None:
            self._leave(leaving, log)
        try:
            self.session.use_log(log, restore=restore)
        except BaseException:
            log.close()
            raise
        if old is not log:
            storage = old.storage
            if isinstance(storage, JsonlSessionStorage) and not storage.on_disk and not storage.read_only:
                self._unwritten[storage.path.absolute()] = old  # closing it would free nothing
            else:
                old.close()
        self.path_moved()

    def path_moved(self) -> None:
        """Tell the ``path_changed`` listeners; called by every move made here, and by a caller
        that moved the session itself (``CodingSession.navigate`` with a branch summary)."""
        for listener in self.path_changed:
            listener(self.session)

    def _ensure_idle(self, what: str) -> None:
        if self.session.is_running:
            raise AgentBusyError(f"Cannot {what} while the agent is running; abort it first")

    def new_session(self, parent_session: str | None = None) -> None:
        """Continue in a fresh, empty session (in memory if the current one is)."""
        self._ensure_idle("start a new session")
        change = SessionChange("new", self._current_file())
        self._ask_hooks(change)
        if self.in_memory:
            header = SessionHeader.new(self.manager.cwd, parent_session)
            self._replace_log(SessionLog(InMemorySessionStorage(header)), leaving="new")
        else:
            self._replace_log(self.manager.new(parent_session), leaving="new")
        self._tell_hooks(change)

    def switch_session(self, ref: str | Path, *, create: bool = False) -> None:
        """Continue in another session file (a path or an id prefix), with the model and
        thinking level it records (``CodingSession.use_log``). A session started in another
        directory that still exists continues there (tools, files, the footer), as in Pi.

        A session this control left before its file was written (a new session, a fork of the
        first message) is continued from memory. With ``create``, another path ending
        ``.jsonl`` with no file starts a new session to be written there with its first reply,
        as Pi's RPC does; without, it is SessionNotFoundError."""
        self._ensure_idle("switch sessions")
        named = Path(ref).expanduser().absolute()
        current = self.session.session_file
        if current is not None and named == current.absolute():
            return
        if (unwritten := self._unwritten.pop(named, None)) is not None:
            self._replace_log(unwritten, restore=True)
            return
        try:
            path = self.manager.resolve(ref)
        except SessionNotFoundError:
            if not (create and str(ref).endswith(".jsonl")):
                raise
            self._replace_log(self.manager.new_at(named))  # Pi: a session file to be written there
            return
        if current is not None and path == current.resolve():
            return
        change = SessionChange("resume", self._current_file(), str(path))
        self._ask_hooks(change)
        self._replace_log(self.manager.open(path), restore=True, leaving="resume")
        recorded = self.session.log.header.cwd
        if recorded and Path(recorded) != self.session.cwd and Path(recorded).is_dir() and self._rebuild:
            self.reload()  # a session from another project continues in its own directory
        self._tell_hooks(change)

    def import_session(self, path: str | Path) -> None:
        """Continue in a copy of the session file at ``path``, made in this project's folder."""
        self._ensure_idle("import a session")
        if self.in_memory:
            raise ControlError("this session is not stored; start tau without --no-session to import")
        change = SessionChange("resume", self._current_file(), str(Path(path).expanduser()))
        self._ask_hooks(change)
        self._replace_log(self.manager.fork_from(Path(path).expanduser()), restore=True, leaving="resume")
        self._tell_hooks(change)

    def fork_messages(self) -> list[ForkMessage]:
        """The user messages with text of every branch, in file order: the places a fork may
        start (Pi's ``get_fork_messages``)."""
        out = []
        for entry in self.session.log.entries:
            if isinstance(entry, MessageEntry):
                message = entry.message
                if isinstance(message, UserMessage) and (text := text_of(message.content)):
                    out.append(ForkMessage(entry.id, text))
        return out

    def clone(self, entry_id: str | None = None) -> None:
        """Continue in a new session holding the current branch, up to and including where the
        session is now (Pi's ``clone``), or through ``entry_id`` (Pi's fork ``position: "at"``);
        the source file is not changed."""
        self._ensure_idle("clone")
        log = self.session.log
        at = log.leaf_id if entry_id is None else entry_id
        if at is None:
            raise ControlError("Cannot clone session: no current entry selected")
        if at not in log.tree:
            raise ControlError(f"no entry {at!r} in this session")
        change = SessionChange("fork", self._current_file(), entry_id=at, position="at")
        self._ask_hooks(change)
        if self.in_memory:
            header = SessionHeader.new(self.manager.cwd, None)
            branch = log.branch(at)
            cloned = SessionLog(InMemorySessionStorage(header, branch.entries), made_from=branch)
        else:
            cloned = self.manager.fork(log, at)
        self._replace_log(cloned, restore=True, leaving="fork")
        self._tell_hooks(change)

    def fork(self, entry_id: str) -> str:
        """A new session holding everything before user message ``entry_id``, continued with
        the model and thinking level that part records; returns that message's text so a
        frontend can put it back in the editor for the user to change ("" when a
        ``session_before_fork`` handler asked to skip that: the editor keeps its text)."""
        self._ensure_idle("fork")
        entry = self.session.log.tree.get(entry_id)
        message = entry.message if isinstance(entry, MessageEntry) else None
        if entry is None or not isinstance(message, UserMessage):
            raise ControlError(f"no user message with entry id {entry_id!r} in this session")
        change = SessionChange("fork", self._current_file(), entry_id=entry_id)
        keep_editor = self._ask_hooks(change).keep_editor
        log = self.session.log
        if self.in_memory:
            header = SessionHeader.new(self.manager.cwd, None)
            branch = log.branch(entry.parent_id)
            forked = SessionLog(InMemorySessionStorage(header, branch.entries), made_from=branch)
        else:
            forked = self.manager.fork(log, entry.parent_id)
        self._replace_log(forked, restore=True, leaving="fork")
        self._tell_hooks(change)
        return "" if keep_editor else text_of(message.content)

    def list_sessions(self, *, everywhere: bool = False) -> list[SessionInfo]:
        return self.manager.list_all() if everywhere else self.manager.list_cwd()

    # -- the tree ----------------------------------------------------------------------------------

    def navigate(self, entry_id: str | None) -> None:
        """Move to ``entry_id`` in the tree (None: before the first entry); the transcript
        becomes that path and the next prompt continues from there, on a new branch."""
        self._ensure_idle("navigate the tree")
        log = self.session.log
        if entry_id is not None and entry_id not in log.tree:
            raise ControlError(f"no entry {entry_id!r} in this session")
        current = self._current_file()
        change = SessionChange("tree", current, current, entry_id, old_leaf=log.leaf_id)
        self._ask_hooks(change)
        log.navigate(entry_id)
        self.session.harness.replace_messages(log.state().messages, repaired=True)
        self.path_moved()
        self._tell_hooks(change)

    def set_label(self, entry_id: str, label: str | None) -> None:
        """Bookmark an entry (None or blank clears its label)."""
        if entry_id not in self.session.log.tree:
            raise ControlError(f"no entry {entry_id!r} in this session")
        self.session.log.set_label(entry_id, label)

    # -- models and thinking -------------------------------------------------------------------------

    def available_models(self) -> list[Model]:
        return list(self._models())

    def set_model(self, provider: str, model_id: str) -> Model:
        for model in self._models():
            if model.provider == provider and model.id == model_id:
                self.session.set_model(model)
                return model
        raise ControlError(f"Model not found: {provider}/{model_id}")

    def cycle_model(self) -> Model | None:
        """The next model after the current one (None when there is no other): of ``scoped``
        when it holds any available model, each switching to its own thinking level when it
        names one (Pi's ``--models sonnet:high,haiku:low``); else of every available model."""
        if self.scoped:
            return self._cycle_scoped()
        models = self.available_models()
        current = self.session.model
        keys = [(m.provider, m.id) for m in models]
        if len(models) < 2 and (current.provider, current.id) in keys:
            return None
        if not models:
            return None
        try:
            index = (keys.index((current.provider, current.id)) + 1) % len(models)
        except ValueError:
            index = 0
        self.session.set_model(models[index], "cycle")
        return models[index]

    def _cycle_scoped(self) -> Model | None:
        available = {(m.provider, m.id): m for m in self.available_models()}
        scope = [s for s in self.scoped if (s.model.provider, s.model.id) in available]
        if len(scope) < 2:
            return None
        current = self.session.model
        keys = [(s.model.provider, s.model.id) for s in scope]
        here = (current.provider, current.id)
        chosen = scope[(keys.index(here) + 1) % len(scope) if here in keys else 0]
        model = available[(chosen.model.provider, chosen.model.id)]
        self.session.set_model(model)
        if chosen.thinking_level is not None:
            self.session.set_thinking_level(chosen.thinking_level if model.reasoning else "off")
        return model

    def set_thinking_level(self, level: str) -> None:
        if level not in THINKING_LEVELS:
            raise ControlError(f"unknown thinking level {level!r}; one of {', '.join(THINKING_LEVELS)}")
        self.session.set_thinking_level(level)

    def cycle_thinking_level(self) -> ThinkingLevel | None:
        """The next level (None: the model does not reason, so the level stays "off")."""
        if not self.session.model.reasoning:
            return None
        current = self.session.thinking_level
        index = CYCLED_LEVELS.index(current) + 1 if current in CYCLED_LEVELS else 0
        level = CYCLED_LEVELS[index % len(CYCLED_LEVELS)]
        self.session.set_thinking_level(level)
        return level

    def set_steering_mode(self, mode: str) -> None:
        self.session.harness.steering_mode = _queue_mode(mode)

    def set_follow_up_mode(self, mode: str) -> None:
        self.session.harness.follow_up_mode = _queue_mode(mode)

    # -- reading ------------------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """Pi's ``get_session_stats`` data: counts, tokens and cost over the whole file."""
        from tau_agent.session.stats import session_stats  # only when asked: print mode never is

        file = self.session.session_file
        usage = self.session.context_usage()
        stats: dict[str, Any] = {
            "sessionFile": str(file) if file else None,
            "sessionId": self.session.session_id,
            **session_stats(self.session.log.entries).to_dict(),
        }
        if usage.window > 0:  # Pi leaves it out when no context window is known
            stats["contextUsage"] = {
                "tokens": usage.tokens,
                "contextWindow": usage.window,
                "percent": round(usage.percent, 1),
            }
        return stats

    def approve_plan(self, mode: PermissionMode) -> str:
        """The user approved the plan (the last reply) made in plan mode: its steps become the
        task list (``plan_to_todos``), the permission mode becomes ``mode``, and the returned
        message is what the frontend sends so the model carries the plan out."""
        gate = self.session.permissions
        if gate is None or gate.mode != "plan":
            raise ControlError("there is no plan to approve: the session is not in plan mode")
        if mode == "plan":
            raise ControlError("approving a plan leaves plan mode: choose another mode")
        self._ensure_idle("approve the plan")
        plan = self.last_assistant_text() or ""
        steps = self.plan_to_todos(self.session, plan) if self.plan_to_todos is not None else 0
        gate.set_mode(mode)
        if not steps:
            return PLAN_APPROVED
        self.path_moved()  # the list in force changed: frontends show the new one
        return f"{PLAN_APPROVED} Its {steps} steps are the task list now: keep it current with the todo tool."

    def last_assistant_text(self) -> str | None:
        for message in reversed(self.session.messages):
            if isinstance(message, AssistantMessage) and message.stop_reason not in ("error", "aborted"):
                return message.text
        return None

    def export_html(self, out: str | Path | None = None) -> Path:
        """Write the session as one HTML file (default: ``<session file name>.html`` in cwd), or
        as Markdown when ``out`` ends in ``.md`` (``/export notes.md``, as Pi's CLI does)."""
        from tau_coding.session.store.export_html import session_html  # markdown-it, pygments: on use
        from tau_coding.session.store.export_markdown import session_markdown

        log = self.session.log
        file = self.session.session_file
        stem = file.stem if file is not None else f"tau-session-{log.header.id}"
        target = Path(out).expanduser() if out else self.session.cwd / f"{stem}.html"
        if not target.is_absolute():
            target = self.session.cwd / target
        if target.suffix.lower() in (".md", ".markdown"):
            text = session_markdown(log.header, log.state())
        else:
            text = session_html(log.header, log.entries, log.state())
        atomic_write_bytes(target, text.encode("utf-8"))
        return target

    # -- compaction ----------------------------------------------------------------------------------

    async def compact(self, custom_instructions: str | None = None) -> CompactionResult:
        """Summarise older messages now (``CodingSession.compact``: SummaryError says why not)."""
        self._ensure_idle("compact")
        return await self.session.compact(custom_instructions)

    def set_auto_compaction(self, enabled: bool) -> None:
        self.session.set_auto_compaction(enabled)

    def context_usage(self) -> ContextUsage:
        return self.session.context_usage()

    @property
    def auto_compaction_enabled(self) -> bool:
        return self.session.auto_compaction_enabled

    @property
    def is_compacting(self) -> bool:
        return self.session.is_compacting

    # -- checkpoints (rewind.py) ----------------------------------------------------------------------

    def list_checkpoints(self) -> list[RewindPoint]:
        """The checkpoints a rewind may go back to, oldest first, with what changed since each."""
        try:
            return checkpoints_of(self.session).points(self.session.log)
        except CheckpointError as exc:
            raise ControlError(str(exc)) from exc

    def preview_checkpoint(self, checkpoint_id: str) -> tuple[FileChange, ...]:
        """The files restoring ``checkpoint_id``'s code would change, as they are now."""
        try:
            record = find(self.session, checkpoint_id)
            return checkpoints_of(self.session).preview(record.checkpoint_id)
        except CheckpointError as exc:
            raise ControlError(str(exc)) from exc

    async def restore_checkpoint(self, checkpoint_id: str, restore: str) -> RewindOutcome:
        """Rewind to ``checkpoint_id``: ``code``, ``conversation``, ``both`` or ``summarize``."""
        self._ensure_idle("rewind")
        try:
            return await rewind(self.session, checkpoint_id, restore, self.navigate, self.summarize_move)
        except CheckpointError as exc:
            raise ControlError(str(exc)) from exc

    # -- reload -------------------------------------------------------------------------------------

    def reload(self) -> CodingSession:
        """Re-read settings, models, resources and tools; the conversation continues unchanged."""
        self._ensure_idle("reload")
        if self._rebuild is None:
            raise ControlError("reload is not available for this session")
        self._leave("reload", None)
        self.session = self._rebuild(self.session)
        self.session.reloader = self.reload
        for listener in list(self.reloaded):
            listener(self.session)
        return self.session


def _queue_mode(mode: str) -> QueueMode:
    if mode not in QUEUE_MODES:
        raise ControlError(f"unknown mode {mode!r}; one of {', '.join(QUEUE_MODES)}")
    return "all" if mode == "all" else "one-at-a-time"


__all__ = ["ChangeRefusedError", "ControlError", "ForkMessage", "OutsideChange", "SessionControl"]
