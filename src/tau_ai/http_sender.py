"""The seam between one HTTP attempt and the client that sends it.

``http_attempt.run_attempt`` sends through a ``Sender``: Tau's own client (``http_direct``),
or httpx's when proxies, an injected client or ``TAU_HTTP_TRANSPORT=httpx`` call for it
(``http_client.HttpxSender``). Either raises only ``http_errors`` exceptions, from ``send``
and from reading the body.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Protocol

from tau_ai.body_encoding import RequestBody
from tau_ai.http1_connection import Timeouts


class StreamedResponse(Protocol):
    """A response whose body is still to be read; ``aclose`` must always be awaited."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]:
        """Names compared without case."""
        ...

    def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body, content encoding undone, in pieces as they arrive."""
        ...

    async def aclose(self) -> None: ...


class Sender(Protocol):
    async def send(
        self, method: str, url: str, headers: Mapping[str, str], body: RequestBody, timeouts: Timeouts
    ) -> StreamedResponse:
        """Send a request (``headers`` as given, lower-cased names; the sender adds Host and
        its defaults); the response once its head has arrived."""
        ...

    async def aclose(self) -> None:
        """Close the connections this sender opened (not those of an injected client)."""
        ...
