"""AWS Signature Version 4 for one HTTP request, pure (hashlib and hmac only).

Written here rather than taken from botocore: signing is ~60 lines of standard library, while
importing botocore costs hundreds of milliseconds and a large dependency for one function.
It follows AWS's published algorithm (and passes its test suite's vectors, see
tests/ai/test_aws_sigv4.py): canonical request, string to sign, key derived from the secret
by date, region and service, ``Authorization: AWS4-HMAC-SHA256 Credential=...,
SignedHeaders=..., Signature=...``.

The path is signed as sent, URI-encoded once more (every service but S3 does so), so a model
id whose ``:`` travels as ``%3A`` is signed as ``%253A``, as AWS computes it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlsplit

ALGORITHM = "AWS4-HMAC-SHA256"
KEY_PREFIX = "aws-sigv4:"


@dataclass(frozen=True, slots=True)
class AwsCredentials:
    """An access key pair, with the session token of temporary credentials and, when known,
    when they expire (seconds since the epoch; not part of ``as_key``)."""

    access_key_id: str
    secret_access_key: str
    session_token: str = ""
    expires_at: float | None = None

    def as_key(self) -> str:
        """These credentials as one string (how Tau hands a provider its key)."""
        data = {"accessKeyId": self.access_key_id, "secretAccessKey": self.secret_access_key}
        if self.session_token:
            data["sessionToken"] = self.session_token
        return KEY_PREFIX + json.dumps(data)

    @staticmethod
    def from_key(key: str | None) -> AwsCredentials | None:
        """The credentials ``as_key`` wrote, or None for any other key."""
        if not key or not key.startswith(KEY_PREFIX):
            return None
        try:
            data = json.loads(key[len(KEY_PREFIX) :])
            return AwsCredentials(
                str(data["accessKeyId"]), str(data["secretAccessKey"]), str(data.get("sessionToken") or "")
            )
        except (ValueError, KeyError, TypeError):
            return None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).digest()


def canonical_uri(path: str) -> str:
    return quote(path or "/", safe="/~")


def canonical_query(query: str) -> str:
    pairs = parse_qsl(query, keep_blank_values=True)
    encoded = sorted((quote(k, safe="-_.~"), quote(v, safe="-_.~")) for k, v in pairs)
    return "&".join(f"{k}={v}" for k, v in encoded)


def canonical_headers(headers: Mapping[str, str]) -> tuple[str, str]:
    """(canonical header block, signed header names) of ``headers`` (all of them are signed)."""
    values: dict[str, list[str]] = {}
    for name, value in headers.items():
        values.setdefault(name.lower().strip(), []).append(" ".join(value.split()))
    names = sorted(values)
    block = "".join(f"{name}:{','.join(values[name])}\n" for name in names)
    return block, ";".join(names)


def canonical_request(
    method: str, url: str, headers: Mapping[str, str], payload_hash: str
) -> tuple[str, str]:
    """(canonical request, signed header names)."""
    parts = urlsplit(url)
    block, signed = canonical_headers(headers)
    text = "\n".join(
        [method.upper(), canonical_uri(parts.path), canonical_query(parts.query), block, signed, payload_hash]
    )
    return text, signed


def signing_key(secret: str, date: str, region: str, service: str) -> bytes:
    key = _hmac(("AWS4" + secret).encode("utf-8"), date)
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    return key


def host_of(url: str) -> str:
    """The Host header of ``url`` (its port only when not the scheme's default)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return host if parts.port in (None, default) else f"{host}:{parts.port}"


def authorization(
    credentials: AwsCredentials,
    *,
    method: str,
    url: str,
    headers: Mapping[str, str],
    payload_hash: str,
    region: str,
    service: str,
    amz_date: str,
) -> str:
    """The Authorization header value signing exactly ``headers`` (which must include host and
    x-amz-date, and x-amz-security-token for temporary credentials)."""
    request, signed = canonical_request(method, url, headers, payload_hash)
    date = amz_date[:8]
    scope = f"{date}/{region}/{service}/aws4_request"
    to_sign = "\n".join([ALGORITHM, amz_date, scope, _sha256(request.encode("utf-8"))])
    key = signing_key(credentials.secret_access_key, date, region, service)
    signature = hmac.new(key, to_sign.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"{ALGORITHM} Credential={credentials.access_key_id}/{scope}, SignedHeaders={signed}, Signature={signature}"


def sign(
    credentials: AwsCredentials,
    *,
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: bytes,
    region: str,
    service: str,
    now: float | None = None,
) -> dict[str, str]:
    """``headers`` plus host, x-amz-date, x-amz-content-sha256, x-amz-security-token (with a
    session token) and the Authorization that signs them and ``content-type``; other headers
    go unsigned, so a proxy or client adding its own cannot break the signature. ``now``:
    seconds since the epoch (default: the clock; datetime is not imported for a timestamp)."""
    amz_date = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    payload_hash = _sha256(body)
    out = {k.lower(): v for k, v in headers.items() if k.lower() not in ("authorization", "host")}
    out.update({"host": host_of(url), "x-amz-date": amz_date, "x-amz-content-sha256": payload_hash})
    if credentials.session_token:
        out["x-amz-security-token"] = credentials.session_token
    signed_names = ("content-type", "host", "x-amz-content-sha256", "x-amz-date", "x-amz-security-token")
    signed = {name: out[name] for name in signed_names if name in out}
    out["authorization"] = authorization(
        credentials,
        method=method,
        url=url,
        headers=signed,
        payload_hash=payload_hash,
        region=region,
        service=service,
        amz_date=amz_date,
    )
    return out
