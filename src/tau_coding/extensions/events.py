"""What an extension's interception handlers receive and may return.

``tau.on(name, handler)`` subscribes to any agent or session event by its ``type`` (``"*"``
for all of them, as they are announced) or to one of the interception points below. An
interception handler may return ``None`` to leave things as they are; handlers of one
point run in load order, each seeing what the previous one produced.

============================  ========================  =============================================
point                         handler receives          handler may return
============================  ========================  =============================================
``input``                     ``InputEvent``            ``InputTransform`` or ``InputHandled``
``before_agent_start``        ``AgentStartEvent``       ``AgentStartPatch`` (system prompt, a message)
``tool_call``                 ``ToolCallEvent``         ``ToolCallDecision`` (block, or new input)
``tool_result``               ``ToolResultEvent``       ``ToolResultPatch``
``context``                   ``ContextEvent``          a new list of messages for this one call
``before_provider_request``   ``ProviderRequestEvent``  a replacement payload (a dict)
``session_start``             ``SessionStartEvent``     nothing
``session_before_compact``    ``CompactEvent``          ``CompactDecision`` (cancel, or the summary)
``stop``                      ``StopEvent``             ``StopDecision`` (continue with a message)
``session_shutdown``          ``ShutdownEvent``         nothing (plain functions only: no loop runs)
============================  ========================  =============================================

The types are plain (mutable, compared by identity) dataclasses: building frozen ones costs
start-up time that every run with an extension would pay. Treat received events as read-only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_agent.content import ImageContent, ToolResultContent
from tau_agent.messages import AgentMessage, CustomMessage

INTERCEPTION_POINTS = (
    "input",
    "before_agent_start",
    "tool_call",
    "tool_result",
    "context",
    "before_provider_request",
    "session_start",
    "session_before_compact",
    "stop",
    "session_shutdown",
)


@dataclass(eq=False)
class InputEvent:
    text: str
    images: Sequence[ImageContent] = ()
    source: Literal["interactive", "print", "rpc", "extension"] = "print"


@dataclass(eq=False)
class InputTransform:
    """Send this text (and these images) instead."""

    text: str
    images: Sequence[ImageContent] | None = None


@dataclass(eq=False)
class InputHandled:
    """The extension took care of the input; nothing goes to the model."""

    message: str | None = None


@dataclass(eq=False)
class AgentStartEvent:
    """A prompt is about to run: its text (as typed, after ``input`` handlers) and the system
    prompt as the previous ``before_agent_start`` handlers left it."""

    prompt: str
    images: Sequence[ImageContent]
    system_prompt: str


@dataclass(eq=False)
class AgentStartPatch:
    """``system_prompt`` replaces the system prompt for this prompt's run only (restored when it
    settles); ``message`` is a custom message put into the context (and the session file)
    before the user's message."""

    system_prompt: str | None = None
    message: CustomMessage | None = None


@dataclass(eq=False)
class ToolCallEvent:
    tool_name: str
    tool_call_id: str
    input: Mapping[str, Any]


@dataclass(eq=False)
class ToolCallDecision:
    """``block`` refuses the call (``reason`` goes to the model); ``input`` replaces its arguments.

    ``permission`` speaks to the permission engine (docs/permissions.md): ``"allow"`` runs a
    call that would ask, ``"ask"`` asks about one that would run; deny rules still hold.
    """

    block: bool = False
    reason: str | None = None
    input: dict[str, Any] | None = None
    permission: Literal["allow", "ask"] | None = None


@dataclass(eq=False)
class ToolResultEvent:
    tool_name: str
    tool_call_id: str
    input: Mapping[str, Any]
    content: Sequence[ToolResultContent]
    details: Any
    is_error: bool


@dataclass(eq=False)
class ToolResultPatch:
    """Fields left ``None`` keep the result's own."""

    content: list[ToolResultContent] | None = None
    details: Any = None
    is_error: bool | None = None


@dataclass(eq=False)
class ContextEvent:
    """A copy of the messages about to be sent; the record itself is never changed."""

    messages: list[AgentMessage]


@dataclass(eq=False)
class ProviderRequestEvent:
    provider: str
    model: str
    url: str
    payload: dict[str, Any]


@dataclass(eq=False)
class SessionStartEvent:
    session_id: str
    source: Literal["startup", "resume", "reload"] = "startup"


@dataclass(eq=False)
class CompactEvent:
    trigger: Literal["manual", "auto"]
    custom_instructions: str = ""


@dataclass(eq=False)
class CompactDecision:
    """``cancel`` stops the compaction (nothing is written); ``summary`` is recorded as the
    compaction's summary instead of asking the model for one (the kept tail is Tau's choice)."""

    cancel: bool = False
    summary: str | None = None


@dataclass(eq=False)
class StopEvent:
    """The run would stop now; ``stop_hook_active`` says it already continued because of a stop handler."""

    stop_hook_active: bool
    last_text: str = ""


@dataclass(eq=False)
class StopDecision:
    """Keep going: ``message`` is sent to the model as the next user message."""

    message: str


@dataclass(eq=False)
class ShutdownEvent:
    reason: str = "exit"
    extra: Mapping[str, Any] = field(default_factory=dict)
