"""PKCE (RFC 7636, S256) and the ``state`` value of an authorization request."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True, slots=True)
class Pkce:
    """A fresh verifier and its S256 challenge; ``state`` is an independent random value."""

    verifier: str
    challenge: str
    state: str

    @classmethod
    def new(cls) -> Pkce:
        verifier = _b64url(secrets.token_bytes(32))
        return cls(verifier, challenge_for(verifier), _b64url(secrets.token_bytes(16)))


def challenge_for(verifier: str) -> str:
    """The S256 challenge an authorization server compares the verifier with."""
    return _b64url(hashlib.sha256(verifier.encode("ascii")).digest())
