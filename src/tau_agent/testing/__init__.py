"""Test doubles that ship with tau_agent: scripted and function-driven providers."""

from tau_agent.testing.fake_provider import (
    FakeProvider,
    FakeReply,
    FunctionProvider,
    call,
    deltas,
    fail,
    reply,
    text,
    thinking,
)

__all__ = [
    "FakeProvider",
    "FakeReply",
    "FunctionProvider",
    "call",
    "deltas",
    "fail",
    "reply",
    "text",
    "thinking",
]
