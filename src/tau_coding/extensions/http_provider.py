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
    wire = wire or wire_api(model.api)
    if renew_key is not None and api_key:
        renewal = KeyRenewal(api_key, renew_key, hook)
        hook = renewal.before_request
        if refused is not None:
            unauthorized = renewal.after_refusal(refused)
        if wire.sign is not None:  # the signer signs with the latest key (AWS credentials)
            from dataclasses import replace

            from tau_ai.wire_api import signing_with

            wire = replace(wire, sign=signing_with(wire.sign, renewal.current))
    return HttpProvider(
        model,
        wire,
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


class KeyRenewal:
    """The key of one provider's requests, asked of ``renew`` before each request.

    ``before_request`` (an ``on_request`` hook) puts the key ``renew`` gives in place of
    ``api_key`` (the one the request was built with), then runs ``then``; when renewing fails
    the request goes with the key it has (still valid for minutes: keys are renewed ahead of
    their expiry), and the provider's answer says what is wrong. ``current()`` is the latest
    key, for a signer (AWS SigV4) that signs each attempt with it.
    """

    def __init__(self, api_key: str, renew: Callable[[], str | None], then: Any = None) -> None:
        self._api_key = api_key
        self._renew = renew
        self._then = then
        self._current = api_key

    def current(self) -> str:
        return self._current

    async def before_request(self, spec: HttpRequestSpec) -> HttpRequestSpec:
        import asyncio

        try:
            key = await asyncio.to_thread(self._renew)
        except ValueError:  # a revoked login: ConfigurationError's one line shows on the next start
            key = None
        return await self._with_key(spec, key)

    def after_refusal(self, refused: Callable[[], None]) -> Any:
        """An HttpProvider ``on_unauthorized`` hook: forget the refused key (``refused``), then
        build the request again with a fresh one; when none can be had, why (one line)."""
        import asyncio

        async def hook(spec: HttpRequestSpec) -> HttpRequestSpec | str:
            await asyncio.to_thread(refused)
            try:
                key = await asyncio.to_thread(self._renew)
            except ValueError as exc:
                return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            return await self._with_key(spec, key)

        return hook

    async def _with_key(self, spec: HttpRequestSpec, key: str | None) -> HttpRequestSpec:
        from dataclasses import replace

        from tau_ai.apis.google_code_assist import split_key

        if key:
            self._current = key
        old, new = split_key(self._api_key)[0], split_key(key)[0]  # the token inside a {"token", ...} key
        if old and new and new != old:
            spec = replace(spec, headers={n: v.replace(old, new) for n, v in spec.headers.items()})
        return await self._then(spec) if self._then is not None else spec
