"""ModelProvider: the port through which the agent asks a model for a reply.

Contract (what the loop relies on): ``stream`` returns an async iterator of
AssistantMessageEvents that ends with exactly one ``done`` or ``error`` event. HTTP, network
and model failures are not raised; they end the stream with ``error`` and a final message
whose stop_reason is "error" or "aborted" and which keeps whatever had arrived. When the
token is cancelled the stream ends promptly with stop_reason "aborted".
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import LlmMessage
from tau_agent.stream_events import AssistantMessageEvent
from tau_agent.tools import ToolSpec

ThinkingLevel: TypeAlias = Literal["off", "minimal", "low", "medium", "high", "xhigh"]
THINKING_LEVELS: tuple[ThinkingLevel, ...] = ("off", "minimal", "low", "medium", "high", "xhigh")


@dataclass(slots=True)
class Context:
    """Everything a model sees in one request."""

    system_prompt: str
    messages: Sequence[LlmMessage]
    tools: Sequence[ToolSpec] = ()


@dataclass(frozen=True, slots=True)
class RetryNotice:
    """A provider is about to retry (attempt is 1-based); surfaced as auto_retry events above."""

    attempt: int
    max_attempts: int
    delay_ms: int
    error_message: str


@dataclass(slots=True)
class StreamOptions:
    """Per-request options. Providers ignore what their API cannot express."""

    signal: CancellationToken = field(default_factory=CancellationToken)
    thinking_level: ThinkingLevel = "off"
    max_tokens: int | None = None
    temperature: float | None = None
    session_id: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    on_retry: Callable[[RetryNotice], None] | None = None
    retry: bool = True  # False: report the first transient failure instead of retrying it
    # Cancelled while a provider waits to retry: it stops waiting and reports the failure.
    abort_retry: CancellationToken | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


class ModelProvider(Protocol):
    """A configured model. ``api``, ``provider`` and ``model`` name it on every reply."""

    @property
    def api(self) -> str: ...

    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...

    def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]: ...
