"""WireApi: the pure half of an adapter, one per wire API.

An adapter is split in two. The pure half (this contract, implemented under
``tau_ai/apis/<api>/``) turns a Context into a request and a response's SSE events into
canonical AssistantMessageEvents; it does no I/O and is tested with recorded bytes. The I/O
half (``http_provider.py``) is shared by all APIs: it sends the request, retries, decodes SSE,
feeds the parser, and turns every failure into an ``error`` event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from tau_agent.messages import LlmMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.body_encoding import Part
from tau_ai.model import Model
from tau_ai.sse import SseEvent


@dataclass(frozen=True, slots=True)
class HttpRequestSpec:
    """What to send: absolute URL, headers (auth included), JSON body."""

    url: str
    headers: Mapping[str, str]
    body: Mapping[str, Any]
    method: str = "POST"


class WireParser(Protocol):
    """One response's SSE events -> canonical events (through an AssistantMessageBuilder).

    ``feed`` may end the message itself (an error event inside an HTTP-200 stream, or the API's
    own end marker); after that it returns no more events. ``finish`` is called when the body
    ended; if the message has not ended yet it must end it: ``done`` when the API's stream
    was complete, ``error`` ("stream ended unexpectedly") when it was cut short. ``fail`` ends
    it as failed or aborted from outside (transport error, cancellation), keeping what arrived.
    """

    @property
    def has_content(self) -> bool: ...

    @property
    def ended(self) -> bool: ...

    def feed(self, event: SseEvent) -> list[AssistantMessageEvent]: ...

    def finish(self) -> list[AssistantMessageEvent]: ...

    def fail(self, reason: str, error_message: str) -> list[AssistantMessageEvent]: ...


class MessageConverter(Protocol):
    """A request's messages in one API's wire shape, converted one transcript message at a time.

    ``messages()`` equals the API's whole-context conversion of every message added so far
    (frozen converters give all items but the last as ``orjson.Fragment``s of the same JSON);
    it leaves the converter as it was, so more messages can follow. ``copy()`` is an
    independent converter in the same state (cheap: items are shared, never changed).
    """

    def add(self, message: LlmMessage) -> None: ...

    def messages(self) -> list[Any]: ...

    def copy(self) -> MessageConverter: ...

    def __len__(self) -> int:
        """How many items ``items()`` holds."""
        ...

    def items(self) -> list[Any]:
        """The items so far as the converter keeps them: frozen ones as ``orjson.Fragment``s,
        without what ``messages()`` adds on top (say, a cache mark on the latest user turn)."""
        ...

    def fold(self, start: int, end: int, keep: Callable[[memoryview], Part] | None = None) -> int:
        """Keep ``items()[start:end]``, all frozen, as one run of their JSON (a
        ``body_encoding.Spliced`` item, its bytes where ``keep`` puts them: in memory when
        None); ``messages()`` then encodes to the same bytes. Returns how many items fewer
        ``items()`` holds (0: left as they were)."""
        ...

    def seed(self, items: list[Any]) -> None:
        """Continue from ``items``: this new converter's own ``items()`` (what it starts with,
        say a system-prompt item), then what another converter of the same model converted
        after its own opening items and before a user message (its ``items()`` taken right
        after that message became their last item, with that item left off). Adding the same
        user message next gives the state that converter would have had with this one's
        system prompt (``messages()`` and ``items()``, as the same messages follow)."""
        ...


@dataclass(frozen=True, slots=True)
class IncrementalRequests:
    """How an API builds a request from messages converted ahead of time.

    ``new_converter(model, system_prompt, frozen)`` starts a converter;
    ``build_request(model, context, options, api_key, messages)`` is the API's
    ``build_request`` with ``messages`` standing for the conversion of ``context.messages``.
    """

    new_converter: Callable[[Model, str, bool], MessageConverter]
    build_request: Callable[[Model, Context, StreamOptions, str | None, list[Any]], HttpRequestSpec]


class StreamDecoder(Protocol):
    """Response body bytes -> events, split anywhere (``tau_ai.sse.SseDecoder`` is one)."""

    def feed(self, chunk: bytes) -> list[SseEvent]: ...

    def flush(self) -> list[SseEvent]: ...


RequestSigner = Callable[[Model, "str | None", str, str, Mapping[str, str], bytes], Mapping[str, str]]
"""``(model, api_key, method, url, headers, body) -> headers``: the final headers of one attempt."""


@dataclass(frozen=True, slots=True)
class WireApi:
    """The pure half of one API.

    ``build_request(model, context, options, api_key)`` builds the request;
    ``new_parser(model)`` makes a parser for one response; ``error_message(status, body)``
    extracts the provider's own message from an error body (capped, one line).
    ``incremental``, when given, lets a caller keep converted messages between requests.
    ``new_decoder``, when given, makes the body decoder of one response (default: SSE; a body
    that is not SSE-shaped is then not reported as a wrong answer). ``sign``, when given, sees
    the exact bytes and headers of every attempt just before it is sent (AWS SigV4).
    ``expired_credentials(status, message)``, when given, says whether a refusal other than a
    401 means the credentials expired (AWS answers 403 ``ExpiredToken``): such a refusal, like a
    401, has the credentials renewed and the request sent once more.
    """

    name: str
    build_request: Callable[[Model, Context, StreamOptions, str | None], HttpRequestSpec]
    new_parser: Callable[[Model], WireParser]
    error_message: Callable[[int, bytes], str]
    extra: Mapping[str, Any] = field(default_factory=dict)
    incremental: IncrementalRequests | None = None
    new_decoder: Callable[[], StreamDecoder] | None = None
    sign: RequestSigner | None = None
    expired_credentials: Callable[[int, str], bool] | None = None

    def refuses_credentials(self, status: int | None, message: str) -> bool:
        """Whether a failed attempt's ``status`` and ``message`` say its credentials were refused."""
        if status == 401:
            return True
        return (
            status is not None
            and self.expired_credentials is not None
            and self.expired_credentials(status, message)
        )


def signing_with(sign: RequestSigner, current_key: Callable[[], str | None]) -> RequestSigner:
    """``sign`` using the key ``current_key()`` gives at each attempt in place of the key the
    provider was made with (which it falls back to when ``current_key()`` is None): credentials
    renewed during a long session sign the requests that follow."""

    def signer(
        model: Model, made_with: str | None, method: str, url: str, headers: Mapping[str, str], body: bytes
    ) -> Mapping[str, str]:
        key = current_key()
        return sign(model, made_with if key is None else key, method, url, headers, body)

    return signer
