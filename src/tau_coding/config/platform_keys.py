"""Keys of the cloud platforms' providers when no API key is configured, kept fresh.

Azure OpenAI signs in with Entra ID, Vertex AI with Google credentials (both bearer tokens that
expire, held in a ``RefreshingKey``), Amazon Bedrock with AWS credentials (resolved once per
process). ``PlatformKeys.key(provider)`` is the current key, ``invalidate(provider)`` forgets a
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


def _bedrock(environ: Mapping[str, str]) -> Token | None:
    key = bedrock_sign_in(environ)
    return Token(key) if key is not None else None


PLATFORM_TOKENS: dict[str, Callable[[Mapping[str, str]], Token | None]] = {
    AZURE: entra_token,
    "google-vertex": vertex_token,
    "google-vertex-anthropic": vertex_token,
    "amazon-bedrock": _bedrock,
}
# Providers whose key is a bearer token that expires, so a long session asks for it again.
REFRESHED = frozenset({AZURE, "google-vertex", "google-vertex-anthropic"})


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
