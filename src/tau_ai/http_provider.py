"""HttpProvider: the I/O half every wire API shares (a tau_agent ModelProvider).

It asks the WireApi for the request, sends it as a stream, decodes the body with
the shared SseDecoder and feeds every event to the API's parser, yielding what comes out.
What a caller may rely on:

* The stream never raises for HTTP, network or provider failures. An error status, a bare
  JSON error under an SSE content type (Gemini), a timeout, a dropped connection or a chunk
  the parser cannot read ends it with one ``error`` event that keeps what arrived; its
  ``error_message`` is the provider's own words where there are some (one line, capped).
* Transient failures are retried (policy in ``retry.py``) while nothing has been shown yet:
  events of an attempt are held back until its first content block, so a retried attempt
  never duplicates a ``start`` or any text. Once content has arrived, a failure ends the
  stream instead. Every retry is announced through ``options.on_retry`` before the wait.
* ``options.signal`` aborts at any moment (connecting, waiting to retry, mid-stream): the
  HTTP response is closed and the stream ends with stop reason ``aborted``.
* A connect timeout and an idle-read timeout (no bytes for ``idle_timeout`` seconds, which
  catches a stalled stream) bound every attempt. HTTP(S)_PROXY/NO_PROXY are honoured.

The work runs in a task of its own that hands batches of events to the iterator through a
queue; the token cancels that task, so an abort never waits for the consumer or the socket.
Requests go through Tau's own HTTP/1.1 client (``http_direct``); httpx is imported only when
a proxy is configured, a client or transport is injected, or ``TAU_HTTP_TRANSPORT=httpx``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from tau_agent.cancellation import CancellationToken
from tau_agent.event_batch import BatchedStream
from tau_agent.provider import Context, RetryNotice, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent, DoneEvent, ErrorEvent
from tau_ai.body_encoding import encode_body_parts, whole
from tau_ai.cost import apply_cost
from tau_ai.http_attempt import Attempt, Failure, ResponseHook, hold, run_attempt
from tau_ai.model import Model
from tau_ai.request_cache import RequestCache
from tau_ai.retry import RetryPolicy, delay_refused_text, plan_retry, refused_delay
from tau_ai.wire_api import HttpRequestSpec, WireApi

if TYPE_CHECKING:
    import httpx

    from tau_ai.http_sender import Sender

_Batch = list[AssistantMessageEvent]
_FINAL = (DoneEvent, ErrorEvent)
RequestHook = Callable[[HttpRequestSpec], Awaitable[HttpRequestSpec]]
# Returns the request with fresh credentials, or why they could not be renewed (one line).
ReauthHook = Callable[[HttpRequestSpec], Awaitable[HttpRequestSpec | str]]


def merge_headers(*layers: Mapping[str, str]) -> dict[str, str]:
    """Later layers win, names compared without case (sent lower-cased, as HTTP allows)."""
    merged: dict[str, str] = {}
    for layer in layers:
        for name, value in layer.items():
            merged[name.lower()] = value
    return merged


def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()


class _Raise:
    """A programmer error inside the worker, re-raised in the consumer's task."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class HttpProvider:
    """A model reached over HTTP through one WireApi.

    ``client`` (not closed by this provider) or ``transport`` (for a client this provider
    makes and closes in ``aclose``) may be injected; otherwise a client is made on first use
    with ``trust_env`` so proxy variables apply. ``connect_timeout`` bounds connecting,
    ``idle_timeout`` any wait for the next bytes, ``max_error_bytes`` how much of an error
    body is read. ``rng`` and ``clock`` are seams for exact tests of the retry waits.
    ``on_request``, if given, sees each request once before it is first sent and returns the
    request to send (the same or a replacement); retries resend what it returned.
    ``on_unauthorized``, if given, is called once per request when the server answers 401
    (or refuses expired credentials, ``WireApi.refuses_credentials``), with the request as
    first built (before ``on_request``), and returns the request to send instead (fresh
    credentials): that one is sent at once, and a second refusal is final. When it returns a
    reason instead, the credentials could not be renewed: the stream ends with the refusal and
    that reason on one line.
    ``on_response``, if given, is awaited with each answer's status and headers before its
    body is read (``run_attempt``).
    """

    def __init__(
        self,
        model: Model,
        wire: WireApi,
        *,
        api_key: str | None,
        client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: RetryPolicy | None = None,
        connect_timeout: float = 15.0,
        idle_timeout: float = 300.0,
        max_error_bytes: int = 64 * 1024,
        rng: Callable[[], float] = random.random,
        clock: Callable[[], float] = time.time,
        on_request: RequestHook | None = None,
        on_unauthorized: ReauthHook | None = None,
        on_response: ResponseHook | None = None,
    ) -> None:
        self._model = model
        self._on_response = on_response
        self._on_request = on_request
        self._on_unauthorized = on_unauthorized
        self._wire = wire
        self._requests = RequestCache(model, wire)  # keeps the converted history between requests
        self._api_key = api_key
        self._client = client
        self._sender: Sender | None = None
        self._transport = transport
        self._retry = retry if retry is not None else RetryPolicy()
        self._connect_timeout = connect_timeout
        self._idle_timeout = idle_timeout
        self._max_error_bytes = max_error_bytes
        self._rng = rng
        self._clock = clock

    @property
    def api(self) -> str:
        return self._model.api

    @property
    def provider(self) -> str:
        return self._model.provider

    @property
    def model(self) -> str:
        return self._model.id

    @property
    def model_info(self) -> Model:
        return self._model

    @property
    def request_cache(self) -> RequestCache:
        """The conversion of this provider's conversation kept between requests (checkpoints)."""
        return self._requests

    async def aclose(self) -> None:
        """Close the HTTP client if this provider made it (a later request makes a new one)."""
        sender, self._sender = self._sender, None
        if sender is not None and self._client is None:
            await sender.aclose()

    async def __aenter__(self) -> HttpProvider:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def _http_sender(self) -> Sender:
        if self._sender is None:
            from tau_ai.http_direct import direct_possible

            if self._client is None and self._transport is None and direct_possible(self._model.base_url):
                from tau_ai.http_direct import DirectSender

                self._sender = DirectSender()
            else:
                from tau_ai.http_client import HttpxSender, make_client

                self._sender = HttpxSender(
                    self._client
                    or make_client(
                        self._model.base_url,
                        self._transport,
                        connect_timeout=self._connect_timeout,
                        idle_timeout=self._idle_timeout,
                    )
                )
        return self._sender

    def stream(self, context: Context, options: StreamOptions) -> BatchedStream:
        """The reply's events; read as ``batches``, one list per network read (event_batch.py)."""
        return BatchedStream(self._batches(context, options))

    async def _batches(
        self, context: Context, options: StreamOptions
    ) -> AsyncGenerator[list[AssistantMessageEvent], None]:
        queue: asyncio.Queue[_Batch | _Raise | None] = asyncio.Queue()
        worker = asyncio.create_task(self._work(context, options, queue.put_nowait))
        ended = False
        try:
            while True:
                batch = await queue.get()
                if batch is None:
                    return
                if isinstance(batch, _Raise):
                    raise batch.error
                if isinstance(batch[-1], _FINAL):  # a final event always ends its batch
                    ended = True
                yield batch
        finally:
            if ended:
                # The message is complete; the worker is at most reading the response to its end
                # and handing the connection back. Cancelling it there would cost the connection.
                hold(worker)
            elif not worker.done():
                worker.cancel()
                await asyncio.wait([worker])

    async def _work(
        self, context: Context, options: StreamOptions, emit: Callable[[_Batch | _Raise | None], None]
    ) -> None:
        """Run the attempts; always ends by emitting ``None`` (after the terminal batch)."""
        task = asyncio.current_task()
        assert task is not None
        unregister = options.signal.on_cancel(lambda: _cancel(task))
        attempt = Attempt(self._wire, self._model)

        def deliver(batch: _Batch) -> None:
            if not batch:
                return
            last = batch[-1]
            if isinstance(last, DoneEvent | ErrorEvent):
                apply_cost(last.message.usage, self._model)
            emit(batch)

        try:
            if options.signal.cancelled:  # aborted before it began: no connection is opened
                deliver(attempt.abort(options.signal.reason or "Request was aborted"))
            else:
                await self._attempts(context, options, attempt, deliver)
        except asyncio.CancelledError:
            deliver(attempt.abort(options.signal.reason or "Request was aborted"))
        except Exception as error:  # a bug below, not a provider failure: surface it
            emit(_Raise(error))
        finally:
            unregister()
            emit(None)

    async def _attempts(
        self,
        context: Context,
        options: StreamOptions,
        attempt: Attempt,
        deliver: Callable[[_Batch], None],
    ) -> None:
        model = self._model
        built = spec = self._requests.build(context, options, self._api_key)
        if self._on_request is not None:
            spec = await self._on_request(built)
        headers = merge_headers(spec.headers, model.headers, options.headers)
        body = encode_body_parts(spec.body)
        sender = self._http_sender()
        retries, waited = 0, 0.0
        sign = self._wire.sign
        reauth = self._on_unauthorized
        while True:
            sent = (
                headers
                if sign is None
                else sign(model, self._api_key, spec.method, spec.url, headers, whole(body))
            )
            failure = await run_attempt(
                sender,
                attempt,
                method=spec.method,
                url=spec.url,
                headers=sent,
                body=body,
                deliver=deliver,
                connect_timeout=self._connect_timeout,
                idle_timeout=self._idle_timeout,
                max_error_bytes=self._max_error_bytes,
                on_response=self._on_response,
            )
            if failure is None:
                return
            if reauth is not None and self._wire.refuses_credentials(failure.status, failure.message):
                renewed, reauth = await reauth(built), None  # fresh credentials, once per request
                if isinstance(renewed, str):
                    deliver(attempt.give_up(f"{failure.message}; {renewed}"))
                    return
                spec = renewed
                headers = merge_headers(spec.headers, model.headers, options.headers)
                body = encode_body_parts(spec.body)
                attempt.reset()
                continue
            delay = self._plan(failure, retries + 1, waited) if options.retry else None
            if delay is None:
                deliver(attempt.give_up(self._give_up_text(failure) if options.retry else failure.message))
                return
            retries += 1
            if options.on_retry is not None:
                options.on_retry(
                    RetryNotice(retries, self._retry.max_retries, round(delay * 1000), failure.message)
                )
            if not await _wait_unless_aborted(delay, options.abort_retry):
                deliver(attempt.give_up(failure.message))
                return
            waited += delay
            attempt.reset()

    def _give_up_text(self, failure: Failure) -> str:
        """The failure's words, saying so when its server asked for a longer wait than allowed."""
        requested = refused_delay(self._retry, failure.headers, self._clock()) if failure.retryable else None
        return failure.message if requested is None else delay_refused_text(failure.message, requested)

    def _plan(self, failure: Failure, retry_number: int, waited: float) -> float | None:
        if not failure.retryable:
            return None
        return plan_retry(
            self._retry,
            retry_number,
            status=failure.status,
            headers=failure.headers,
            waited=waited,
            draw=self._rng(),
            now=self._clock(),
        )


async def _wait_unless_aborted(delay: float, abort: CancellationToken | None) -> bool:
    """Sleep ``delay`` seconds; False (at once) if ``abort`` is cancelled first."""
    if abort is None:
        await asyncio.sleep(delay)
        return True
    if abort.cancelled:
        return False
    waiter = asyncio.ensure_future(abort.wait())
    try:
        await asyncio.wait([waiter], timeout=delay)
    finally:
        waiter.cancel()
    return not abort.cancelled
