"""SessionPort: everything the TUI asks of a session, and nothing more, in roles.

The TUI never reaches into configuration, credentials or storage; it talks to one object that
satisfies this Protocol. ``SessionPort`` is the sum of small role Protocols (the run, status,
commands, models, stored sessions, the tree, account); a screen or helper takes only the role
it uses. ``modes/interactive/session_port`` implements it over a CodingSession; the tests'
``HarnessSessionAdapter`` implements it over a bare AgentHarness.

Contract a caller may rely on:
- ``prompt`` starts a run and yields its AgentEvents; it is only called while ``is_running`` is
  False. ``steer``/``follow_up`` are only called while a run is active.
- ``cancel`` is cooperative: the iterator from ``prompt`` keeps yielding until the run has closed.
- ``run_command`` returns None for a command Tau's built-in extension did not register; the TUI
  then sends the text to the session as a prompt (an extension's command, a template, a skill,
  or ``/tmp/x is odd``, which still reaches the model unchanged).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from tau_agent.content import ImageContent
from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEvent
from tau_agent.messages import AgentMessage, BashExecutionMessage, CustomMessage
from tau_agent.spent import Spent
from tau_coding.tui.items import RunNotice
from tau_coding.tui.rewind_port import DoubleEscapeAction, RewindChoice, RewindPoints
from tau_coding.tui.tree_port import TreeFilter, TreeRow, TreeRows

__all__ = [  # the tree's vocabulary lives in tree_port; importing it from here keeps working
    "AccountPort",
    "CommandPort",
    "CommandResult",
    "CommandSpec",
    "ConversationPort",
    "ForkPoint",
    "ModelPort",
    "QueuedMessages",
    "RewindPort",
    "SessionInfo",
    "SessionPort",
    "StatusPort",
    "StoredSession",
    "StoredSessionsPort",
    "TreeFilter",
    "TreePort",
    "TreeRow",
    "TreeRows",
]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """What the footer and /session show. ``None`` means unknown, shown as such."""

    cwd: str
    model_label: str
    thinking_level: str = "off"
    session_name: str | None = None
    session_id: str | None = None
    session_file: str | None = None
    git_branch: str | None = None
    context_tokens: int | None = None
    context_window: int | None = None
    permission_mode: str | None = None  # None: no permission engine (shown as nothing)


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A slash command as the completion menu lists it (``name`` without the slash)."""

    name: str
    description: str
    argument_hint: str = ""


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command did: text to show (``is_error`` styles it as an error)."""

    message: str = ""
    is_error: bool = False
    editor_text: str | None = None  # text to put in the editor (a fork's message)
    replaced_transcript: bool = False  # the record changed wholesale: repaint from ``messages``


@dataclass(frozen=True, slots=True)
class StoredSession:
    """A row of the /resume picker. ``ref`` is what switch/rename/delete take back."""

    ref: str
    title: str
    cwd: str
    modified: str  # already formatted for display (local time, minutes)
    message_count: int
    is_current: bool = False


@dataclass(frozen=True, slots=True)
class ForkPoint:
    """A user message a /fork may start from (the new session holds what came before it)."""

    entry_id: str
    text: str


@dataclass(frozen=True, slots=True)
class QueuedMessages:
    """Messages taken back from the session's queues, oldest first."""

    steering: list[str] = field(default_factory=list)
    follow_up: list[str] = field(default_factory=list)


class ConversationPort(Protocol):
    """The run: the record, prompting, queueing, cancelling, ``!commands``."""

    @property
    def messages(self) -> Sequence[AgentMessage]:
        """The record as it stands, for the first render and for seeding the prompt history."""
        ...

    @property
    def is_running(self) -> bool: ...

    def prompt(
        self, text: str, images: Sequence[ImageContent] = ()
    ) -> AsyncIterator[AgentEvent | RunNotice | EventBatch]:
        """Start a run with ``text`` (and ``images``) as the user's message; events flow as the
        iterator is consumed (with a ``RunNotice`` where the session has something to say, e.g.
        a retry, or images it did not send). A streaming reply's events may come as an
        ``EventBatch`` (one network read's, ``tau_agent/event_batch.py``): one item, so one
        message to the app, per read rather than per delta."""
        ...

    def steer(self, text: str) -> None:
        """Deliver ``text`` after the current tool call; the reply's remaining calls are skipped."""
        ...

    def follow_up(self, text: str) -> None:
        """Deliver ``text`` when the run would otherwise stop."""
        ...

    def cancel(self) -> None: ...

    def clear_queues(self) -> QueuedMessages:
        """Take back every queued message so the user can edit it."""
        ...

    async def run_bash(self, command: str, *, exclude_from_context: bool) -> BashExecutionMessage:
        """Run ``!cmd`` (``!!cmd`` excludes it from the model's context); the message joins the record."""
        ...

    def render_custom(self, message: CustomMessage) -> str | None:
        """How an app-defined message reads in the transcript; None: its own content."""
        ...


class StatusPort(Protocol):
    """What the footer and /session show."""

    def info(self) -> SessionInfo: ...

    def resume_hint(self) -> str | None:
        """The line printed on exit that tells how to come back (None: nothing to resume)."""
        ...

    def spent(self) -> Spent:
        """Tokens and cost of every reply in the session, on every branch, as Pi's footer sums
        them: a compaction or a move in the tree leaves what was paid for counted."""
        ...


class CommandPort(Protocol):
    """Slash commands and keys beyond the TUI's own."""

    def commands(self) -> Sequence[CommandSpec]:
        """Commands beyond the TUI's own (templates, skills, extensions, session commands)."""
        ...

    async def run_command(self, name: str, args: str) -> CommandResult | None:
        """Run ``/name args`` if Tau's built-in extension registered it (the TUI's own commands
        among them, see ``modes/interactive/tui_builtins.py``); None otherwise: the TUI then runs
        its own table's command, if the port registered none, or sends the text as a prompt."""
        ...

    def shortcuts(self) -> Sequence[tuple[str, str]]:
        """Extra keys (extensions'), as (key, description), for the app to bind."""
        ...

    async def run_shortcut(self, key: str) -> CommandResult | None:
        """One of ``shortcuts()`` was pressed; a result with a message is shown."""
        ...


class ModelPort(Protocol):
    """Models and thinking levels: the /model picker, Ctrl+P, Shift+Tab."""

    def models(self) -> Sequence[str]:
        """Model labels (``provider/id``) the /model picker offers; empty when switching is unsupported."""
        ...

    def set_model(self, label: str) -> CommandResult: ...

    def thinking_levels(self) -> Sequence[str]:
        """Levels the current model supports, in cycling order; empty when it cannot think."""
        ...

    def set_thinking_level(self, level: str) -> None: ...

    def scoped_models(self) -> Sequence[str]:
        """Labels Ctrl+P cycles through (empty: all of ``models()``)."""
        ...

    def set_scoped_models(self, labels: Sequence[str]) -> None: ...

    def scoped_level(self, label: str) -> str | None:
        """The thinking level Ctrl+P switches to with scoped model ``label`` (``--models x:high``);
        None keeps the current level."""
        ...


class StoredSessionsPort(Protocol):
    """This session's file and the others: /new, /name, /resume, /export, /compact, /reload."""

    def set_session_name(self, name: str) -> None: ...

    async def new_session(self) -> CommandResult:
        """Start a fresh session; an error result says why not (an extension refused, or this
        session cannot)."""
        ...

    def list_sessions(self, *, everywhere: bool) -> Sequence[StoredSession]:
        """Stored sessions, newest first: this project's, or every project's."""
        ...

    async def switch_session(self, ref: str) -> CommandResult: ...

    async def clone_session(self) -> CommandResult:
        """Continue in a copy of the current path (/clone)."""
        ...

    async def import_session(self, path: str) -> CommandResult:
        """Continue in a copy of a session file from anywhere (/import)."""
        ...

    def rename_session(self, ref: str, name: str) -> CommandResult: ...

    def delete_session(self, ref: str) -> CommandResult:
        """Refused for the session in use."""
        ...

    async def compact(self, focus: str | None) -> CommandResult: ...

    def export_html(self, path: str | None) -> CommandResult: ...

    def reload(self) -> CommandResult: ...


class TreePort(Protocol):
    """The session's tree: /tree, labels, /fork."""

    def tree(self, filter: TreeFilter = "default") -> TreeRows:
        """The session's tree as rows, listing the entries ``filter`` keeps."""
        ...

    async def navigate(self, entry_id: str) -> CommandResult: ...

    async def branch_with_summary(self, entry_id: str) -> CommandResult:
        """Like ``navigate``, and the path left behind is summarised into the new branch."""
        ...

    def set_label(self, entry_id: str, label: str | None) -> CommandResult: ...

    def fork_points(self) -> Sequence[ForkPoint]: ...

    async def fork(self, entry_id: str) -> CommandResult:
        """A new session up to that message; ``editor_text`` carries the message for editing."""
        ...


class AccountPort(Protocol):
    """Settings and credentials: /settings, /login, /logout."""

    def settings(self) -> Sequence[tuple[str, str]]:
        """Effective settings as (key, value) rows for the /settings screen."""
        ...

    def apply_setting(self, key: str, value: object) -> None:
        """Put a setting the /settings editor just saved into force now where the session can
        (``steeringMode``, ``followUpMode``, ``compaction.enabled``, ``retry.enabled``); the
        others take effect where they are next read."""
        ...

    def login(self, provider: str, key: str) -> CommandResult: ...

    def logout(self, provider: str) -> CommandResult: ...

    def subscription_logins(self) -> Sequence[tuple[str, str, bool]]:
        """(provider, what it is, logged in?) for each subscription /login offers."""
        ...

    async def subscription_login(self, provider: str, show: Callable[[str], object]) -> CommandResult:
        """Run ``provider``'s login (OAuth in the browser or a device code); ``show`` gets the
        URL to open and progress lines. Cancelling the call cancels the login."""
        ...


class PermissionPort(Protocol):
    """The permission mode (docs/permissions.md): shown in the footer, cycled with Shift+Tab."""

    def cycle_permission_mode(self) -> str | None:
        """Switch to the next mode and return it (None: the session has no permission engine)."""
        ...

    def set_permission_mode(self, mode: str) -> None:
        """Switch to ``mode`` (a name ``permissions.modes.parse_mode`` knows)."""
        ...

    def approve_plan(self, mode: str) -> str:
        """The user approved the plan made in plan mode: its steps become the task list and the
        mode becomes ``mode``. Returns the message to send so the model carries the plan out."""
        ...


class RewindPort(Protocol):
    """Checkpoints of the files: /rewind, and Esc Esc when ``doubleEscapeAction`` says so."""

    def rewind_points(self) -> RewindPoints: ...

    def rewind_preview(self, checkpoint_id: str) -> CommandResult:
        """The files a code restore would change, one line each, as ``message``."""
        ...

    async def rewind(self, checkpoint_id: str, choice: RewindChoice) -> CommandResult:
        """``editor_text`` carries the prompt back when the conversation went before it."""
        ...

    def double_escape_action(self) -> DoubleEscapeAction:
        """What Esc Esc on an empty editor opens (the ``doubleEscapeAction`` setting)."""
        ...


@runtime_checkable
class SessionPort(
    ConversationPort,
    StatusPort,
    CommandPort,
    ModelPort,
    StoredSessionsPort,
    TreePort,
    AccountPort,
    PermissionPort,
    RewindPort,
    Protocol,
):
    """Everything an interactive frontend needs from a session; each part names one role."""
