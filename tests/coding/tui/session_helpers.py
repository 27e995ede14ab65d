"""A CodingSessionPort over a real CodingSession (FakeProvider replies, files under tmp_path)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tau_agent.testing import FakeProvider
from tau_agent.testing.fake_provider import ReplyLike
from tau_ai.model import Model
from tau_coding.config.auth import AuthStore
from tau_coding.modes.interactive.session_port import CodingSessionPort
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.store.manager import SessionManager

MODEL = Model("fake-model", "fake", "fake", "http://127.0.0.1", reasoning=True, context_window=100_000)
OTHER = Model("other-model", "fake", "fake", "http://127.0.0.1")
THIRD = Model("third-model", "other", "other", "http://127.0.0.1")


class Rig:
    """A project directory, its session store, an auth.json, and the port over them."""

    def __init__(
        self,
        tmp_path: Path,
        replies: Sequence[ReplyLike] = (),
        *,
        reloadable: bool = True,
        auto_title: bool = False,
        settings: dict[str, object] | None = None,
    ) -> None:
        """``auto_title``: name the session after its first exchange (off: names stay as tests set
        them); ``settings``: more of the port's effective settings."""
        more = dict(settings or {})
        self.root = tmp_path
        self.project = tmp_path / "project"
        self.project.mkdir(parents=True, exist_ok=True)
        self.provider = FakeProvider(replies)
        self.manager = SessionManager(tmp_path / "sessions", str(self.project))
        self.auth_file = tmp_path / "home" / "auth.json"
        self.reloads = 0
        self.control = SessionControl(
            self.session(self.manager.new()),
            self.manager,
            models=lambda: [MODEL, OTHER, THIRD],
            rebuild=self._rebuild if reloadable else None,
        )
        self.port = CodingSessionPort(
            self.control,
            auth=AuthStore(self.auth_file),
            settings=lambda: {"theme": "dark", "retry": {"enabled": True}, "autoTitle": auto_title, **more},
        )

    def session(self, log: object) -> CodingSession:
        from tau_agent.session.log import SessionLog

        assert isinstance(log, SessionLog)
        return CodingSession(
            log=log,
            model=MODEL,
            provider_factory=lambda model: self.provider,
            tools=[],
            system_prompt="Be brief.",
            cwd=self.project,
        )

    def _rebuild(self, old: CodingSession) -> CodingSession:
        self.reloads += 1
        return self.session(old.log)

    def other_session(self, *prompts_and_answers: str, name: str | None = None) -> Path:
        """Write a second stored session for this project directly (user/assistant pairs)."""
        from tau_agent.content import TextContent
        from tau_agent.messages import AssistantMessage, UserMessage

        log = self.manager.new()
        pairs = iter(prompts_and_answers)
        for prompt, answer in zip(pairs, pairs, strict=True):
            log.append_message(UserMessage(prompt))
            log.append_message(AssistantMessage([TextContent(answer)]))
        if name:
            log.set_name(name)
        path = log.storage.path  # type: ignore[attr-defined]
        log.close()
        assert isinstance(path, Path)
        return path


async def drain(port: CodingSessionPort, text: str) -> None:
    async for _ in port.prompt(text):
        pass


def write_long_session(rig: Rig, turns: int, *, branch_at: int) -> None:
    """Append ``turns`` question/answer pairs to the rig's session, stepping back to answer
    ``branch_at - 1`` once turn ``branch_at`` is written, so the turns after it form the active
    branch and turn ``branch_at``'s pair is left behind on a branch of its own."""
    from tau_agent.content import TextContent
    from tau_agent.messages import AssistantMessage, UserMessage

    log = rig.control.session.log
    for turn in range(turns):
        log.append_message(UserMessage(f"question {turn}"))
        log.append_message(AssistantMessage([TextContent(f"answer {turn}")]))
        if turn == branch_at:
            log.navigate(log.entries[-3].id)
