"""A real CodingSession (scripted provider, real tools on tmp_path) with an ExtensionHost bound."""

from __future__ import annotations

import textwrap
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tau_agent.messages import ToolResultMessage
from tau_agent.testing import FakeProvider
from tau_ai.model import Model
from tau_coding.extensions.builtin import tau_extension
from tau_coding.extensions.host import ExtensionHost
from tau_coding.extensions.loader import ExtensionSource, from_path
from tau_coding.extensions.ui import HeadlessUI
from tau_coding.permissions.gate import PermissionGate
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.events import SessionEvent
from tau_coding.session.permission_seam import install_permissions
from tau_coding.session.store.manager import SessionManager
from tau_coding.tools.builtin import create_coding_tools

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1")


@dataclass
class Rig:
    session: CodingSession
    host: ExtensionHost
    provider: Any
    ui: HeadlessUI
    warnings: list[str] = field(default_factory=list)

    async def run(self, text: str) -> list[SessionEvent]:
        return [e async for e in self.session.prompt(text)]

    def tool_results(self) -> list[ToolResultMessage]:
        return [m for m in self.session.messages if isinstance(m, ToolResultMessage)]

    def result_text(self, index: int = 0) -> str:
        return "".join(getattr(b, "text", "") for b in self.tool_results()[index].content)


def write_extension(directory: Path, name: str, code: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.py"
    path.write_text(textwrap.dedent(code))
    return path


def source(path: Path) -> ExtensionSource:
    found = from_path(path, "cli")
    assert found is not None
    return found


def make_rig(
    tmp_path: Path,
    provider: Any,
    extensions: Sequence[Path] = (),
    *,
    timeout: float = 5.0,
    tools: Sequence[str] = ("read", "write", "edit", "bash"),
    gate: PermissionGate | None = None,
) -> Rig:
    """A session with an ExtensionHost; with ``gate``, tool calls pass the permission engine."""
    warnings: list[str] = []
    ui = HeadlessUI(warnings.append)
    manager = SessionManager(tmp_path / "sessions", str(tmp_path))
    session = CodingSession(
        log=manager.new(),
        model=MODEL,
        provider_factory=lambda model: provider,
        tools=list(create_coding_tools(tmp_path, names=tools).values()),
        system_prompt="Be brief.",
        cwd=tmp_path,
    )
    host = ExtensionHost(
        cwd=tmp_path,
        ui=ui,
        warn=warnings.append,
        timeout=timeout,
        discover=lambda: [source(p) for p in extensions],
    )
    host.add_builtin("tau", tau_extension(session.harness.tools))
    host.load([source(p) for p in extensions])
    host.rebuild_system_prompt = lambda active: "Be brief. Tools: " + ", ".join(t.name for t in active)
    if gate is not None:
        install_permissions(session, gate)
    host.bind(session)
    return Rig(session, host, provider, ui, warnings)


async def collect(events: AsyncIterator[SessionEvent]) -> list[SessionEvent]:
    return [e async for e in events]


def fake(*replies: Any) -> FakeProvider:
    return FakeProvider(list(replies))
