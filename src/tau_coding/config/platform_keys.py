"""Keys of the cloud platforms' providers when no API key is configured, kept fresh.

Azure OpenAI signs in with Entra ID, Vertex AI with Google credentials (both bearer tokens that
expire), Amazon Bedrock with AWS credentials (temporary ones expire too); each is held in a
``RefreshingKey``, renewed a few minutes before it expires and when the server refuses it. ``PlatformKeys.key(provider)`` is the current key, ``invalidate(provider)`` forgets a
refused one; each platform's settings errors are its own ``ValueError`` subclass with a
one-line message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tau_coding.config.azure import API as AZURE
from tau_coding.config.azure import entra_token
from tau_coding.config.bedrock import bedrock_sign_in
from tau_coding.config.cloud_token import RefreshingKey, Token
from tau_coding.config.vertex import vertex_token

PLATFORM_TOKENS: dict[str, Callable[[Mapping[str, str]], Token | None]] = {
    AZURE: entra_token,
    "google-vertex": vertex_token,
    "google-vertex-anthropic": vertex_token,
    "amazon-bedrock": bedrock_sign_in,
}
# Providers whose sign-in expires (a bearer token, temporary AWS credentials), so a long session
# asks for it again.
REFRESHED = frozenset({AZURE, "google-vertex", "google-vertex-anthropic", "amazon-bedrock"})
# How a key from a platform's sign-in begins (a key the user configured is used as it is).
SIGNED_IN = ("Bearer ", "aws-sigv4:")


def renewed(provider: str, api_key: str | None) -> bool:
    """Whether ``api_key`` of ``provider`` came from a platform sign-in that expires, so that
    each request asks for the current one (``PlatformKeys.key``)."""
    return provider in REFRESHED and api_key is not None and api_key.startswith(SIGNED_IN)


class PlatformKeys:
    """One ``RefreshingKey`` per platform provider, made on first use."""

    def __init__(
        self,
        environ: Mapping[str, str],
        sign_in: Mapping[str, Callable[[Mapping[str, str]], Token | None]] = PLATFORM_TOKENS,
    ) -> None:
        self._environ = environ
        self._sign_in = sign_in
        self._keys: dict[str, RefreshingKey] = {}

    def handles(self, provider: str) -> bool:
        return provider in self._sign_in

    def key(self, provider: str) -> str | None:
        held = self._keys.get(provider)
        if held is None:
            sign_in, environ = self._sign_in[provider], self._environ
            held = self._keys[provider] = RefreshingKey(lambda: sign_in(environ))
        return held.get()

    def invalidate(self, provider: str) -> None:
        held = self._keys.get(provider)
        if held is not None:
            held.invalidate()
