"""ExtensionHost: loads extensions, keeps what they registered, and calls them safely.

The host is made before the session (so extensions can add providers, models and flags that
shape it) and bound to the CodingSession afterwards (so tools, commands and interception
points reach the live harness). Loading never raises: an extension that fails to import or
whose ``activate`` raises or hangs becomes a diagnostic, and whatever it registered before
failing is removed. A handler that fails later is reported (a diagnostic and a one-line
warning) and the extension stays loaded; what a failure means is decided per door, see
``doors.py``. Tau's own features (the shell hooks, ``/reload``) are built-in extensions
registered through the same API (``builtin.py``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from tau_agent.tools import AgentTool
from tau_coding.common.diagnostics import Diagnostic
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.guard import Guard, HandlerFailure
from tau_coding.extensions.loader import ExtensionSource, find_activate
from tau_coding.extensions.registry import BUILTIN, Registry
from tau_coding.extensions.ui import LateBoundUI, UIBridge

if TYPE_CHECKING:
    from tau_agent.messages import CustomMessage
    from tau_ai.model import Model
    from tau_coding.sandbox.policy import SandboxPolicy
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.control import SessionControl

Activate = Callable[[ExtensionAPI], Any]
DEFAULT_TIMEOUT = 30.0


@dataclass(slots=True)
class LoadedExtension:
    name: str
    origin: str  # "builtin", "cli", "project", "user", "package"
    location: str
    guard: Guard
    module: ModuleType | None = None


class ExtensionHost:
    """Every loaded extension, the registry of what they added, and the bound session."""

    def __init__(
        self,
        *,
        cwd: Path,
        ui: UIBridge,
        warn: Callable[[str], object],
        timeout: float = DEFAULT_TIMEOUT,
        discover: Callable[[], Sequence[ExtensionSource]] = lambda: (),
    ) -> None:
        self.cwd = cwd
        self.ui = ui
        self.timeout = timeout
        self.registry = Registry()
        self.diagnostics: list[Diagnostic] = []
        self.extensions: dict[str, LoadedExtension] = {}
        self.session: CodingSession | None = None
        self.rebuild_system_prompt: Callable[[list[AgentTool]], str] | None = None
        self._warn = warn
        self._discover = discover
        self._builtins: list[tuple[str, Activate]] = []
        self._base_tools: list[AgentTool] | None = None
        self._announced: set[tuple[str, str]] = set()
        # ``--tools`` / ``--no-tools``: the names that may be active, extensions' included
        # (None: all). The built-in tools were already chosen when the session was built.
        self.allowed_tools: frozenset[str] | None = None
        self.active_tools: frozenset[str] | None = None  # an extension's set_active_tools
        self._reported: set[str] = set()
        self.on_change: list[Callable[[], None]] = []  # told after tools or handlers change
        # tau.exec runs where the model's bash runs (set by the composition root): its sandbox,
        # and the extensions the user lets run programs outside it (sandbox.unconfinedExtensions).
        self.sandbox_for: Callable[[], SandboxPolicy | None] | None = None
        self.unconfined_exec: frozenset[str] = frozenset()
        self.next_turn: list[CustomMessage] = []
        # Settings and the model registry as the session reads them (set by the composition root).
        self.read_setting: Callable[[str], object] = lambda key: None
        self.list_models: Callable[[], list[Model]] = list
        self.control: SessionControl | None = None  # set by attach_control (app/session_setup.py)
        self._published = False  # tool renderers were handed to the TUI (common/tool_renderers.py)
        # Imports and activate() calls share one worker thread (a fresh one after a timeout):
        # one thread per extension would cost ~0.5 ms each at start-up.
        self._loader = Guard("loader", timeout, self.report_failure)

    # -- reporting --------------------------------------------------------------------------

    def report(self, source: str, message: str, severity: str = "error") -> None:
        """A one-line diagnostic, kept and shown at once."""
        self.diagnostics.append(Diagnostic("warning" if severity == "warning" else "error", source, message))
        self._warn(f"{source}: {message}" if not message.startswith(source) else message)

    def report_failure(self, failure: HandlerFailure) -> None:
        """Reported once: a handler failing on every streamed token must not flood the terminal."""
        message = str(failure)
        if message in self._reported:
            return
        self._reported.add(message)
        self.diagnostics.append(Diagnostic("error", "extension", message))
        self._warn(message)

    def guard(self, owner: str) -> Guard:
        loaded = self.extensions.get(owner)
        if loaded is None:
            raise KeyError(owner)
        return loaded.guard

    # -- loading ----------------------------------------------------------------------------

    def add_builtin(self, name: str, activate: Activate, *, timeout: float | None = None) -> None:
        """A feature of Tau itself, activated through the same API (kept across reloads)."""
        self._builtins.append((name, activate))
        self._activate(name, "builtin", "tau", lambda: activate, timeout)
        self._changed()

    def load(self, sources: Sequence[ExtensionSource]) -> None:
        """Import and activate each source; the first of two with the same name wins."""
        for source in sources:
            if source.name in self.extensions:
                previous = self.extensions[source.name]
                self.report(
                    source.location,
                    f"extension {source.name!r} already loaded from {previous.location}; skipped",
                    "warning",
                )
                continue
            self._activate(
                source.name, source.origin, source.location, functools.partial(find_activate, source)
            )
        self._changed()

    def _activate(
        self,
        name: str,
        origin: str,
        location: str,
        find: Callable[[], Activate],
        timeout: float | None = None,
    ) -> None:
        clock = self.ui.clock if isinstance(self.ui, LateBoundUI) else None  # time in dialogs is not counted
        guard = Guard(name, timeout or self.timeout, self.report_failure, clock)
        loaded = LoadedExtension(name, origin, location, guard)
        self.extensions[name] = loaded
        api = ExtensionAPI(self, name)

        def run() -> None:
            activate = find()
            loaded.module = sys.modules.get(getattr(activate, "__module__", "") or "")
            activate(api)

        loader = self._loader
        loader.owner, loader.timeout = name, timeout or self.timeout
        try:
            loader.call_sync("activate", run)
        except HandlerFailure as failure:
            if loader.stuck:
                self._loader = Guard("loader", self.timeout, self.report_failure)
            self._unload(name)
            self.report(location, f"not loaded: {failure}")

    def _unload(self, name: str) -> None:
        loaded = self.extensions.pop(name, None)
        self.registry.remove_owner(name)
        if loaded is None:
            return
        if loaded.module is not None and loaded.origin != "builtin":
            deactivate = getattr(loaded.module, "deactivate", None)
            if callable(deactivate):
                try:
                    loaded.guard.call_sync("deactivate", deactivate)
                except HandlerFailure as failure:
                    self.report_failure(failure)
            sys.modules.pop(loaded.module.__name__, None)
        loaded.guard.close()

    def unload_all(self) -> None:
        for name in [n for n, e in self.extensions.items() if e.origin != "builtin"]:
            self._unload(name)
        self._changed()

    def reload(self) -> int:
        """Unload every extension and load them again from their places; returns how many loaded.
        The bound session's extensions hear ``session_shutdown`` (reason ``reload``) first."""
        if self.session is not None and self.session.hooks is not None:
            self.session.hooks.on_leave("reload", None)
        self.unload_all()
        self.registry.flag_values.clear()
        self.load(self._discover())
        return sum(1 for e in self.extensions.values() if e.origin != "builtin")

    # -- the bound session ------------------------------------------------------------------

    def bind(self, session: CodingSession) -> None:
        """Attach to the session: tools, interception points, events and lifecycle."""
        from tau_coding.extensions.doors import ExtensionDoors

        self.session = session
        self._base_tools = list(session.harness.tools)
        doors = ExtensionDoors(self, session)
        doors.install()
        self.on_change.append(doors.install)
        self._changed()

    def on_change_soon(self) -> None:
        """A registration changed after binding: bring the harness up to date now."""
        if self.session is not None:
            self._changed()

    def _changed(self) -> None:
        self.sync_tools()
        renderers = self.registry.tool_renderers
        if renderers or self._published:
            from tau_coding.common.tool_renderers import publish

            shown = {
                name: r for name, (owner, r) in renderers.items() if owner in (*self.extensions, BUILTIN)
            }
            publish(shown)
            self._published = bool(renderers)
        for callback in list(self.on_change):
            callback()

    def sync_tools(self) -> None:
        """The harness's tools: built-ins, each replaced by an extension's of that name, then the rest."""
        if self.session is None or self._base_tools is None:
            return
        # The built-in extension's tools are the session's own (the base); others add or replace.
        others = {n: entry for n, entry in self.registry.tools.items() if entry[0] != BUILTIN}
        registered = {name: tool for name, (_, tool) in others.items()}
        base_names = {t.name for t in self._base_tools}
        tools = [registered.get(t.name, t) for t in self._base_tools]
        tools += [t for name, t in registered.items() if name not in base_names]
        if self.allowed_tools is not None:
            tools = [t for t in tools if t.name in self.allowed_tools]
        if self.active_tools is not None:
            tools = [t for t in tools if t.name in self.active_tools]
        for name, (owner, _) in others.items():
            if name in base_names and (owner, name) not in self._announced:
                self._announced.add((owner, name))
                self.report(f"extension {owner}", f"replaces the built-in tool {name!r}", "warning")
        self.session.harness.tools = tools
        if self.rebuild_system_prompt is not None:
            self.session.harness.system_prompt = self.rebuild_system_prompt(tools)

    def set_active_tools(self, names: Collection[str] | None) -> None:
        """Only these tools reach the model (still within ``--tools``); ``None``: all again."""
        self.active_tools = None if names is None else frozenset(names)
        self._changed()

    def discover_resources(self) -> tuple[list[str], list[str]]:
        """Skill and prompt paths the ``resources_discover`` handlers add, in load order."""
        from tau_coding.extensions.events import ResourcePaths, ResourcesEvent

        skills: list[str] = []
        prompts: list[str] = []
        for owner, handler in self.registry.handlers.get("resources_discover", ()):
            if owner not in self.extensions:
                continue
            try:
                found = self.guard(owner).call_sync(
                    "resources_discover handler", handler, ResourcesEvent(str(self.cwd))
                )
            except HandlerFailure as failure:
                self.report_failure(failure)
                continue
            if isinstance(found, ResourcePaths):
                skills += [str(p) for p in found.skill_paths]
                prompts += [str(p) for p in found.prompt_paths]
        return skills, prompts

    def setting(self, key: str) -> object:
        return self.read_setting(key)

    def models(self) -> list[Model]:
        return self.list_models()

    def exec_sandbox(self, owner: str, unconfined: bool) -> SandboxPolicy | None:
        """The model's bash's sandbox (``sandbox_for``), unless ``owner`` may run unconfined."""
        policy = self.sandbox_for() if self.sandbox_for is not None else None
        if policy is None or not unconfined:
            return policy
        if owner in self.unconfined_exec:
            return None
        if ("unconfined", owner) not in self._announced:
            self._announced.add(("unconfined", owner))
            self.report(
                f"extension {owner}",
                "asked to exec outside the sandbox; ran confined (list it in sandbox.unconfinedExtensions to allow)",
                "warning",
            )
        return policy

    def is_builtin_tool(self, name: str) -> bool:
        return self._base_tools is not None and any(t.name == name for t in self._base_tools)

    def extension_models(self) -> list[Model]:
        """The models of the providers loaded extensions have registered now, in load order."""
        return [
            model
            for registration in self.registry.providers.values()
            if registration.owner != BUILTIN and registration.owner in self.extensions
            for model in registration.models
        ]

    def provider_removed(self, name: str, owner: str) -> None:
        """Provider ``name`` is gone: a session on one of its models moves to the first model
        still available (the control's list, else the registry), and says so in one line."""
        session = self.session
        if session is None or session.model.provider != name:
            return
        current = f"{name}/{session.model.id}"
        listed = self.control.available_models() if self.control is not None else self.models()
        fallback = next((m for m in listed if m.provider != name), None)
        if fallback is None:
            self.report(
                f"extension {owner}",
                f"removed provider {name!r}; {current} has no provider now: pick another model (/model)",
                "warning",
            )
            return
        session.set_model(fallback)
        self.report(
            f"extension {owner}",
            f"removed provider {name!r}; the model is now {fallback.provider}/{fallback.id} (was {current})",
            "warning",
        )
