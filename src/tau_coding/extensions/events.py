"""What an extension's interception handlers receive and may return.

``tau.on(name, handler)`` subscribes to any agent or session event by its ``type`` (``"*"``
for all of them, as they are announced) or to one of the interception points below. An
interception handler may return ``None`` to leave things as they are; handlers of one
point run in load order, each seeing what the previous one produced.

============================  ========================  =============================================
point                         handler receives          handler may return
============================  ========================  =============================================
``input``                     ``InputEvent``            ``InputTransform`` or ``InputHandled``
``before_agent_start``        ``AgentStartEvent``       ``AgentStartPatch`` (system prompt, a message)
``tool_call``                 ``ToolCallEvent``         ``ToolCallDecision`` (block, or new input)
``tool_result``               ``ToolResultEvent``       ``ToolResultPatch``
``context``                   ``ContextEvent``          a new list of messages for this one call
``before_provider_request``   ``ProviderRequestEvent``  a replacement payload (a dict)
``user_bash``                 ``UserBashEvent``         ``UserBashPatch`` (another command, or output)
``session_start``             ``SessionStartEvent``     nothing
``resources_discover``        ``ResourcesEvent``        ``ResourcePaths`` (more skills and prompts)
``session_before_switch``     ``SwitchEvent``           ``Cancel`` (async handlers too: see below)
``session_before_fork``       ``ForkEvent``             ``Cancel`` or ``ForkDecision``
``session_before_tree``       ``TreeEvent``             ``Cancel`` or ``TreeDecision`` (a summary)
``session_tree``              ``TreeEvent``             nothing
``session_before_compact``    ``CompactEvent``          ``CompactDecision`` (cancel, a summary, or all)
``message_end``               the session event         ``MessagePatch`` (the message to record)
``after_provider_response``   status, headers (HTTP)    nothing (told before the body is read)
``model_select``              ``ModelSelectEvent``      nothing
``thinking_level_select``     ``ThinkingSelectEvent``   nothing
``stop``                      ``StopEvent``             ``StopDecision`` (continue with a message)
``session_shutdown``          ``ShutdownEvent``         nothing (on quit plain functions only)
============================  ========================  =============================================

``session_before_switch``/``_fork``/``_tree``: the TUI, RPC, the SDK and ``tau.sessions``
await every handler (``SessionControl.asking``), so a plain or an async handler's answer
counts; ``SessionControl``'s own methods called from synchronous code count a plain
handler's ``Cancel`` only. ``session_start`` is told again
after a new, resumed or forked session (``source`` says which), as Pi does. ``model_select`` and ``thinking_level_select`` are delivered like
agent events (queued for plain handlers), so setting the model from a handler is safe.

The types are plain (mutable, compared by identity) dataclasses: building frozen ones costs
start-up time that every run with an extension would pay. Treat received events as read-only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from tau_agent.content import ImageContent, ToolResultContent
from tau_agent.messages import AgentMessage, CustomMessage

if TYPE_CHECKING:
    from tau_agent.provider import ThinkingLevel
    from tau_agent.session.entries import BranchSummaryEntry, SessionEntry
    from tau_ai.model import Model
    from tau_coding.session.compaction.result import CompactionResult

INTERCEPTION_POINTS = (
    "input",
    "before_agent_start",
    "tool_call",
    "tool_result",
    "context",
    "before_provider_request",
    "session_start",
    "resources_discover",
    "session_before_switch",
    "session_before_fork",
    "session_before_tree",
    "session_tree",
    "user_bash",
    "model_select",
    "thinking_level_select",
    "session_before_compact",
    "stop",
    "session_shutdown",
    "message_end",
    "after_provider_response",
)


@dataclass(eq=False)
class InputEvent:
    text: str
    images: Sequence[ImageContent] = ()
    source: Literal["interactive", "print", "rpc", "extension"] = "print"


@dataclass(eq=False)
class InputTransform:
    """Send this text (and these images) instead."""

    text: str
    images: Sequence[ImageContent] | None = None


@dataclass(eq=False)
class InputHandled:
    """The extension took care of the input; nothing goes to the model."""

    message: str | None = None


@dataclass(eq=False)
class AgentStartEvent:
    """A prompt is about to run: its text (as typed, after ``input`` handlers) and the system
    prompt as the previous ``before_agent_start`` handlers left it."""

    prompt: str
    images: Sequence[ImageContent]
    system_prompt: str


@dataclass(eq=False)
class AgentStartPatch:
    """``system_prompt`` replaces the system prompt for this prompt's run only (restored when it
    settles); ``message`` is a custom message put into the context (and the session file)
    before the user's message."""

    system_prompt: str | None = None
    message: CustomMessage | None = None


@dataclass(eq=False)
class ToolCallEvent:
    tool_name: str
    tool_call_id: str
    input: Mapping[str, Any]


@dataclass(eq=False)
class ToolCallDecision:
    """``block`` refuses the call (``reason`` goes to the model); ``input`` replaces its arguments.

    ``permission`` speaks to the permission engine (docs/permissions.md): ``"allow"`` runs a
    call that would ask, ``"ask"`` asks about one that would run; deny rules still hold.
    """

    block: bool = False
    reason: str | None = None
    input: dict[str, Any] | None = None
    permission: Literal["allow", "ask"] | None = None


@dataclass(eq=False)
class ToolResultEvent:
    tool_name: str
    tool_call_id: str
    input: Mapping[str, Any]
    content: Sequence[ToolResultContent]
    details: Any
    is_error: bool


@dataclass(eq=False)
class ToolResultPatch:
    """Fields left ``None`` keep the result's own."""

    content: list[ToolResultContent] | None = None
    details: Any = None
    is_error: bool | None = None


@dataclass(eq=False)
class ContextEvent:
    """A copy of the messages about to be sent; the record itself is never changed."""

    messages: list[AgentMessage]


@dataclass(eq=False)
class ProviderRequestEvent:
    provider: str
    model: str
    url: str
    payload: dict[str, Any]


@dataclass(eq=False)
class SessionStartEvent:
    """``previous_session_file`` is set for "new", "resume" and "fork" (the file left)."""

    session_id: str
    source: Literal["startup", "resume", "reload", "new", "fork"] = "startup"
    previous_session_file: str | None = None


@dataclass(eq=False)
class ResourcesEvent:
    """The session's skills and prompt templates are about to be loaded (plain handlers only:
    no loop runs yet)."""

    cwd: str


@dataclass(eq=False)
class ResourcePaths:
    """More skill and prompt-template files or folders, loaded after the user's own."""

    skill_paths: Sequence[str] = ()
    prompt_paths: Sequence[str] = ()


@dataclass(eq=False)
class SwitchEvent:
    """Before ``/new`` ("new") or ``/resume``, a switch or import ("resume", ``target_session_file``)."""

    reason: Literal["new", "resume"]
    target_session_file: str | None = None


@dataclass(eq=False)
class ForkEvent:
    """Before a fork from user message ``entry_id`` ("before" it) or a clone ("at" the leaf)."""

    entry_id: str
    position: Literal["before", "at"] = "before"


@dataclass(eq=False)
class ForkDecision:
    """``cancel`` refuses the fork (as ``Cancel`` does); ``skip_conversation_restore`` lets it
    go on but hands the message's text back to nobody: the editor keeps what it holds."""

    cancel: bool = False
    reason: str | None = None
    skip_conversation_restore: bool = False


@dataclass(eq=False)
class TreeEvent:
    """A move in the session tree from ``old_leaf_id`` to ``new_leaf_id`` (None: the root).

    Before the move (``session_before_tree``): ``user_wants_summary`` says the branch left
    behind is to be summarised, with the mover's ``custom_instructions`` (which replace the
    summariser's own instructions when ``replace_instructions``, else add to them) and ``label``, and
    ``entries_to_summarize`` are that branch's entries, oldest first. After it
    (``session_tree``): ``summary_entry`` is the branch summary recorded (None: none) and
    ``from_extension`` whether a handler's ``TreeDecision`` wrote it."""

    new_leaf_id: str | None
    old_leaf_id: str | None
    user_wants_summary: bool = False
    custom_instructions: str | None = None
    label: str | None = None
    entries_to_summarize: Sequence[SessionEntry] = ()
    summary_entry: BranchSummaryEntry | None = None
    from_extension: bool = False
    replace_instructions: bool = False


@dataclass(eq=False)
class TreeDecision:
    """``cancel`` refuses the move (as ``Cancel`` does). When the branch is summarised,
    ``summary`` (and ``details``, kept in the entry) is recorded as its summary without
    asking the model; ``custom_instructions`` and ``label`` replace the mover's (the first
    handler to set one wins, as with ``summary``); ``replace_instructions`` True makes the
    instructions replace the summariser's own prompt, False adds them to it (None: the mover's
    choice)."""

    cancel: bool = False
    reason: str | None = None
    summary: str | None = None
    details: Any = None
    custom_instructions: str | None = None
    label: str | None = None
    replace_instructions: bool | None = None


@dataclass(eq=False)
class Cancel:
    """Refuse the switch, fork or move; ``reason`` is shown (else one naming the extension)."""

    reason: str | None = None


@dataclass(eq=False)
class UserBashEvent:
    """A user's ``!cmd`` (``!!cmd``: ``exclude_from_context``) about to run in ``cwd``."""

    command: str
    exclude_from_context: bool
    cwd: str


@dataclass(eq=False)
class UserBashPatch:
    """``command`` runs instead; with ``output`` set nothing runs and this is the result."""

    command: str | None = None
    output: str | None = None
    exit_code: int = 0


@dataclass(eq=False)
class ModelSelectEvent:
    """``source``: "set" (``/model``, RPC, an extension), "cycle", or "restore" (a resumed path)."""

    type: ClassVar[str] = "model_select"
    model: Model
    previous_model: Model | None
    source: Literal["set", "cycle", "restore"]


@dataclass(eq=False)
class ThinkingSelectEvent:
    type: ClassVar[str] = "thinking_level_select"
    level: ThinkingLevel
    previous_level: ThinkingLevel


@dataclass(eq=False)
class CompactEvent:
    """``branch_entries``: the entries of the current path, root first (Pi's ``branchEntries``);
    ``tokens_before``: the context's size now, as Tau estimates it."""

    trigger: Literal["manual", "auto"]
    custom_instructions: str = ""
    branch_entries: Sequence[SessionEntry] = ()
    tokens_before: int = 0


@dataclass(eq=False)
class CompactDecision:
    """``cancel`` stops the compaction (nothing is written); ``summary`` is recorded as the
    compaction's summary instead of asking the model for one (the kept tail is Tau's choice);
    ``compaction`` is the whole compaction (Pi's shape: the summary, the first entry kept, the
    size before, ``details``), recorded once its ``first_kept_entry_id`` is checked."""

    cancel: bool = False
    summary: str | None = None
    compaction: CompactionResult | None = None


@dataclass(eq=False)
class StopEvent:
    """The run would stop now; ``stop_hook_active`` says it already continued because of a stop handler."""

    stop_hook_active: bool
    last_text: str = ""


@dataclass(eq=False)
class StopDecision:
    """Keep going: ``message`` is sent to the model as the next user message."""

    message: str


@dataclass(eq=False)
class ShutdownEvent:
    """``quit``: Tau exits; ``reload``: the extensions are about to be loaded again; ``new``,
    ``resume``, ``fork``: the session continues in ``target_session_file`` (None: not stored)."""

    reason: Literal["quit", "reload", "new", "resume", "fork"] = "quit"
    target_session_file: str | None = None
