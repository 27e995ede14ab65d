"""What the MCP side reports: servers' states, their tools and prompts, one-line errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, TypeAlias

State: TypeAlias = Literal["starting", "ready", "failed", "stopped"]


class McpCallError(Exception):
    """A call that did not reach a result: the server is not ready, went away or timed out."""


class ToolInfo(NamedTuple):
    """A tool as the server lists it."""

    server: str
    name: str
    description: str
    schema: Mapping[str, Any]


class PromptInfo(NamedTuple):
    """A prompt as the server lists it; ``arguments`` are (name, required) in the server's order."""

    server: str
    name: str
    description: str
    arguments: tuple[tuple[str, bool], ...]


class ServerStatus(NamedTuple):
    name: str
    transport: str
    state: State
    tools: tuple[ToolInfo, ...]
    error: str | None
    prompts: tuple[PromptInfo, ...] = ()
    enabled: bool = True  # in this session (``/mcp enable|disable``)
    resources: tuple[str, ...] = ()  # URIs, for ``@server:uri`` completion


def describe(exc: BaseException) -> str:
    """One line for an exception, however deep the SDK's task groups nested it."""
    notes = [n for n in getattr(exc, "__notes__", ()) if n]
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
        notes += [n for n in getattr(exc, "__notes__", ()) if n]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, FileNotFoundError | PermissionError) and exc.filename:
        text = f"cannot run {exc.filename}: {exc.strerror}"
    return f"{text} ({notes[-1]})" if notes else text
