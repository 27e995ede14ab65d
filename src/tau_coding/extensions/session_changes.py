"""SessionChanges: ``tau.sessions``, an extension's way to change the session, as commands do.

Pi gives these to command handlers (its command context); here they are on ``tau.sessions``,
meant for command handlers too: each one refuses while the agent runs (``AgentBusyError``), as
the commands do. Each goes through the frontend's ``SessionControl``, the one ``/new``,
``/fork``, ``/clone``, ``/resume``, ``/tree``, ``/reload`` and their RPC commands use, so the
``session_before_*`` events fire and may refuse: the answer is then ``ChangeResult(cancelled=True,
reason=...)``. After a change the frontend is told (``SessionControl.outside_change``) and shows
the new transcript. Other failures (no such entry or session) raise ``ValueError`` with one line.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tau_agent.harness import AgentBusyError

if TYPE_CHECKING:
    from tau_coding.extensions.host_port import ExtensionHostPort
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.control import SessionControl

ForkPosition = Literal["before", "at"]


@dataclass(frozen=True, slots=True)
class ChangeResult:
    """What a session change did: ``cancelled`` (with the refusal's ``reason``) or done."""

    cancelled: bool
    reason: str | None = None


class SessionChanges:
    """See the module docstring."""

    def __init__(self, host: ExtensionHostPort, session: CodingSession) -> None:
        self._host = host
        self._session = session

    def _control(self) -> SessionControl:
        control = self._host.control
        if control is None:
            raise RuntimeError("this session cannot be changed by an extension here (no session control)")
        return control

    def _changed(self, editor_text: str | None = None) -> ChangeResult:
        for listener in list(self._control().outside_change):
            listener(editor_text)
        return ChangeResult(False)

    async def new(self, *, parent_session: str | None = None) -> ChangeResult:
        """Continue in a fresh session, as ``/new`` does (``session_before_switch``)."""
        from tau_coding.session.control import ChangeRefusedError

        try:
            control = self._control()
            await control.asking(lambda: control.new_session(parent_session))
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        return self._changed()

    async def fork(self, entry_id: str, *, position: ForkPosition = "before") -> ChangeResult:
        """A new session from this one (``session_before_fork``): ``before`` the user message
        ``entry_id`` as ``/fork`` (its text goes back into the editor), or the path through
        ``entry_id`` (``at``) as ``/clone``."""
        from tau_coding.session.control import ChangeRefusedError

        control = self._control()
        try:
            if position == "at":
                await control.asking(lambda: control.clone(entry_id))
                return self._changed()
            text = await control.asking(lambda: control.fork(entry_id))
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        return self._changed(text)

    async def switch(self, session_path: str) -> ChangeResult:
        """Continue in another stored session (a path or an id prefix), as ``/resume`` does
        (``session_before_switch``)."""
        from tau_coding.session.control import ChangeRefusedError

        try:
            control = self._control()
            await control.asking(lambda: control.switch_session(session_path))
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        return self._changed()

    async def navigate_tree(
        self,
        target_id: str | None,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        label: str | None = None,
    ) -> ChangeResult:
        """Move to ``target_id`` in the tree as ``/tree`` does (``session_before_tree``); with
        ``summarize`` the branch left behind is summarised first. ``label`` labels the branch
        summary, else the target."""
        from tau_coding.session.control import ChangeRefusedError

        control = self._control()
        try:
            if summarize:
                if control.session.is_running:
                    raise AgentBusyError("Cannot move in the tree while the agent is running; abort it first")
                summary = await control.session.navigate(
                    target_id, summarize=True, custom_instructions=custom_instructions
                )
                control.path_moved()
                labelled = summary.id if summary is not None else target_id
            else:
                await control.asking(lambda: control.navigate(target_id))
                labelled = target_id
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        if label and labelled is not None:
            control.set_label(labelled, label)
        return self._changed()

    async def wait_for_idle(self) -> None:
        """Return once the agent is not running (at once when it is not)."""
        while self._control().session.is_running:
            await asyncio.sleep(0.02)

    def reload(self) -> None:
        """Re-read settings, models, resources and extensions as ``/reload`` does. This
        extension is loaded anew; code after the call still runs in the old one, so return."""
        self._control().reload()
