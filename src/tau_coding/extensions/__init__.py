"""Python extensions: modules with ``activate(tau)`` that add tools, commands and hooks.

What an extension imports from here: ``ExtensionAPI`` (the type of ``tau``), the event and
decision types of the interception points (``events.py``) and the UI bridge types. They
are loaded on first use, so a run with no extensions pays nothing for this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI
    from tau_coding.extensions.events import (
        AgentStartEvent,
        AgentStartPatch,
        Cancel,
        CompactDecision,
        CompactEvent,
        ContextEvent,
        ForkDecision,
        ForkEvent,
        InputEvent,
        InputHandled,
        InputTransform,
        ModelSelectEvent,
        ProviderRequestEvent,
        ResourcePaths,
        ResourcesEvent,
        SessionStartEvent,
        ShutdownEvent,
        StopDecision,
        StopEvent,
        SwitchEvent,
        ThinkingSelectEvent,
        ToolCallDecision,
        ToolCallEvent,
        ToolResultEvent,
        ToolResultPatch,
        TreeDecision,
        TreeEvent,
        UserBashEvent,
        UserBashPatch,
    )
    from tau_coding.extensions.message_patch import MessagePatch
    from tau_coding.extensions.provider_response import ProviderResponseEvent
    from tau_coding.extensions.ui import HeadlessUI, UIBridge
    from tau_coding.session.compaction.result import CompactionResult

_HOMES = {
    "ExtensionAPI": "api",
    "HeadlessUI": "ui",
    "UIBridge": "ui",
    "MessagePatch": "message_patch",
    "ProviderResponseEvent": "provider_response",
    "CompactionResult": "compaction",
}

__all__ = [
    "AgentStartEvent",
    "AgentStartPatch",
    "Cancel",
    "CompactDecision",
    "CompactEvent",
    "CompactionResult",
    "ContextEvent",
    "ExtensionAPI",
    "ForkDecision",
    "ForkEvent",
    "HeadlessUI",
    "InputEvent",
    "InputHandled",
    "InputTransform",
    "MessagePatch",
    "ModelSelectEvent",
    "ProviderRequestEvent",
    "ProviderResponseEvent",
    "ResourcePaths",
    "ResourcesEvent",
    "SessionStartEvent",
    "ShutdownEvent",
    "StopDecision",
    "StopEvent",
    "SwitchEvent",
    "ThinkingSelectEvent",
    "ToolCallDecision",
    "ToolCallEvent",
    "ToolResultEvent",
    "ToolResultPatch",
    "TreeDecision",
    "TreeEvent",
    "UIBridge",
    "UserBashEvent",
    "UserBashPatch",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    home = _HOMES.get(name, "events")
    if home == "compaction":  # Pi's shape of a whole compaction is the session's own result type
        module = importlib.import_module("tau_coding.session.compaction.result")
    else:
        module = importlib.import_module(f"{__name__}.{home}")
    return getattr(module, name)
