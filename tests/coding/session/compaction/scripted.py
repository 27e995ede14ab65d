"""A scripted coding session for compaction tests: a real read tool, real files, a scripted model.

``ScriptedModel`` answers two kinds of request: the agent's (scripted per prompt: read a
file, then answer), and the summariser's (recognised by its system prompt), which it can be
told to fail. It records both, so a test can check what each request carried.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from tau_agent.messages import COMPACTION_PREFIX, Usage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.session.log import SessionLog
from tau_agent.testing import FunctionProvider
from tau_agent.testing.fake_provider import FakeReply, call, fail, reply
from tau_ai.model import Model
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.compaction import prompts
from tau_coding.session.compaction.context_usage import estimate_fixed_tokens, estimate_message_tokens
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.events import SessionEvent
from tau_coding.session.store.manager import SessionManager
from tau_coding.tools.builtin import create_coding_tools

SMALL = Model("small", "fake", "fake", "http://127.0.0.1", context_window=20_000, max_tokens=2_000)
SETTINGS = CompactionSettings(enabled=True, reserve_tokens=4_000, keep_recent_tokens=4_000)


def _usage(context: Context) -> Usage:
    billed = estimate_fixed_tokens(context.system_prompt, context.tools)
    billed += sum(estimate_message_tokens(m) for m in context.messages)
    return Usage(input=billed, output=10, total_tokens=billed + 10)


def request_text(context: Context) -> str:
    last = context.messages[-1]
    assert isinstance(last, UserMessage)
    content = last.content
    return content if isinstance(content, str) else " ".join(getattr(b, "text", "") for b in content)


@dataclass
class ScriptedModel:
    """The agent reads ``file_for(prompt)`` once per prompt, then answers ``answer <prompt>``."""

    summary_error: str | None = None
    overflow_next: int = 0  # how many agent requests to fail with a context overflow
    agent_contexts: list[Context] = field(default_factory=list)
    summary_requests: list[str] = field(default_factory=list)
    on_agent_request: Callable[[Context], None] | None = None

    def __call__(self, context: Context, options: StreamOptions) -> FakeReply:
        return self._with_usage(context)

    def _with_usage(self, context: Context) -> FakeReply:
        """The reply, billed like a provider would: the whole request as input."""
        answer = self._answer(context)
        if answer.error is not None:
            return answer
        return replace(answer, usage=_usage(context))

    def _answer(self, context: Context) -> FakeReply:
        if context.system_prompt == prompts.SYSTEM_PROMPT:
            text = request_text(context)
            self.summary_requests.append(text)
            if self.summary_error is not None:
                return fail(self.summary_error)
            return reply(f"## Goal\nsummary {len(self.summary_requests)}")
        self.agent_contexts.append(context)
        if self.on_agent_request is not None:
            self.on_agent_request(context)
        if self.overflow_next > 0:
            self.overflow_next -= 1
            return fail(
                "This model's maximum context length is 20000 tokens. Please reduce the length of the messages."
            )
        last = context.messages[-1]
        if isinstance(last, UserMessage) and not request_text(context).startswith(COMPACTION_PREFIX):
            name = request_text(context).split()[-1]
            return reply(call("read", {"path": f"{name}.txt"}))
        prompt = next(
            m for m in reversed(context.messages) if isinstance(m, UserMessage) and "turn" in str(m.content)
        )
        return reply(f"answer {str(prompt.content).split()[-1]}")


def make_session(
    tmp_path: Path,
    model: ScriptedModel,
    *,
    settings: CompactionSettings = SETTINGS,
    summary_model: Model | None = None,
    log: SessionLog | None = None,
    llm: Model = SMALL,
) -> tuple[CodingSession, FunctionProvider]:
    provider = FunctionProvider(model)
    manager = SessionManager(tmp_path / "sessions", str(tmp_path))
    session = CodingSession(
        log=log or manager.new(),
        model=llm,
        provider_factory=lambda m: provider,
        tools=list(create_coding_tools(tmp_path, names=["read"]).values()),
        system_prompt="Be brief.",
        cwd=tmp_path,
        compaction=settings,
        summary_model=summary_model,
    )
    return session, provider


def write_turn_files(root: Path, count: int, size: int = 1_600) -> None:
    for i in range(count):
        (root / f"t{i}.txt").write_text((f"line of file {i}\n" * (size // 16 + 1))[:size])


async def drain(events: AsyncIterator[SessionEvent]) -> list[SessionEvent]:
    return [e async for e in events]
