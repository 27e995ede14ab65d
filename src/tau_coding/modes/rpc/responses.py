"""Response objects of the protocol and the error a command handler raises.

``{"id"?, "type": "response", "command", "success": true, "data"?}`` or, on failure,
``{"id"?, "type": "response", "command", "success": false, "error"}``. The id is echoed only
when the command carried one; ``data`` is omitted for commands that return nothing.
"""

from __future__ import annotations

from typing import Any, Final


class CommandError(ValueError):
    """A command cannot be carried out; its message becomes the response's ``error``."""


class _NoData:
    def __repr__(self) -> str:
        return "NO_DATA"


NO_DATA: Final = _NoData()  # a success with no "data" field (None would send "data": null)


def success(command: str, request_id: Any = None, data: Any = NO_DATA) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "response", "command": command, "success": True}
    if request_id is not None:
        out = {"id": request_id, **out}
    if data is not NO_DATA:
        out["data"] = data
    return out


def failure(command: str, request_id: Any, error: str) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "response", "command": command, "success": False, "error": error}
    return {"id": request_id, **out} if request_id is not None else out


__all__ = ["NO_DATA", "CommandError", "failure", "success"]
