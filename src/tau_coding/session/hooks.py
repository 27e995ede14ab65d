"""SessionHooks: the doors a CodingSession opens to extensions and shell hooks.

A CodingSession with ``hooks`` set calls them at fixed points of its life. Tool calls, tool
results and the model's context go through the harness's own seams instead (``before_tool_call``,
``after_tool_call``, ``transform_context``). Implementations must not raise for a failing
extension: failure is reported and decided inside (see ``tau_coding.extensions.doors``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, TypeAlias

from tau_agent.content import ImageContent
from tau_agent.messages import AssistantMessage, CustomMessage
from tau_agent.provider import ThinkingLevel
from tau_ai.model import Model
from tau_coding.session.events import InputHandledEvent

if TYPE_CHECKING:
    from tau_agent.session.entries import BranchSummaryEntry

# What to send instead (text, images), or that the input was handled without the model.
InputDecision: TypeAlias = tuple[str, list[ImageContent]] | InputHandledEvent
# A command's handler: ``handler(args)``, plain or async, returning text to show or None.
OwnCommand: TypeAlias = Callable[[str], object]


ChangeKind: TypeAlias = Literal["new", "resume", "fork", "tree"]
ModelSource: TypeAlias = Literal["set", "cycle", "restore"]
LeaveReason: TypeAlias = Literal["reload", "new", "resume", "fork"]


# Plain classes, not dataclasses: every run imports this module, and making a dataclass costs
# start-up time (~0.2 ms each).


class SessionChange:
    """The transcript is about to become another path (or just did).

    ``new``: a fresh session; ``resume``: another session file; ``fork``: a new session from
    an entry (``entry_id``; ``position`` "before" it, or "at" it for a clone); ``tree``: a move
    inside this session to ``entry_id`` (``old_leaf`` is where it was). A move in the tree
    that summarises the branch left behind says so (``summarize``, with the mover's
    ``custom_instructions``, ``replace_instructions`` and ``label``); once done it names the ``summary_entry`` recorded
    and whether an extension wrote it (``from_extension``)."""

    __slots__ = (
        "custom_instructions",
        "entry_id",
        "from_extension",
        "kind",
        "label",
        "old_leaf",
        "position",
        "previous_file",
        "replace_instructions",
        "summarize",
        "summary_entry",
        "target_file",
    )

    def __init__(
        self,
        kind: ChangeKind,
        previous_file: str | None = None,
        target_file: str | None = None,
        entry_id: str | None = None,
        position: Literal["before", "at"] = "before",
        old_leaf: str | None = None,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        label: str | None = None,
        replace_instructions: bool = False,
    ) -> None:
        self.kind, self.previous_file, self.target_file = kind, previous_file, target_file
        self.replace_instructions = replace_instructions
        self.entry_id, self.position, self.old_leaf = entry_id, position, old_leaf
        self.summarize, self.custom_instructions, self.label = summarize, custom_instructions, label
        self.summary_entry: BranchSummaryEntry | None = None
        self.from_extension = False


class ChangeAnswer:
    """What the hooks made of a change: ``refusal`` (the reason) refuses it; otherwise, for a
    move in the tree that summarises, ``summary`` (with ``details``) is recorded instead of
    asking the model, and ``custom_instructions``/``label`` (when not None) replace the
    mover's, as ``replace_instructions`` does; for a fork, ``keep_editor`` hands no text back
    to the editor."""

    __slots__ = (
        "custom_instructions",
        "details",
        "keep_editor",
        "label",
        "refusal",
        "replace_instructions",
        "summary",
    )

    def __init__(
        self,
        refusal: str | None = None,
        *,
        summary: str | None = None,
        details: object = None,
        custom_instructions: str | None = None,
        label: str | None = None,
        keep_editor: bool = False,
        replace_instructions: bool | None = None,
    ) -> None:
        self.refusal, self.summary, self.details = refusal, summary, details
        self.replace_instructions = replace_instructions
        self.custom_instructions, self.label, self.keep_editor = custom_instructions, label, keep_editor


AGREED = ChangeAnswer()  # nothing refused, nothing changed (shared: never mutate it)


class UserBashOutcome:
    """What hooks make of a user's ``!cmd``: run ``command`` instead, or (``output`` set) do
    not run anything and record this output and exit code."""

    __slots__ = ("command", "exit_code", "output")

    def __init__(self, command: str | None = None, output: str | None = None, exit_code: int = 0) -> None:
        self.command, self.output, self.exit_code = command, output, exit_code


class SessionHooks(Protocol):
    async def on_start(self) -> None:
        """Once, before the session's first prompt."""
        ...

    async def on_input(self, text: str, images: Sequence[ImageContent]) -> InputDecision:
        """Each prompt as typed, before templates and skills expand it."""
        ...

    async def on_stop(self, stop_hook_active: bool, last: AssistantMessage | None) -> str | None:
        """The run is about to settle; a returned text is sent as the next user message."""
        ...

    async def on_pre_compact(self, trigger: Literal["manual", "auto"], custom_instructions: str) -> None:
        """Before the session compacts its context (called by the compaction code)."""
        ...

    def command_list(self) -> Sequence[tuple[str, str]]:
        """Slash commands the hooks handle, as (name, description), for completion menus."""
        ...

    def own_command(self, name: str) -> OwnCommand | None:
        """The handler of ``/name`` when Tau's built-in extension registered it (the frontend's
        own commands among them): the frontend runs it itself, outside any prompt."""
        ...

    def render_message(self, message: CustomMessage) -> str | None:
        """Text for an app-defined message, if a renderer claims its custom type."""
        ...

    def shortcut_list(self) -> Sequence[tuple[str, str]]:
        """Keys the hooks handle, as (key, description), for a frontend to bind (not the keys
        Tau's built-in extension registered: the frontend that registered them binds them)."""
        ...

    async def on_shortcut(self, key: str) -> str | None:
        """A bound key was pressed; returns text to show, if any."""
        ...

    def on_close(self) -> None:
        """The session is closing (no event loop may be running)."""
        ...

    def before_change(self, change: SessionChange) -> str | None:
        """Asked before a new, switched, forked session or a move in the tree; a returned text
        refuses the change and says why (called from synchronous code)."""
        ...

    async def ask_change(self, change: SessionChange) -> ChangeAnswer:
        """``before_change`` asked from async code: every handler is awaited, so an async
        one's refusal counts too, and its answer may say more than yes or no."""
        ...

    def after_change(self, change: SessionChange) -> None:
        """The change happened (the session now continues on the new path)."""
        ...

    def on_leave(self, reason: LeaveReason, target_file: str | None) -> None:
        """The session is about to be left, the change agreed: reloaded, or continued in
        ``target_file`` (a new, resumed or forked session; None when it is not stored)."""
        ...

    def on_model_select(self, model: Model, previous: Model | None, source: ModelSource) -> None:
        """Another model is in use from the next request on."""
        ...

    def on_thinking_select(self, level: ThinkingLevel, previous: ThinkingLevel) -> None:
        """Another thinking level is in use from the next request on."""
        ...

    async def on_user_bash(self, command: str, exclude_from_context: bool) -> UserBashOutcome | None:
        """A user's ``!cmd`` is about to run in ``cwd``; None runs it as typed."""
        ...
