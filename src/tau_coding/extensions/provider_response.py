"""``after_provider_response``: an HTTP provider's answer arrived, its body not read yet.

Handlers are awaited in load order with the status and the headers (names in lower case), for
every answer (an error status too, a retried one each time). What they return is ignored, as
in Pi: the point is to look (rate-limit headers, request ids, timing). A failing handler is
reported and the stream goes on. Providers an extension serves with its own stream function
have no HTTP answer to tell of.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from tau_ai.http_attempt import ResponseHook
    from tau_coding.extensions.host_port import ExtensionHostPort


@dataclass(eq=False)
class ProviderResponseEvent:
    type: ClassVar[str] = "after_provider_response"
    status: int
    headers: Mapping[str, str]
    provider: str
    model: str


def response_hook(host: ExtensionHostPort, provider: str, model: str) -> ResponseHook:
    """An HttpProvider ``on_response`` telling ``host``'s ``after_provider_response`` handlers."""
    from tau_coding.extensions.guard import HandlerFailure

    async def hook(status: int, headers: Mapping[str, str]) -> None:
        handlers = host.registry.handlers.get("after_provider_response")
        if not handlers:
            return
        event = ProviderResponseEvent(status, dict(headers), provider, model)
        for owner, handler in list(handlers):
            if owner not in host.extensions:
                continue
            try:
                await host.guard(owner).call("after_provider_response handler", handler, event)
            except HandlerFailure as failure:
                host.report_failure(failure)

    return hook
