"""ChangeQuestions: how SessionControl asks extensions before it changes the session's path.

Mixed into ``SessionControl`` (control.py). A new, switched, imported, cloned or forked
session, or a move in the tree, is put to the session's hooks first (``session_before_*``):
from synchronous code only a plain handler's refusal counts (``before_change``); inside
``asking`` every handler is awaited (``ask_change``). Once agreed, a change that leaves the
session tells the hooks (``on_leave``: ``session_shutdown``) before the transcript changes,
and the hooks hear of the change once it is done (``after_change``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.hooks import LeaveReason, SessionChange

T = TypeVar("T")


class ControlError(ValueError):
    """The operation cannot be done as asked; the message says why in one line."""


class ChangeRefusedError(ControlError):
    """An extension's ``session_before_*`` handler refused the change; the message says which."""


class ChangeQuestions:
    session: CodingSession
    _asking: bool  # inside ``asking``: the first run, which stops at the question
    _answered: SessionChange | None  # the change ``asking`` has an answer for

    def _current_file(self) -> str | None:
        path = self.session.session_file
        return None if path is None else str(path)

    def _ask_hooks(self, change: SessionChange) -> None:
        """Extensions may refuse the change (``session_before_*``): ChangeRefusedError. Inside
        ``asking`` the question is put to them asynchronously instead (see there)."""
        hooks = self.session.hooks
        if hooks is None:
            return
        if self._asking:
            raise _AskFirst(change)
        answered, self._answered = self._answered, None
        if answered is not None and _same_change(answered, change):
            return
        if (reason := hooks.before_change(change)) is not None:
            raise ChangeRefusedError(reason)

    async def asking(self, operation: Callable[[], T]) -> T:
        """``operation()`` (a call of ``new_session``, ``switch_session``, ``import_session``,
        ``clone``, ``fork`` or ``navigate``) with the extensions' ``session_before_*`` handlers
        awaited, so an async handler's ``Cancel`` counts as a plain one's does.

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
        if hooks is not None and (reason := await hooks.ask_change(change)) is not None:
            raise ChangeRefusedError(reason)
        self._answered = change
        try:
            return operation()
        finally:
            self._answered = None

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
            hooks.after_change(
                SessionChange(
                    change.kind,
                    change.previous_file,
                    self._current_file() if change.kind != "tree" else change.target_file,
                    change.entry_id,
                    change.position,
                    change.old_leaf,
                )
            )


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
