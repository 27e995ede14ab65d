"""ExtensionAPI: what ``activate(tau)`` receives, one per extension.

Registration methods may be called at any time (in ``activate`` or later from a handler);
everything registered is owned by the extension and removed when it is unloaded. Actions on
the session (``send_user_message``, ``append_entry``, ``set_session_name``...) need the
session, which exists once ``activate`` has returned; called earlier they raise
``RuntimeError``. ``tau.ui`` is the frontend's UIBridge (print mode: dialogs answer their
default). Handlers may be plain or async functions; both run under a time limit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import CustomMessage
from tau_agent.provider import ModelProvider
from tau_agent.tools import AgentTool
from tau_ai.model import Model
from tau_coding.extensions.registry import (
    BUILTIN,
    Command,
    Completer,
    Flag,
    FlagKind,
    Handler,
    ProviderRegistration,
    Renderer,
    Shortcut,
)
from tau_coding.extensions.ui import NoticeLevel, Placement, UIBridge

if TYPE_CHECKING:
    from tau_agent.provider import ThinkingLevel
    from tau_ai.wire_api import WireApi
    from tau_coding.common.tool_renderers import RenderCall, RenderResult
    from tau_coding.config.oauth.providers import LoginProvider
    from tau_coding.extensions.bus import EventBus
    from tau_coding.extensions.host_port import ExtensionHostPort
    from tau_coding.extensions.process import ExecResult
    from tau_coding.extensions.session_changes import SessionChanges
    from tau_coding.session.coding_session import CodingSession

DeliverAs = Literal["steer", "follow_up"]
H = TypeVar("H", bound=Handler)
MessageDelivery = Literal["steer", "follow_up", "next_turn"]


class ExtensionAPI:
    """The door an extension uses into Tau; see the module docstring for what it may rely on."""

    def __init__(self, host: ExtensionHostPort, name: str) -> None:
        self._host = host
        self.name = name
        self._bus: EventBus | None = None

    @property
    def cwd(self) -> Path:
        return self._host.cwd

    @property
    def ui(self) -> UIBridge:
        return self._host.ui

    @property
    def has_ui(self) -> bool:
        """Pi's ``hasUI``: a person may answer dialogs (the TUI, an RPC client); False in print
        mode and the SDK, where dialogs answer their defaults."""
        return self._host.ui.interactive

    @property
    def system_prompt(self) -> str:
        """Pi's ``getSystemPrompt()``: the system prompt the next request sends; inside
        ``before_agent_start``, as the handlers before this one left it."""
        return self.session.harness.system_prompt

    def has_pending_messages(self) -> bool:
        """Pi's ``hasPendingMessages()``: steering or follow-up messages wait in the queues."""
        return self.session.harness.pending_count > 0

    @property
    def signal(self) -> CancellationToken | None:
        """Pi's ``ctx.signal``: the running agent's cancellation, which Esc (or an RPC
        ``abort``) cancels; None while no run goes on (most commands, session events). Long
        work in a handler checks ``signal.cancelled``, awaits ``signal.wait()`` beside it, or
        registers ``signal.on_cancel(...)``."""
        session = self._host.session
        return None if session is None else session.harness.current_signal

    def shutdown(self) -> None:
        """Pi's ``ctx.shutdown()``: ask Tau to exit cleanly once no run goes on (the TUI after
        the run and its queued messages; RPC once the current command has answered), telling
        ``session_shutdown`` (reason ``quit``) as any exit does. Print mode and the SDK: nothing
        (print mode exits when its prompts are done)."""
        control = self._host.control
        if control is not None and control.shutdown is not None:
            control.shutdown()

    @property
    def session(self) -> CodingSession:
        session = self._host.session
        if session is None:
            raise RuntimeError("the session does not exist yet; act from a handler, not from activate()")
        return session

    # -- registration -----------------------------------------------------------------------

    @overload
    def on(self, event: str) -> Callable[[H], H]: ...

    @overload
    def on(self, event: str, handler: H) -> H: ...

    def on(self, event: str, handler: Handler | None = None) -> Any:
        """Subscribe ``handler`` to an event type, ``"*"`` or an interception point.

        Usable as a decorator: ``@tau.on("tool_call")``.
        """
        if handler is None:
            return lambda fn: self.on(event, fn)
        self._host.registry.handlers.setdefault(event, []).append((self.name, handler))
        self._host.on_change_soon()
        return handler

    def register_tool(
        self,
        tool: AgentTool,
        *,
        render_call: RenderCall | None = None,
        render_result: RenderResult | None = None,
    ) -> None:
        """Offer a tool to the model; a tool named like a built-in replaces it (with a notice).

        In the TUI, ``render_call(args) -> str`` is the line after the tool's name and
        ``render_result(output, details, is_error, expanded) -> str`` what shows under it once
        it finished (``common/tool_renderers.py``); elsewhere they are not used."""
        registry = self._host.registry
        owner = registry.owner_of(registry.tools, tool.name)
        if owner is not None and owner != self.name and owner != BUILTIN:
            raise ValueError(f"tool {tool.name!r} is already registered by extension {owner}")
        registry.tools[tool.name] = (self.name, tool)
        registry.tool_renderers.pop(tool.name, None)
        if render_call is not None or render_result is not None:
            from tau_coding.common.tool_renderers import ToolRenderer

            registry.tool_renderers[tool.name] = (self.name, ToolRenderer(render_call, render_result))
        self._host.on_change_soon()

    def unregister_tool(self, name: str) -> None:
        """Withdraw a tool this extension registered (a built-in it replaced comes back)."""
        if self._host.registry.owner_of(self._host.registry.tools, name) == self.name:
            del self._host.registry.tools[name]
            self._host.on_change_soon()

    def register_command(
        self, name: str, handler: Handler, *, description: str = "", complete: Completer | None = None
    ) -> None:
        """``/name args`` typed by the user calls ``handler(args)``; its text (if any) is shown."""
        self._claim(self._host.registry.commands, name, "command")
        self._host.registry.commands[name] = Command(self.name, name, handler, description, complete)

    def register_flag(
        self, name: str, *, kind: FlagKind = "bool", default: bool | str | None = None, description: str = ""
    ) -> None:
        """A command-line option ``--name`` (``--name=value`` for kind "str")."""
        self._claim(self._host.registry.flags, name, "flag")
        self._host.registry.flags[name] = Flag(self.name, name, kind, default, description)

    def flag(self, name: str) -> bool | str | None:
        """The flag's value on this command line, else its default."""
        registry = self._host.registry
        if name in registry.flag_values:
            return registry.flag_values[name]
        declared = registry.flags.get(name)
        return declared.default if declared is not None else None

    def register_shortcut(self, key: str, handler: Handler, *, description: str = "") -> None:
        self._claim(self._host.registry.shortcuts, key, "shortcut")
        self._host.registry.shortcuts[key] = Shortcut(self.name, key, handler, description)

    def register_message_renderer(self, custom_type: str, render: Handler) -> None:
        """How the TUI shows custom messages of ``custom_type``: ``render(message) -> list[str]``."""
        self._claim(self._host.registry.renderers, custom_type, "renderer")
        self._host.registry.renderers[custom_type] = Renderer(self.name, custom_type, render)

    def register_provider(
        self,
        name: str,
        factory: Callable[[Model], ModelProvider] | None = None,
        *,
        wire: WireApi | None = None,
        models: Sequence[Model] = (),
        api_key: str | None = None,
        oauth: LoginProvider | None = None,
    ) -> None:
        """Models of provider ``name`` are served by ``factory(model)``, or over HTTP by ``wire``.

        A provider of the built-in catalogue's name (``openai``, ...) is replaced, as a built-in
        tool is; one another extension registered is refused. ``oauth`` declares the
        provider's own login, as Tau's built-in logins are declared (``config/oauth``): ``/login``
        and ``tau login`` offer it under ``name``, and a ``wire`` provider without ``api_key``
        sends the login's access token (refreshed when due; ``login_token`` for a factory)."""
        if (factory is None) == (wire is None):
            raise ValueError("register_provider needs exactly one of factory or wire")
        if self._host.registry.owner_of(self._host.registry.providers, name) != BUILTIN:
            self._claim(self._host.registry.providers, name, "provider")  # a built-in one is replaced
        if oauth is not None:
            from dataclasses import replace

            from tau_coding.config.oauth.providers import register_login_provider

            oauth = oauth if oauth.id == name else replace(oauth, id=name)
            register_login_provider(oauth)
        if factory is None:
            assert wire is not None
            renew = (
                functools.partial(self.login_token, name) if oauth is not None and api_key is None else None
            )
            factory = _http_factory(self._host, wire, api_key, renew)
        registration = ProviderRegistration(self.name, name, factory, tuple(models), oauth)
        self._host.registry.providers[name] = registration

    def login_token(self, provider: str) -> str | None:
        """The access token of the user's login to ``provider`` (auth.json; refreshed when it
        is about to expire), or None when not logged in; ``LoginStoreError`` (one line) when the
        refresh is refused. Blocking: call it off the loop."""
        import os

        from tau_coding.config.oauth.store import fresh_entry, login_key
        from tau_coding.config.paths import TauPaths

        auth_file = TauPaths.from_env(os.environ, self.cwd).auth_file
        entry = fresh_entry(auth_file, provider, os.environ)
        return login_key(entry) if entry is not None else None

    def _claim(self, table: dict[str, Any], name: str, kind: str) -> None:
        owner = self._host.registry.owner_of(table, name)
        if owner is not None and owner != self.name:
            raise ValueError(f"{kind} {name!r} is already registered by extension {owner}")

    # -- actions ----------------------------------------------------------------------------

    def send_user_message(self, text: str, *, deliver_as: DeliverAs = "follow_up") -> None:
        """Queue a user message: ``steer`` after the current tool, ``follow_up`` when the run would stop."""
        session = self.session
        (session.harness.steer if deliver_as == "steer" else session.harness.follow_up)(text)

    def send_message(
        self,
        custom_type: str,
        content: str | list[TextContent | ImageContent],
        *,
        display: bool = True,
        details: Any = None,
        deliver_as: MessageDelivery = "steer",
        trigger_turn: bool = False,
    ) -> None:
        """A custom message for the model's context: now if idle, else queued like a user
        message; ``next_turn`` keeps it until the user's next prompt and sends it with that
        (before the user's message), without starting a run. ``trigger_turn``: when idle, the
        model answers it (a run the frontend shows as a prompt's, right after the command that
        sent it; ignored for ``next_turn``, and without a frontend's SessionControl: the SDK)."""
        session = self.session
        message = CustomMessage(custom_type, content, display, details)
        if deliver_as == "next_turn":
            self._host.next_turn.append(message)
            return
        if session.is_running:
            (session.harness.steer if deliver_as == "steer" else session.harness.follow_up)(message)
            return
        session.harness.append_message(message)
        session.log.append_custom_message(custom_type, content, display, details)
        control = self._host.control
        if trigger_turn and control is not None and control.run_from_record is not None:
            control.run_from_record()

    def append_entry(self, custom_type: str, data: Any = None) -> None:
        """Extension state in the session file; never sent to the model."""
        self.session.log.append_custom(custom_type, data)

    def set_session_name(self, name: str) -> None:
        self.session.set_name(name)

    @property
    def session_name(self) -> str | None:
        return self.session.log.name

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self.ui.notify(message, level)

    def set_status(self, key: str, text: str | None) -> None:
        self.ui.set_status(key, text)

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: Placement = "above") -> None:
        self.ui.set_widget(key, lines, placement)

    # -- tools, model, processes, other extensions -------------------------------------------

    def get_active_tools(self) -> list[str]:
        """Names of the tools the model is offered now, in order."""
        return [tool.name for tool in self.session.harness.tools]

    def get_all_tools(self) -> list[AgentTool]:
        """Every registered tool (Tau's and extensions'), active or not."""
        return [tool for _, tool in self._host.registry.tools.values()]

    def set_active_tools(self, names: Sequence[str] | None) -> None:
        """Offer only these tools to the model (``None``: all again); ``--tools`` still limits."""
        self._host.set_active_tools(None if names is None else list(names))

    def setting(self, key: str, default: Any = None) -> Any:
        """A dotted settings key as this session reads it (``"router.big"``), else ``default``."""
        value = self._host.setting(key)
        return default if value is None else value

    def available_models(self) -> list[Model]:
        """The model registry: every model the session may use, extensions' included."""
        return self._host.models()

    def find_model(self, provider: str, model_id: str) -> Model | None:
        return next((m for m in self._host.models() if (m.provider, m.id) == (provider, model_id)), None)

    def get_commands(self) -> list[tuple[str, str]]:
        """Slash commands registered now, as (name, description)."""
        commands = self._host.registry.commands.values()
        return [(c.name, c.description) for c in commands if c.owner in self._host.extensions]

    @property
    def model(self) -> Model:
        return self.session.model

    def set_model(self, model: Model) -> None:
        """Use ``model`` from the next request on (recorded in the session, as ``/model`` does)."""
        self.session.set_model(model)

    @property
    def thinking_level(self) -> ThinkingLevel:
        return self.session.thinking_level

    def set_thinking_level(self, level: ThinkingLevel) -> None:
        self.session.set_thinking_level(level)

    @property
    def events(self) -> EventBus:
        """Channels shared by all extensions: ``tau.events.on(name, fn)``, ``tau.events.emit(name, data)``."""
        if self._bus is None:
            from tau_coding.extensions.bus import EventBus

            self._bus = EventBus(self._host, self.name)
        return self._bus

    async def exec(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        cwd: Path | None = None,
        timeout: float | None = None,
        unconfined: bool = False,
    ) -> ExecResult:
        """Run a program (no shell) in ``cwd`` (the session's by default); see ``process.py``.

        When the model's bash runs in the sandbox, so does this. ``unconfined=True`` runs it
        outside only for an extension the user named in ``sandbox.unconfinedExtensions``
        (otherwise it still runs confined, with a one-line warning)."""
        from tau_coding.extensions.process import run_program

        policy = self._host.exec_sandbox(self.name, unconfined)
        return await run_program(command, args, cwd or self.cwd, timeout, policy)

    def reload(self) -> int:
        """Unload and load every extension again; returns how many are loaded."""
        return self._host.reload()

    def unregister_provider(self, name: str) -> None:
        """Withdraw provider ``name`` this extension registered: its models leave the model
        registry and the picker at once, and a session on one of them moves to another model
        (one warning line says which). A provider it did not register is left alone."""
        registry = self._host.registry
        if registry.owner_of(registry.providers, name) != self.name:
            return
        registry.providers.pop(name).withdrawn()
        self._host.provider_removed(name, self.name)

    def set_label(self, entry_id: str, label: str | None) -> None:
        """Label the session entry ``entry_id`` (None or blank: remove its label), as ``/tree``'s
        labels are kept: a ``label`` entry in the session file. ValueError: no such entry."""
        control = self._host.control
        if control is not None:
            control.set_label(entry_id, (label or "").strip() or None)
            return
        log = self.session.log
        if entry_id not in log.tree:
            raise ValueError(f"no entry {entry_id!r} in this session")
        log.set_label(entry_id, (label or "").strip() or None)

    @property
    def sessions(self) -> SessionChanges:
        """New session, fork, switch, tree moves, reload and waiting for idle, each going the
        way the matching command goes (``session_changes.py``); meant for command handlers."""
        from tau_coding.extensions.session_changes import SessionChanges

        return SessionChanges(self._host, self)


def _http_factory(
    host: ExtensionHostPort,
    wire: WireApi,
    api_key: str | None,
    renew_key: Callable[[], str | None] | None = None,
) -> Callable[[Model], ModelProvider]:
    def make(model: Model) -> ModelProvider:
        from tau_coding.extensions.http_provider import http_provider

        key = api_key if renew_key is None else renew_key()
        return http_provider(model, key, wire=wire, host=host, renew_key=renew_key)

    return make
