"""Tau from Python: ``create_session`` runs Tau in your process, ``RpcClient`` drives ``tau --mode rpc``.

    from tau_coding.sdk import create_session, RpcClient

Names load on first use, so importing the RPC client does not import the whole app.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_coding.sdk.rpc_client import RpcClient, RpcError
    from tau_coding.sdk.session import ConfigurationError, TauSession, create_session

_HOMES = {
    "ConfigurationError": "session",
    "TauSession": "session",
    "create_session": "session",
    "RpcClient": "rpc_client",
    "RpcError": "rpc_client",
}

__all__ = ["ConfigurationError", "RpcClient", "RpcError", "TauSession", "create_session"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
