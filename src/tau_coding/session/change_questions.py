"""ChangeQuestions: how SessionControl asks extensions before it changes the session's path.

Mixed into ``SessionControl`` (control.py). A new, switched, imported, cloned or forked
session, or a move in the tree, is put to the session's hooks first (``session_before_*``):
from synchronous code only a plain handler's refusal counts (``before_change``); inside
``asking`` every handler is awaited (``ask_change``) and its whole answer counts (a fork that
keeps the editor). A move that summarises the branch left behind is async by nature
(``summarize_move``) and always awaits them: a handler may write the summary itself. Once
agreed, a change that leaves the session tells the hooks (``on_leave``: ``session_shutdown``)
before the transcript changes, and the hooks hear of the change once it is done
(``after_change``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeVar

from tau_agent.harness import AgentBusyError
from tau_agent.session.entries import BranchSummaryEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.hooks import AGREED, ChangeAnswer, LeaveReason, SessionChange

T = TypeVar("T")


class ControlError(ValueError):
    """The operation cannot be done as asked; the message says why in one line."""


class ChangeRefusedError(ControlError):
    """An extension's ``session_before_*`` handler refused the change; the message says which."""


OutsideKind = Literal["new", "resume", "fork", "clone", "tree"]


class OutsideChange:
    """A change an extension made (``tau.sessions``), told to ``SessionControl.outside_change``
    listeners once done: its ``kind`` and the text to put in the editor (None: leave it)."""

    __slots__ = ("editor_text", "kind")

    def __init__(self, kind: OutsideKind, editor_text: str | None = None) -> None:
        self.kind, self.editor_text = kind, editor_text


class ChangeQuestions:
    session: CodingSession
    _asking: bool  # inside ``asking``: the first run, which stops at the question
    _answered: SessionChange | None  # the change ``asking`` has an answer for
    _answer: ChangeAnswer = AGREED  # what the hooks said of it

    def path_moved(self) -> None:
        raise NotImplementedError

    def _current_file(self) -> str | None:
        path = self.session.session_file
        return None if path is None else str(path)

    def _ask_hooks(self, change: SessionChange) -> ChangeAnswer:
        """Extensions may refuse the change (``session_before_*``): ChangeRefusedError. Inside
        ``asking`` the question is put to them asynchronously instead (see there)."""
        hooks = self.session.hooks
        if hooks is None:
            return AGREED
        if self._asking:
            raise _AskFirst(change)
        answered, self._answered = self._answered, None
        if answered is not None and _same_change(answered, change):
            return self._answer
        if (reason := hooks.before_change(change)) is not None:
            raise ChangeRefusedError(reason)
        return AGREED

    async def asking(self, operation: Callable[[], T]) -> T:
        """``operation()`` (a call of ``new_session``, ``switch_session``, ``import_session``,
        ``clone``, ``fork`` or ``navigate``) with the extensions' ``session_before_*`` handlers
        awaited, so an async handler's answer counts as a plain one's does.

        The operation runs up to its question (these operations change nothing before it),
        stops there; the handlers are awaited; then it runs again and goes through with that
        answer (or ChangeRefusedError)."""
        self._asking = True
        try:
            return operation()
        except _AskFirst as first:
            change = first.change
        finally:
            self._asking = False
        hooks = self.session.hooks
        answer = AGREED if hooks is None else await hooks.ask_change(change)
        if answer.refusal is not None:
            raise ChangeRefusedError(answer.refusal)
        self._answered, self._answer = change, answer
        try:
            return operation()
        finally:
            self._answered, self._answer = None, AGREED

    async def summarize_move(
        self,
        entry_id: str | None,
        *,
        custom_instructions: str | None = None,
        label: str | None = None,
        replace_instructions: bool = False,
    ) -> BranchSummaryEntry | None:
        """Move to ``entry_id`` (None: the root) with a summary of the branch left behind.

        ``session_before_tree`` is asked first with every handler awaited: one may refuse
        (ChangeRefusedError), write the summary itself (recorded with ``fromHook``, the model
        is not asked), or replace the instructions or the label. ``label`` labels the summary
        (else the target). ``replace_instructions``: the custom instructions are the summariser's
        whole instruction instead of an addition to its own. Returns the summary entry, None when the branch left behind held
        nothing to summarise; a failed summary raises and leaves the session where it was."""
        session = self.session
        if session.is_running:
            raise AgentBusyError("Cannot move in the tree while the agent is running; abort it first")
        log = session.log
        if entry_id is not None and entry_id not in log.tree:
            raise ControlError(f"no entry {entry_id!r} in this session")
        current = self._current_file()
        change = SessionChange(
            "tree", current, current, entry_id, old_leaf=log.leaf_id,
            summarize=True, custom_instructions=custom_instructions, label=label,
            replace_instructions=replace_instructions,
        )  # fmt: skip
        answer = AGREED if session.hooks is None else await session.hooks.ask_change(change)
        if answer.refusal is not None:
            raise ChangeRefusedError(answer.refusal)
        if answer.custom_instructions is not None:
            custom_instructions = answer.custom_instructions
        if answer.label is not None:
            label = answer.label
        if answer.replace_instructions is not None:
            replace_instructions = answer.replace_instructions
        if answer.summary is not None:
            if session.is_running:  # started while the handlers were asked
                raise AgentBusyError("Cannot move in the tree while the agent is running; abort it first")
            entry: BranchSummaryEntry | None = log.append_branch_summary(
                entry_id, answer.summary, answer.details, from_hook=True
            )
            session.harness.replace_messages(log.state().messages, repaired=True)
            change.from_extension = True
        else:
            entry = await session.navigate(
                entry_id,
                summarize=True,
                custom_instructions=custom_instructions,
                replace_instructions=replace_instructions,
            )
        change.summary_entry = entry
        labelled = entry.id if entry is not None else entry_id
        if label and labelled is not None:
            log.set_label(labelled, label)
        self.path_moved()
        self._tell_hooks(change)
        return entry

    def _leave(self, reason: LeaveReason, log: SessionLog | None) -> None:
        """Extensions hear ``session_shutdown`` (the change agreed, the transcript not changed yet)."""
        hooks = self.session.hooks
        if hooks is not None:
            storage = log.storage if log is not None else None
            target = str(storage.path) if isinstance(storage, JsonlSessionStorage) else None
            hooks.on_leave(reason, target)

    def _tell_hooks(self, change: SessionChange) -> None:
        hooks = self.session.hooks
        if hooks is not None:
            done = SessionChange(
                change.kind,
                change.previous_file,
                self._current_file() if change.kind != "tree" else change.target_file,
                change.entry_id,
                change.position,
                change.old_leaf,
                summarize=change.summarize,
            )
            done.summary_entry, done.from_extension = change.summary_entry, change.from_extension
            hooks.after_change(done)


class _AskFirst(Exception):
    """Inside ``SessionControl.asking``: the operation reached its question."""

    def __init__(self, change: SessionChange) -> None:
        super().__init__(change.kind)
        self.change = change


def _same_change(a: SessionChange, b: SessionChange) -> bool:
    return (a.kind, a.previous_file, a.target_file, a.entry_id, a.position, a.old_leaf) == (
        b.kind,
        b.previous_file,
        b.target_file,
        b.entry_id,
        b.position,
        b.old_leaf,
    )
