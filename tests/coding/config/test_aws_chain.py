"""Bedrock credentials Tau reads through botocore's chain: what sends a lookup there, and what
comes back, against local servers standing in for AWS's credential endpoints."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tau_ai.aws_sigv4 import AwsCredentials
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_coding.config.aws_chain import chain_first, chain_last
from tau_coding.config.bedrock import BedrockConfigError, aws_key

pytest.importorskip("botocore")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME with an empty ~/.aws; botocore reads the process environment, so it is set there."""
    for name in [k for k in os.environ if k.startswith("AWS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".aws").mkdir()
    return tmp_path


def test_what_only_botocore_resolves_and_in_which_order() -> None:
    assert chain_first({"sso_session": "corp"}, {}) and chain_first({"role_arn": "arn"}, {})
    assert chain_first({}, {"AWS_WEB_IDENTITY_TOKEN_FILE": "/var/run/token"})
    assert not chain_first({"aws_access_key_id": "AK", "region": "x"}, {"AWS_REGION": "x"})
    assert chain_last({"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:1/creds"})
    assert not chain_last({"AWS_CONTAINER_CREDENTIALS_FULL_URI": " "})


def test_nothing_configured_never_reaches_botocore(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "botocore", None)  # an import would fail loudly
    monkeypatch.setitem(sys.modules, "botocore.session", None)
    assert aws_key({"HOME": str(home)}) is None
    (home / ".aws" / "config").write_text("[default]\nregion = eu-west-1\n")
    assert aws_key({"HOME": str(home)}) is None


def test_container_credentials_come_from_the_container_endpoint(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = {
        "AccessKeyId": "ASIACONT",
        "SecretAccessKey": "cont-secret",
        "Token": "cont-token",
        "Expiration": "2099-12-31T00:00:00Z",
    }

    def endpoint(request: RecordedRequest, _index: int) -> Scripted:
        if request.headers.get("authorization") != "container-auth":
            return Scripted(401, body=b"{}")
        return Scripted(headers={"content-type": "application/json"}, body=json.dumps(answer).encode())

    with ReplayServerThread(endpoint) as server:
        env = {
            "HOME": str(home),
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": f"{server.url}/v2/credentials",
            "AWS_CONTAINER_AUTHORIZATION_TOKEN": "container-auth",
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        key = aws_key(env)
        assert [r.path for r in server.requests] == ["/v2/credentials"]
    assert AwsCredentials.from_key(key) == AwsCredentials("ASIACONT", "cont-secret", "cont-token")


def test_a_profiles_static_keys_come_before_container_credentials(home: Path) -> None:
    (home / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AK\naws_secret_access_key = SK\n"
    )
    env = {"HOME": str(home), "AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:9/never"}
    assert aws_key(env) == AwsCredentials("AK", "SK").as_key()


def test_a_role_without_a_source_is_botocores_reason_in_one_line(home: Path) -> None:
    (home / ".aws" / "config").write_text("[profile r]\nrole_arn = arn:aws:iam::1:role/R\n")
    with pytest.raises(BedrockConfigError) as caught:
        aws_key({"HOME": str(home), "AWS_PROFILE": "r"})
    message = str(caught.value)
    assert message.startswith("AWS profile r: ") and "\n" not in message and len(message) > 20


WEB_IDENTITY_ANSWER = b"""<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
<AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAWEB</AccessKeyId>
<SecretAccessKey>web-secret</SecretAccessKey><SessionToken>web-session</SessionToken>
<Expiration>2099-12-31T00:00:00Z</Expiration></Credentials>
<SubjectFromWebIdentityToken>system:serviceaccount:tau</SubjectFromWebIdentityToken>
</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>"""


def test_a_web_identity_token_file_is_traded_for_role_credentials(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = home / "token"
    token.write_text("the-oidc-token")
    with ReplayServerThread(Scripted(headers={"content-type": "text/xml"}, body=WEB_IDENTITY_ANSWER)) as sts:
        env = {
            "HOME": str(home),
            "AWS_WEB_IDENTITY_TOKEN_FILE": str(token),
            "AWS_ROLE_ARN": "arn:aws:iam::111122223333:role/Pod",
            "AWS_REGION": "us-east-2",
            "AWS_ENDPOINT_URL_STS": sts.url,
        }
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        key = aws_key(env)
        [asked] = sts.requests
    assert (
        b"Action=AssumeRoleWithWebIdentity" in asked.body and b"WebIdentityToken=the-oidc-token" in asked.body
    )
    assert AwsCredentials.from_key(key) == AwsCredentials("ASIAWEB", "web-secret", "web-session")
