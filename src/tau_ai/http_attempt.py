"""One HTTP attempt of a streamed request: send, check, decode, parse, classify the failure.

``run_attempt`` either finishes the message (delivering every event, the terminal one
included) and returns None, or returns a ``Failure`` having delivered nothing, so that the
caller may retry without showing anything twice. A failure after content has arrived is
never returned: it is delivered at once as the ``error`` that ends the message.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tau_agent.stream_events import AssistantMessageEvent, ErrorEvent
from tau_ai import http_errors as errors
from tau_ai.body_encoding import RequestBody
from tau_ai.http1_connection import Timeouts
from tau_ai.model import Model
from tau_ai.retry import is_retryable_error_text
from tau_ai.sse import SseDecoder, SseEvent
from tau_ai.wire_api import StreamDecoder, WireApi, WireParser

if TYPE_CHECKING:
    from tau_ai.http_sender import Sender, StreamedResponse

MAX_ERROR_CHARS = 1000
DRAIN_SECONDS = 1.0
DRAIN_BYTES = 64 * 1024
_SSE_START = re.compile(rb"(?:data|event|id|retry)?:")
Deliver = Callable[[list[AssistantMessageEvent]], None]
# Told the status and headers of each answer before its body is read (``run_attempt``).
ResponseHook = Callable[[int, Mapping[str, str]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Failure:
    """Why an attempt produced nothing. ``status`` is None for transport errors."""

    message: str
    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    retryable: bool = True


def one_line(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """Whitespace collapsed to single spaces, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Attempt:
    """The parser of the current attempt and the events it holds back until its first content."""

    __slots__ = ("held", "model", "parser", "wire")

    def __init__(self, wire: WireApi, model: Model) -> None:
        self.wire = wire
        self.model = model
        self.parser: WireParser | None = None
        self.held: list[AssistantMessageEvent] | None = None

    def start(self) -> WireParser:
        self.parser = self.wire.new_parser(self.model)
        self.held = []
        return self.parser

    def reset(self) -> None:
        self.parser, self.held = None, None

    def push(self, events: list[AssistantMessageEvent], deliver: Deliver) -> Failure | None:
        """Deliver ``events``, or hold them while the attempt has shown no content.

        An attempt whose parser ended with a transient-sounding error before any content
        (an "overloaded" event in a 200 stream) becomes a Failure to retry.
        """
        held, parser = self.held, self.parser
        if held is None:
            deliver(events)
            return None
        held += events
        assert parser is not None
        if parser.has_content:
            self.held = None
            deliver(held)
            return None
        if parser.ended:
            last = held[-1] if held else None
            if isinstance(last, ErrorEvent) and last.reason == "error":
                message = last.message.error_message or "Provider reported an error"
                return Failure(message, retryable=is_retryable_error_text(message))
            self.held = None
            deliver(held)
        return None

    def _end(self, reason: str, message: str) -> list[AssistantMessageEvent]:
        parser = self.parser or self.wire.new_parser(self.model)
        held = self.held or []
        self.parser, self.held = parser, None
        return held + parser.fail(reason, message)

    def give_up(self, message: str) -> list[AssistantMessageEvent]:
        """The final events of a failed request: what was held, then the error (if not ended)."""
        return self._end("error", message)

    def abort(self, message: str) -> list[AssistantMessageEvent]:
        """The final events of a cancelled request: what was held, then the aborted error."""
        return self._end("aborted", message)

    def failed(self, message: str, deliver: Deliver, *, retryable: bool) -> Failure | None:
        """A failure mid-attempt: ends the message if content was shown, else returns it."""
        parser = self.parser
        if parser is not None and parser.has_content:
            if self.held:
                deliver(self.held)
            self.held = None
            deliver(parser.fail("error", message))
            return None
        return Failure(message, retryable=retryable)

    def error_text(self, status: int, body: bytes) -> str:
        """``HTTP <status>: <the provider's message>`` (one line, capped)."""
        detail = ""
        if body.strip():
            try:
                detail = self.wire.error_message(status, body)
            except Exception:  # a message extractor must not turn an error into a crash
                detail = ""
            if not detail.strip():
                detail = body.decode("utf-8", errors="replace")
        detail = one_line(detail)
        return one_line(f"HTTP {status}: {detail}" if detail else f"HTTP {status} (no body)")


def _status_in_body(body: bytes, default: int) -> int:
    """The error code inside a bare JSON error body (Gemini), when it is an HTTP status."""
    try:
        data = json.loads(body)
    except ValueError:
        return default
    if isinstance(data, list) and data:
        data = data[0]
    error = data.get("error") if isinstance(data, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    if isinstance(code, int) and 400 <= code <= 599:
        return code
    return default


async def _read_capped(chunks: AsyncIterator[bytes], head: bytes, cap: int) -> bytes:
    parts, size = [head], len(head)
    try:
        async for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size >= cap:
                break
    except errors.HTTPError:
        pass  # keep what arrived: the status already says the request failed
    return b"".join(parts)[:cap]


async def run_attempt(
    sender: Sender,
    attempt: Attempt,
    *,
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: RequestBody,
    deliver: Deliver,
    connect_timeout: float,
    idle_timeout: float,
    max_error_bytes: int,
    on_response: ResponseHook | None = None,
) -> Failure | None:
    """One request, its response always closed and its connection always given back.

    ``on_response``, if given, is awaited with the status and the headers (names in lower
    case) once they arrive, before the body is read, for every answer (errors included).

    The response is closed on every path (done, failure, cancellation) by ``release``, which
    a cancellation cannot interrupt: an interrupted close would keep the connection checked
    out of the pool for good, and the next requests would wait for a free one forever.
    """
    # Per request, so an injected client gets the same connect and idle limits.
    timeouts = Timeouts(connect=connect_timeout, read=idle_timeout, write=idle_timeout, pool=connect_timeout)
    response: StreamedResponse | None = None
    sized = {**headers, "content-length": str(len(body))}  # a stream's length: no chunked framing
    try:
        response = await sender.send(method, url, sized, body, timeouts)
        status = response.status_code
        if on_response is not None:
            await on_response(status, {name.lower(): value for name, value in response.headers.items()})
        chunks = response.aiter_bytes()
        if not 200 <= status < 300:
            raw = await _read_capped(chunks, b"", max_error_bytes)
            return Failure(attempt.error_text(status, raw), status, response.headers)
        return await _consume(response, chunks, attempt, deliver, max_error_bytes)
    except errors.ConnectTimeout:
        return attempt.failed(f"Connection timed out after {connect_timeout:g}s", deliver, retryable=True)
    except errors.PoolTimeout:
        text = f"No free HTTP connection after {connect_timeout:g}s: every pooled connection is in use"
        return attempt.failed(text, deliver, retryable=True)
    except errors.TimeoutException:
        text = f"No data from the provider for {idle_timeout:g}s; the stream stalled"
        return attempt.failed(text, deliver, retryable=True)
    except errors.TransportError as error:
        text = one_line(f"Connection error: {type(error).__name__}: {error}")
        return attempt.failed(text, deliver, retryable=True)
    except errors.HTTPError as error:
        text = one_line(f"HTTP error: {type(error).__name__}: {error}")
        return attempt.failed(text, deliver, retryable=False)
    finally:
        if response is not None:
            await release(response)


_held: set[asyncio.Task[None]] = set()


def hold(task: asyncio.Task[None]) -> None:
    """Keep ``task`` referenced until it ends: asyncio holds running tasks only weakly, and one
    left to finish on its own (a response being closed) must not be collected mid-way."""
    _held.add(task)
    task.add_done_callback(_held.discard)


async def release(response: StreamedResponse) -> None:
    """Close ``response`` to the end even if the caller is cancelled meanwhile."""
    task = asyncio.ensure_future(response.aclose())
    hold(task)
    await asyncio.shield(task)


async def _drain(chunks: AsyncIterator[bytes]) -> None:
    """Read what follows the end of a message (an end marker, the last chunk's terminator).

    A response read to its end puts its connection back in the pool for the next request;
    one closed early is thrown away, and every model call would pay a new connect.
    Bounded, so a server that keeps a finished stream open cannot hold the caller.
    """
    size = 0
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            async for chunk in chunks:
                size += len(chunk)
                if size > DRAIN_BYTES:
                    return
    except (TimeoutError, errors.HTTPError):
        pass


async def _consume(
    response: StreamedResponse,
    chunks: AsyncIterator[bytes],
    attempt: Attempt,
    deliver: Deliver,
    max_error_bytes: int,
) -> Failure | None:
    # Sniff the first bytes: SSE starts with a field name or ':'; a '{' or '[' is a bare JSON
    # body, which Gemini sends for errors even under a text/event-stream content type, and a
    # body that is neither SSE-shaped nor labelled SSE (an HTML page from a wrong base URL or
    # a proxy) is reported as it is rather than parsed into nothing.
    head = b""
    async for chunk in chunks:
        head += chunk
        if head.strip():
            break
    start = head.lstrip()
    own_decoder = attempt.wire.new_decoder
    labelled_sse = own_decoder is not None or "event-stream" in response.headers.get("content-type", "")
    if start[:1] in (b"{", b"[") or (start and not labelled_sse and not _SSE_START.match(start)):
        raw = await _read_capped(chunks, head, max_error_bytes)
        status = _status_in_body(raw, response.status_code)
        text = attempt.error_text(status, raw)
        if 200 <= status < 300:  # an error dressed as a success: judged by its words, as in a stream
            return Failure(text, None, response.headers, retryable=is_retryable_error_text(text))
        return Failure(text, status, response.headers)

    parser = attempt.start()
    decoder: StreamDecoder = own_decoder() if own_decoder is not None else SseDecoder()
    feed = parser.feed

    def step(events: list[SseEvent]) -> tuple[bool, Failure | None]:
        """Feed decoded events; (True, failure) once the attempt is over."""
        out: list[AssistantMessageEvent] = []
        try:
            for sse in events:
                out += feed(sse)
        except Exception as error:  # a chunk the parser cannot read is data, not a crash
            if out:
                attempt.push(out, deliver)
            text = one_line(f"Malformed data from the provider ({error}): {sse.data}", 500)
            return True, attempt.failed(text, deliver, retryable=True)
        if not out:
            return False, None
        failure = attempt.push(out, deliver)
        return failure is not None or parser.ended, failure

    over, failure = step(decoder.feed(head))
    if over:
        if failure is None:
            await _drain(chunks)
        return failure
    async for chunk in chunks:
        events = decoder.feed(chunk)
        if events:
            over, failure = step(events)
            if over:
                if failure is None:
                    await _drain(chunks)
                return failure
    over, failure = step(decoder.flush())
    if over:
        return failure
    try:
        out = parser.finish()
    except Exception as error:
        return attempt.failed(one_line(f"Malformed end of stream ({error})", 500), deliver, retryable=False)
    return attempt.push(out, deliver) if out else None
