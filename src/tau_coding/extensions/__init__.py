"""Python extensions: modules with ``activate(tau)`` that add tools, commands and hooks.

What an extension imports from here: ``ExtensionAPI`` (the type of ``tau``) and the event
and decision types of the interception points (see ``events.py``).
"""

from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.events import (
    CompactEvent,
    ContextEvent,
    InputEvent,
    InputHandled,
    InputTransform,
    ProviderRequestEvent,
    SessionStartEvent,
    ShutdownEvent,
    StopDecision,
    StopEvent,
    ToolCallDecision,
    ToolCallEvent,
    ToolResultEvent,
    ToolResultPatch,
)
from tau_coding.extensions.ui import HeadlessUI, UIBridge

__all__ = [
    "CompactEvent",
    "ContextEvent",
    "ExtensionAPI",
    "HeadlessUI",
    "InputEvent",
    "InputHandled",
    "InputTransform",
    "ProviderRequestEvent",
    "SessionStartEvent",
    "ShutdownEvent",
    "StopDecision",
    "StopEvent",
    "ToolCallDecision",
    "ToolCallEvent",
    "ToolResultEvent",
    "ToolResultPatch",
    "UIBridge",
]
