"""SessionChanges: ``tau.sessions``, an extension's way to change the session, as commands do.

Pi gives these to command handlers (its command context); here they are on ``tau.sessions``,
meant for command handlers too: each one refuses while the agent runs (``AgentBusyError``), as
the commands do. Each goes through the frontend's ``SessionControl``, the one ``/new``,
``/fork``, ``/clone``, ``/resume``, ``/tree``, ``/reload`` and their RPC commands use, so the
``session_before_*`` events fire and may refuse: the answer is then ``ChangeResult(cancelled=True,
reason=...)``. After a change the frontend is told (``SessionControl.outside_change``: the TUI
shows the new transcript, RPC sends ``session_changed``). Other failures (no such entry or
session) raise ``ValueError`` with one line.

Pi's ``setup`` and ``withSession`` options are keyword arguments here: ``setup(log)`` may add
entries to a new session before anything else sees it, and ``with_session(tau)`` runs once the
change is done and the frontend told. Tau keeps the extension loaded across the change, so the
``tau`` it receives is the one the handler already holds, bound to the session now in place;
Pi's warning about stale contexts does not apply, but code written in that shape works.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

if TYPE_CHECKING:
    from tau_agent.session.log import SessionLog
    from tau_coding.extensions.host_port import ExtensionHostPort
    from tau_coding.session.change_questions import OutsideKind
    from tau_coding.session.control import SessionControl

ForkPosition = Literal["before", "at"]
# ``setup(log)`` and ``with_session(tau)``: plain or async functions; what they return is ignored.
# ``tau`` is the extension's ``ExtensionAPI``, typed ``Any`` here: api.py builds this object, and
# naming its type back would close an import circle.
Setup: TypeAlias = "Callable[[SessionLog], object]"
WithSession: TypeAlias = Callable[[Any], object]


@dataclass(frozen=True, slots=True)
class ChangeResult:
    """What a session change did: ``cancelled`` (with the refusal's ``reason``) or done."""

    cancelled: bool
    reason: str | None = None


class SessionChanges:
    """See the module docstring."""

    def __init__(self, host: ExtensionHostPort, api: Any) -> None:
        self._host = host
        self._api = api

    def _control(self) -> SessionControl:
        control = self._host.control
        if control is None:
            raise RuntimeError("this session cannot be changed by an extension here (no session control)")
        return control

    async def _changed(
        self, kind: OutsideKind, with_session: WithSession | None, editor_text: str | None = None
    ) -> ChangeResult:
        from tau_coding.session.change_questions import OutsideChange

        change = OutsideChange(kind, editor_text)
        for listener in list(self._control().outside_change):
            listener(change)
        if with_session is not None:
            await _maybe_await(with_session(self._api))
        return ChangeResult(False)

    async def new(
        self,
        *,
        parent_session: str | None = None,
        setup: Setup | None = None,
        with_session: WithSession | None = None,
    ) -> ChangeResult:
        """Continue in a fresh session, as ``/new`` does (``session_before_switch``).
        ``setup(log)`` runs on the new session's log before anyone is told of it: entries it
        appends (messages, custom entries) are part of the new session's context."""
        from tau_coding.session.control import ChangeRefusedError

        try:
            control = self._control()
            await control.asking(lambda: control.new_session(parent_session))
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        if setup is not None:
            session = control.session
            await _maybe_await(setup(session.log))
            session.harness.replace_messages(session.log.state().messages, repaired=True)
            control.path_moved()
        return await self._changed("new", with_session)

    async def fork(
        self, entry_id: str, *, position: ForkPosition = "before", with_session: WithSession | None = None
    ) -> ChangeResult:
        """A new session from this one (``session_before_fork``): ``before`` the user message
        ``entry_id`` as ``/fork`` (its text goes back into the editor, unless a handler's
        ``ForkDecision`` skips that), or the path through ``entry_id`` (``at``) as ``/clone``."""
        from tau_coding.session.control import ChangeRefusedError

        control = self._control()
        try:
            if position == "at":
                await control.asking(lambda: control.clone(entry_id))
                return await self._changed("clone", with_session)
            text = await control.asking(lambda: control.fork(entry_id))
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        return await self._changed("fork", with_session, text or None)

    async def switch(self, session_path: str, *, with_session: WithSession | None = None) -> ChangeResult:
        """Continue in another stored session (a path or an id prefix), as ``/resume`` does
        (``session_before_switch``)."""
        from tau_coding.session.control import ChangeRefusedError

        try:
            control = self._control()
            await control.asking(lambda: control.switch_session(session_path))
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        return await self._changed("resume", with_session)

    async def navigate_tree(
        self,
        target_id: str | None,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        label: str | None = None,
        replace_instructions: bool = False,
    ) -> ChangeResult:
        """Move to ``target_id`` in the tree as ``/tree`` does (``session_before_tree``); with
        ``summarize`` the branch left behind is summarised first (by the model, or by a
        handler's ``TreeDecision``). ``label`` labels the branch summary, else the target;
        ``replace_instructions``: ``custom_instructions`` replace the summariser's own
        instructions instead of adding to them."""
        from tau_coding.session.control import ChangeRefusedError

        control = self._control()
        try:
            if summarize:
                await control.summarize_move(
                    target_id,
                    custom_instructions=custom_instructions,
                    label=label,
                    replace_instructions=replace_instructions,
                )
            else:
                await control.asking(lambda: control.navigate(target_id))
                if label and target_id is not None:
                    control.set_label(target_id, label)
        except ChangeRefusedError as refused:
            return ChangeResult(True, str(refused))
        return await self._changed("tree", None)

    async def wait_for_idle(self) -> None:
        """Return once the agent is not running (at once when it is not)."""
        while self._control().session.is_running:
            await asyncio.sleep(0.02)

    def reload(self) -> None:
        """Re-read settings, models, resources and extensions as ``/reload`` does. This
        extension is loaded anew; code after the call still runs in the old one, so return."""
        self._control().reload()


async def _maybe_await(value: object) -> None:
    if inspect.isawaitable(value):
        await value
