"""EventBus: named channels extensions use to talk to each other (``tau.events``).

``emit(channel, data)`` calls every subscriber of ``channel`` at once, in subscription order,
each under its extension's guard: a failing subscriber is reported and the others still run.
A subscription belongs to the extension that made it and goes when that one is unloaded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tau_coding.extensions.guard import HandlerFailure

if TYPE_CHECKING:
    from tau_coding.extensions.host_port import ExtensionHostPort


class EventBus:
    """One extension's view of the host's shared channels."""

    def __init__(self, host: ExtensionHostPort, owner: str) -> None:
        self._host = host
        self._owner = owner

    def on(self, channel: str, handler: Callable[[Any], object]) -> Callable[[], None]:
        """Subscribe; returns a function that unsubscribes."""
        entry = (self._owner, handler)
        self._host.registry.channels.setdefault(channel, []).append(entry)

        def off() -> None:
            subscribers = self._host.registry.channels.get(channel, [])
            if entry in subscribers:
                subscribers.remove(entry)

        return off

    def emit(self, channel: str, data: Any = None) -> int:
        """Deliver ``data`` to the channel's subscribers now; returns how many were called."""
        called = 0
        for owner, handler in list(self._host.registry.channels.get(channel, ())):
            if owner not in self._host.extensions:
                continue
            called += 1
            try:
                self._host.guard(owner).call_sync(f"events {channel!r} handler", handler, data)
            except HandlerFailure as failure:
                self._host.report_failure(failure)
        return called
