"""The one place Tau builds an ``HttpProvider``, with or without extensions' request handlers.

Built-in providers, extension providers served over a wire API, and the composition root all
call ``http_provider``; given a host, every request passes through its
``before_provider_request`` handlers first (each may see or replace the body), and every
answer's status and headers reach its ``after_provider_response`` handlers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from tau_agent.provider import ModelProvider
    from tau_ai.model import Model
    from tau_ai.wire_api import HttpRequestSpec, WireApi
    from tau_coding.extensions.host_port import ExtensionHostPort
    from tau_coding.session.reply_retry import RetrySettings


def http_provider(
    model: Model,
    api_key: str | None,
    *,
    wire: WireApi | None = None,
    host: ExtensionHostPort | None = None,
    retry: RetrySettings | None = None,
    renew_key: Callable[[], str | None] | None = None,
    refused: Callable[[], None] | None = None,
) -> ModelProvider:
    """An HttpProvider for ``model`` speaking ``wire`` (default: the model's own API), with
    the ``retry.provider.*`` limits of ``retry`` (default: Tau's). ``renew_key``, when given,
    is asked (in a worker thread) for the current key before each request; a different key
    replaces ``api_key`` in the request's headers. ``refused``, given with ``renew_key``, is
    called when the server answers 401 (the key is then renewed and the request sent once
    more). A model whose API Tau does not speak is a ValueError with a one-line message."""
    from tau_ai.apis import unsupported_api, wire_api
    from tau_ai.http_provider import HttpProvider
    from tau_coding.session.reply_retry import DEFAULT_IDLE_TIMEOUT, RetrySettings

    unspoken = None if wire is not None else unsupported_api(model.provider, model.id, model.api)
    if unspoken is not None:
        raise ValueError(unspoken)

    from tau_coding.extensions.provider_response import response_hook

    limits = retry or RetrySettings()
    hook = request_hook(host, model.provider, model.id) if host is not None else None
    answered = response_hook(host, model.provider, model.id) if host is not None else None
    unauthorized = None
    if renew_key is not None and api_key:
        hook = key_renewing_hook(api_key, renew_key, hook)
        if refused is not None:
            unauthorized = refusal_hook(refused, hook)
    return HttpProvider(
        model,
        wire or wire_api(model.api),
        api_key=api_key,
        on_request=hook,
        on_unauthorized=unauthorized,
        on_response=answered,
        retry=limits.provider_policy(),
        idle_timeout=limits.idle_timeout(DEFAULT_IDLE_TIMEOUT),
    )


def request_hook(host: ExtensionHostPort, provider: str, model: str) -> Any:
    """An HttpProvider ``on_request`` that lets ``before_provider_request`` handlers see or replace the body."""
    from dataclasses import replace

    from tau_ai.request_cache import plain_body
    from tau_coding.extensions.events import ProviderRequestEvent
    from tau_coding.extensions.guard import HandlerFailure

    async def hook(spec: HttpRequestSpec) -> HttpRequestSpec:
        handlers = host.registry.handlers.get("before_provider_request")
        if not handlers:
            return spec
        payload = plain_body(spec.body)  # a copy: handlers may edit it, the cached history stays intact
        for owner, handler in list(handlers):
            if owner not in host.extensions:
                continue
            event = ProviderRequestEvent(provider, model, spec.url, payload)
            try:
                out = await host.guard(owner).call("before_provider_request handler", handler, event)
            except HandlerFailure as failure:
                host.report_failure(failure)
                continue
            if isinstance(out, dict):
                payload = out
        return replace(spec, body=payload)

    return hook


def key_renewing_hook(api_key: str, renew: Callable[[], str | None], then: Any = None) -> Any:
    """An ``on_request`` hook putting the key ``renew`` gives in place of ``api_key`` (the one
    the request was built with), then running ``then``. When renewing fails the request goes
    with the key it has, and the provider's answer says what is wrong."""
    import asyncio
    from dataclasses import replace

    from tau_ai.apis.google_code_assist import split_key

    async def hook(spec: HttpRequestSpec) -> HttpRequestSpec:
        try:
            key = await asyncio.to_thread(renew)
        except ValueError:  # a revoked login: ConfigurationError's one line shows on the next start
            key = None
        old, new = split_key(api_key)[0], split_key(key)[0]  # the token inside a {"token", ...} key
        if old and new and new != old:
            spec = replace(spec, headers={n: v.replace(old, new) for n, v in spec.headers.items()})
        return await then(spec) if then is not None else spec

    return hook


def refusal_hook(refused: Callable[[], None], renewing: Any) -> Any:
    """An HttpProvider ``on_unauthorized`` hook: forget the refused key, then build the request
    again through ``renewing`` (a ``key_renewing_hook``), which fetches a fresh one."""
    import asyncio

    async def hook(spec: HttpRequestSpec) -> HttpRequestSpec:
        await asyncio.to_thread(refused)
        result: HttpRequestSpec = await renewing(spec)
        return result

    return hook
