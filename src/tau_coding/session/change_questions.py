"""ChangeQuestions: how SessionControl asks extensions before it changes the session's path.

Mixed into ``SessionControl`` (control.py). A new, switched, imported, cloned or forked
session, or a move in the tree, is put to the session's hooks first (``session_before_*``),
and the hooks hear of the change once it is done (``after_change``).
"""

from __future__ import annotations

from tau_coding.session.coding_session import CodingSession
from tau_coding.session.hooks import SessionChange


class ControlError(ValueError):
    """The operation cannot be done as asked; the message says why in one line."""


class ChangeRefusedError(ControlError):
    """An extension's ``session_before_*`` handler refused the change; the message says which."""


class ChangeQuestions:
    session: CodingSession

    def _current_file(self) -> str | None:
        path = self.session.session_file
        return None if path is None else str(path)

    def _ask_hooks(self, change: SessionChange) -> None:
        """Extensions may refuse the change (``session_before_*``): ChangeRefusedError."""
        hooks = self.session.hooks
        if hooks is not None and (reason := hooks.before_change(change)) is not None:
            raise ChangeRefusedError(reason)

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
