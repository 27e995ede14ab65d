"""SigV4 against the published vectors of AWS's signature test suite (credentials AKIDEXAMPLE,
us-east-1, service "service", 2015-08-30 12:36:00 UTC), and the headers ``sign`` adds."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from tau_ai.aws_sigv4 import AwsCredentials, authorization, canonical_request, host_of, sign

SUITE = AwsCredentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
EMPTY = hashlib.sha256(b"").hexdigest()
PREFIX = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "


@pytest.mark.parametrize(
    ("name", "method", "url", "signature"),
    [
        (
            "get-vanilla",
            "GET",
            "https://example.amazonaws.com/",
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
        ),
        (
            "get-vanilla-query-order-key-case",
            "GET",
            "https://example.amazonaws.com/?Param2=value2&Param1=value1",
            "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
        ),
        (
            "post-vanilla",
            "POST",
            "https://example.amazonaws.com/",
            "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b",
        ),
        (
            "get-utf8",
            "GET",
            "https://example.amazonaws.com/ሴ",
            "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85",
        ),
    ],
)
def test_the_aws_test_suite_vectors(name: str, method: str, url: str, signature: str) -> None:
    headers = {"Host": "example.amazonaws.com", "X-Amz-Date": "20150830T123600Z"}
    value = authorization(
        SUITE,
        method=method,
        url=url,
        headers=headers,
        payload_hash=EMPTY,
        region="us-east-1",
        service="service",
        amz_date="20150830T123600Z",
    )
    assert value == f"{PREFIX}SignedHeaders=host;x-amz-date, Signature={signature}", name


def test_the_canonical_request_of_get_vanilla_is_the_suites() -> None:
    text, signed = canonical_request(
        "GET",
        "https://example.amazonaws.com/",
        {"Host": "example.amazonaws.com", "X-Amz-Date": "20150830T123600Z"},
        EMPTY,
    )
    assert (
        text
        == f"GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n{EMPTY}"
    )
    assert signed == "host;x-amz-date"


def test_a_percent_encoded_path_is_encoded_once_more() -> None:
    text, _ = canonical_request("POST", "https://h/model/a.b-v1%3A0/converse-stream", {"host": "h"}, EMPTY)
    assert text.split("\n")[1] == "/model/a.b-v1%253A0/converse-stream"


def test_sign_adds_the_amz_headers_and_signs_the_body_and_session_token() -> None:
    credentials = AwsCredentials("AKID", "SECRET", "SESSION")
    body = b'{"messages":[]}'
    out = sign(
        credentials,
        method="POST",
        url="http://127.0.0.1:8123/model/m/converse-stream",
        headers={"Content-Type": "application/json", "Accept": "x", "Authorization": "stale"},
        body=body,
        region="eu-west-1",
        service="bedrock",
        now=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC).timestamp(),
    )
    assert out["host"] == "127.0.0.1:8123" and out["x-amz-date"] == "20260102T030405Z"
    assert out["x-amz-content-sha256"] == hashlib.sha256(body).hexdigest()
    assert out["x-amz-security-token"] == "SESSION" and out["accept"] == "x"
    assert out["authorization"].startswith(
        "AWS4-HMAC-SHA256 Credential=AKID/20260102/eu-west-1/bedrock/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature="
    )


def test_credentials_travel_as_a_key_and_other_keys_are_not_credentials() -> None:
    credentials = AwsCredentials("AKID", "SECRET", "TOKEN")
    assert AwsCredentials.from_key(credentials.as_key()) == credentials
    assert AwsCredentials.from_key("sk-something") is None and AwsCredentials.from_key(None) is None
    assert AwsCredentials.from_key("aws-sigv4:{not json") is None


def test_the_host_header_names_a_port_only_when_it_is_not_the_default() -> None:
    assert (
        host_of("https://bedrock-runtime.us-east-1.amazonaws.com/x")
        == "bedrock-runtime.us-east-1.amazonaws.com"
    )
    assert host_of("https://h:443/") == "h" and host_of("http://h:80/") == "h"
    assert host_of("http://127.0.0.1:9000/") == "127.0.0.1:9000"
