"""An RpcServer in this process: a real CodingSession on a FakeProvider, bytes in, lines out."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import ReplyLike
from tau_ai.model import Model
from tau_coding.modes.rpc import make_server
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.modes.rpc.server import RpcServer
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.store.manager import SessionManager

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1", reasoning=True)
OTHER = Model("other-model", "fake", "fake", "http://127.0.0.1")


class InProcess:
    def __init__(self, tmp_path: Path, replies: Sequence[ReplyLike] = ()) -> None:
        self.provider = FakeProvider(replies)
        self.manager = SessionManager(tmp_path / "sessions", str(tmp_path))
        session = CodingSession(
            log=self.manager.new(),
            model=MODEL,
            provider_factory=lambda model: self.provider,
            tools=[],
            system_prompt="",
            cwd=tmp_path,
        )
        self.control = SessionControl(session, self.manager, models=lambda: [MODEL, OTHER])
        self.stream = io.BytesIO()
        self.server: RpcServer = make_server(self.control, RpcOutput(self.stream))
        self._read = 0

    async def line(self, raw: bytes) -> None:
        await self.server.handle_line(raw)

    async def command(self, **command: Any) -> None:
        await self.server.dispatch(command)

    def output(self) -> list[dict[str, Any]]:
        """Lines written since the last call."""
        self.server.out.flush()
        data = self.stream.getvalue()
        fresh, self._read = data[self._read :], len(data)
        return [json.loads(line) for line in fresh.splitlines()]

    async def until(self, predicate: Any, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Output lines until one satisfies ``predicate`` (polling the event loop)."""
        seen: list[dict[str, Any]] = []
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            for item in self.output():
                seen.append(item)
                if predicate(item):
                    return seen
            await asyncio.sleep(0.005)
        raise AssertionError(f"timed out; saw {seen}")
