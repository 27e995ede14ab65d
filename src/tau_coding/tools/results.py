"""Shared shapes of tool results: errors as one sentence, and the guard that keeps tools from raising.

A tool's ``execute`` is wrapped by ``guarded`` so an unexpected exception still becomes an
error result naming the tool and the problem, and the model can react instead of the run
seeing a crash.
"""

from __future__ import annotations

import asyncio
import errno
import functools
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentToolResult, ToolExecute, ToolUpdate


def fail(message: str, details: Any = None) -> AgentToolResult:
    return AgentToolResult.text(message, details, is_error=True)


def describe_os_error(exc: OSError, shown: str) -> str:
    """One sentence for an OSError on the path the model sees as ``shown``."""
    if isinstance(exc, FileNotFoundError):
        return f"File not found: {shown}"
    if isinstance(exc, PermissionError):
        return f"Permission denied: {shown}"
    if isinstance(exc, IsADirectoryError):
        return f"Path is a directory, not a file: {shown}"
    if isinstance(exc, NotADirectoryError):
        return f"A part of the path is not a directory: {shown}"
    if exc.errno == errno.ENOSPC:
        return f"No space left on device while writing {shown}"
    if exc.errno == errno.EROFS:
        return f"Read-only file system: {shown}"
    reason = exc.strerror or str(exc)
    return f"{reason}: {shown}"


def guarded(tool_name: str, execute: ToolExecute) -> ToolExecute:
    """``execute`` with every exception (but cancellation) turned into an error result."""

    @functools.wraps(execute)
    async def run(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        try:
            return await execute(tool_call_id, args, signal, on_update)
        except asyncio.CancelledError:
            raise
        except OSError as exc:
            shown = str(Path(exc.filename)) if exc.filename else tool_name
            return fail(f"{tool_name} failed: {describe_os_error(exc, shown)}")
        except Exception as exc:
            return fail(f"{tool_name} failed: {type(exc).__name__}: {exc}")

    return run
