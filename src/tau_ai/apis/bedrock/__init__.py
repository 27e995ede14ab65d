"""The ``bedrock-converse-stream`` wire API: Amazon Bedrock's ConverseStream.

The request is built in ``convert.py``, the binary event stream decoded by
``tau_ai.eventstream`` and read by ``parse.py``. Credentials are applied by ``sign_request``
to the exact bytes of every attempt, from the key the app resolved
(``tau_coding.config.bedrock``):

* AWS credentials (``AwsCredentials.as_key()``): the request is SigV4-signed for service
  ``bedrock`` in ``compat["awsRegion"]``, else the region in a standard
  ``bedrock-runtime.<region>.amazonaws.com`` base URL, else ``us-east-1``;
* any other key is a Bedrock API key, sent as ``Authorization: Bearer`` (``"Bearer <token>"``
  is sent as it is);
* no key: the request goes unsigned (a proxy that signs for you, ``AWS_BEDROCK_SKIP_AUTH=1``).

The signer is handed the key of each attempt, so a caller that renews temporary credentials
(``tau_ai.wire_api.signing_with``) signs with the current ones; AWS refuses expired ones with a
403 ``ExpiredToken`` (``expired_credentials``), which counts as a refusal of the credentials.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from tau_ai.apis._shared import error_from_body
from tau_ai.apis.bedrock.convert import Converter, build_request, request_with
from tau_ai.apis.bedrock.parse import API, BedrockParser
from tau_ai.aws_sigv4 import AwsCredentials, sign
from tau_ai.eventstream import EventStreamDecoder
from tau_ai.model import Model
from tau_ai.wire_api import IncrementalRequests, WireApi

SERVICE = "bedrock"
DEFAULT_REGION = "us-east-1"
_ENDPOINT_REGION = re.compile(r"^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$")


def endpoint_region(base_url: str) -> str | None:
    """The region a standard Bedrock runtime URL names, else None."""
    match = _ENDPOINT_REGION.match((urlsplit(base_url).hostname or "").lower())
    return match.group(1) if match else None


def region_of(model: Model) -> str:
    return str(model.compat.get("awsRegion") or endpoint_region(model.base_url) or DEFAULT_REGION)


def sign_request(
    model: Model, api_key: str | None, method: str, url: str, headers: Mapping[str, str], body: bytes
) -> Mapping[str, str]:
    """``headers`` with the credentials of ``api_key`` applied (see the module docstring)."""
    credentials = AwsCredentials.from_key(api_key)
    if credentials is not None:
        return sign(
            credentials,
            method=method,
            url=url,
            headers=headers,
            body=body,
            region=region_of(model),
            service=SERVICE,
        )
    if not api_key:
        return headers
    bearer = api_key if api_key.startswith("Bearer ") else f"Bearer {api_key}"
    return {**headers, "authorization": bearer}


_EXPIRED = ("expiredtoken", "security token included in the request is expired", "token has expired")


def expired_credentials(status: int, message: str) -> bool:
    """Whether AWS refused the request's credentials as expired (a 400/403 naming it)."""
    lower = message.lower()
    return status in (400, 403) and any(words in lower for words in _EXPIRED)


WIRE_API = WireApi(
    name=API,
    build_request=build_request,
    new_parser=BedrockParser,
    error_message=error_from_body,
    incremental=IncrementalRequests(lambda model, system, frozen: Converter(model, frozen), request_with),
    new_decoder=EventStreamDecoder,
    sign=sign_request,
    expired_credentials=expired_credentials,
)

__all__ = [
    "API",
    "WIRE_API",
    "build_request",
    "endpoint_region",
    "expired_credentials",
    "region_of",
    "sign_request",
]
