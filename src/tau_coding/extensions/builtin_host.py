"""BuiltinHost: where the built-in extension registers when no other extension is loaded.

Most runs load no third-party extension and no shell hook; they must not pay for importing
the ``ExtensionHost``, its guards, threads, loader and event types (~15 ms). This host is the
light one: it keeps a ``Registry``, runs the built-in extension's ``activate`` through the
same ``ExtensionAPI`` (no guard: it is Tau's own code) and, bound to a session, answers its
``SessionHooks`` from that registry (``/reload`` and any other built-in command). When
something else is loaded, ``ExtensionHost.adopt`` activates the same built-in extension in the
full host instead (``app/extension_setup.py``), and this one is dropped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.registry import BUILTIN, Registry, command_name
from tau_coding.extensions.ui import UIBridge
from tau_coding.session.events import InputHandledEvent
from tau_coding.session.hooks import AGREED

if TYPE_CHECKING:
    from tau_agent.content import ImageContent
    from tau_agent.messages import AssistantMessage, CustomMessage
    from tau_agent.provider import ThinkingLevel
    from tau_ai.model import Model
    from tau_coding.extensions.guard import Guard, HandlerFailure
    from tau_coding.sandbox.policy import SandboxPolicy
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.control import SessionControl
    from tau_coding.session.hooks import (
        ChangeAnswer,
        InputDecision,
        LeaveReason,
        ModelSource,
        OwnCommand,
        SessionChange,
        UserBashOutcome,
    )

Activate = Callable[[ExtensionAPI], object]


class BuiltinHost:
    """An ``ExtensionHostPort`` holding only the built-in extension (see the module docstring)."""

    def __init__(self, *, cwd: Path, ui: UIBridge, activate: Activate) -> None:
        self._cwd = cwd
        self._ui = ui
        self.activate = activate
        self._registry = Registry()
        self._session: CodingSession | None = None
        activate(ExtensionAPI(self, BUILTIN))
        if renderers := self._registry.tool_renderers:  # Tau's own tools drawn their own way
            from tau_coding.common.tool_renderers import publish

            publish({name: renderer for name, (_, renderer) in renderers.items()})

    # -- ExtensionHostPort ------------------------------------------------------------------

    @property
    def cwd(self) -> Path:
        return self._cwd

    @property
    def ui(self) -> UIBridge:
        return self._ui

    @property
    def registry(self) -> Registry:
        return self._registry

    @property
    def session(self) -> CodingSession | None:
        return self._session

    @property
    def extensions(self) -> Mapping[str, object]:
        return {BUILTIN: self.activate}

    def guard(self, owner: str) -> Guard:
        raise KeyError(owner)  # no third-party code runs here, so nothing is guarded

    def report_failure(self, failure: HandlerFailure) -> None:
        self._ui.notify(str(failure), "error")

    @property
    def control(self) -> SessionControl | None:
        return None  # Tau's own features change sessions through their commands

    def provider_removed(self, name: str, owner: str) -> None:
        return None

    def on_change_soon(self) -> None:
        """The session reads the built-in tools when it is built; nothing to bring up to date."""

    def reload(self) -> int:
        """No third-party extension is loaded here: there is nothing to load again."""
        return 0

    def set_active_tools(self, names: Collection[str] | None) -> None:
        if self._session is not None:
            tools = [tool for _, tool in self._registry.tools.values()]
            self._session.harness.tools = [t for t in tools if names is None or t.name in names]

    def bind(self, session: CodingSession) -> None:
        """The session's hooks answer the built-in commands."""
        self._session = session
        session.hooks = BuiltinHooks(self._registry)

    def exec_sandbox(self, owner: str, unconfined: bool) -> SandboxPolicy | None:
        return None  # the built-in extension runs no processes

    @property
    def next_turn(self) -> list[CustomMessage]:
        return []  # the built-in extension sends no messages

    def setting(self, key: str) -> object:
        return None

    def models(self) -> list[Model]:
        return []


class BuiltinHooks:
    """``SessionHooks`` over the built-in extension's registrations: commands and shortcuts."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def on_start(self) -> None:
        return None

    async def on_input(self, text: str, images: Sequence[ImageContent]) -> InputDecision:
        name = command_name(text)
        command = self.registry.commands.get(name) if name else None
        if command is None:
            return text, list(images)
        args = text.strip()[len(name) + 1 :].strip()
        try:
            answer = await _call(command.handler, args)
        except Exception as exc:  # Tau's own command failed: the user reads why, the session goes on
            return InputHandledEvent(f"/{name} failed: {exc or type(exc).__name__}")
        return InputHandledEvent(answer if isinstance(answer, str) else None)

    async def on_stop(self, stop_hook_active: bool, last: AssistantMessage | None) -> str | None:
        return None

    async def on_pre_compact(self, trigger: Literal["manual", "auto"], custom_instructions: str) -> None:
        return None

    def command_list(self) -> Sequence[tuple[str, str]]:
        return [(c.name, c.description) for c in self.registry.commands.values()]

    def own_command(self, name: str) -> OwnCommand | None:
        command = self.registry.commands.get(name)
        return command.handler if command is not None and command.owner == BUILTIN else None

    def render_message(self, message: CustomMessage) -> str | None:
        return None

    def shortcut_list(self) -> Sequence[tuple[str, str]]:
        return [(s.key, s.description) for s in self.registry.shortcuts.values() if s.owner != BUILTIN]

    async def on_shortcut(self, key: str) -> str | None:
        shortcut = self.registry.shortcuts.get(key)
        if shortcut is None:
            return None
        try:
            answer = await _call(shortcut.handler)
        except Exception as exc:  # as for commands
            return f"{key} failed: {exc or type(exc).__name__}"
        return answer if isinstance(answer, str) else None

    def on_close(self) -> None:
        return None

    def before_change(self, change: SessionChange) -> str | None:
        return None

    async def ask_change(self, change: SessionChange) -> ChangeAnswer:
        return AGREED

    def after_change(self, change: SessionChange) -> None:
        return None

    def on_leave(self, reason: LeaveReason, target_file: str | None) -> None:
        return None

    def on_model_select(self, model: Model, previous: Model | None, source: ModelSource) -> None:
        return None

    def on_thinking_select(self, level: ThinkingLevel, previous: ThinkingLevel) -> None:
        return None

    async def on_user_bash(self, command: str, exclude_from_context: bool) -> UserBashOutcome | None:
        return None


async def _call(handler: Callable[..., Any], *args: Any) -> Any:
    result = handler(*args)
    return await result if isinstance(result, Awaitable) else result
