"""ExtensionHostPort: what an extension's API and the session doors need of the host.

``ExtensionHost`` satisfies it; ``api``, ``doors`` and ``http_provider`` depend on this Protocol
instead of the host itself, so the host can import them without a circle.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from tau_agent.messages import CustomMessage
    from tau_ai.model import Model
    from tau_coding.extensions.guard import Guard, HandlerFailure
    from tau_coding.extensions.registry import Registry
    from tau_coding.extensions.ui import UIBridge
    from tau_coding.sandbox.policy import SandboxPolicy
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.control import SessionControl


class ExtensionHostPort(Protocol):
    @property
    def cwd(self) -> Path: ...

    @property
    def ui(self) -> UIBridge: ...

    @property
    def registry(self) -> Registry:
        """Everything the loaded extensions registered, by kind."""
        ...

    @property
    def session(self) -> CodingSession | None:
        """The bound session; ``None`` until the session exists."""
        ...

    @property
    def extensions(self) -> Mapping[str, object]:
        """The loaded extensions by name: a registration whose owner is not here is ignored."""
        ...

    def guard(self, owner: str) -> Guard:
        """The loaded extension's guard (time limit, failure reporting); KeyError if not loaded."""
        ...

    def report_failure(self, failure: HandlerFailure) -> None: ...

    def on_change_soon(self) -> None:
        """A registration changed: bring the bound session up to date."""
        ...

    def reload(self) -> int:
        """Unload and load every extension again; how many are loaded."""
        ...

    def set_active_tools(self, names: Collection[str] | None) -> None:
        """Only these registered tools go to the model (``None``: all of them)."""
        ...

    @property
    def next_turn(self) -> list[CustomMessage]:
        """Messages to put into the context with the next prompt (``deliver_as="next_turn"``)."""
        ...

    def setting(self, key: str) -> object:
        """A dotted settings key as the session reads it (None: not set)."""
        ...

    def models(self) -> list[Model]:
        """The models the session may use (catalogue, models.json, extensions' providers)."""
        ...

    def exec_sandbox(self, owner: str, unconfined: bool) -> SandboxPolicy | None:
        """The sandbox ``owner``'s ``exec`` runs in (None: unconfined); the model's bash's."""
        ...

    @property
    def control(self) -> SessionControl | None:
        """The frontend's SessionControl (new session, fork, switch, tree, reload), once the
        session has one; what an extension changes goes through it, as the commands do."""
        ...

    def provider_removed(self, name: str, owner: str) -> None:
        """``owner`` withdrew provider ``name``: move the session off its models if it is on one."""
        ...
