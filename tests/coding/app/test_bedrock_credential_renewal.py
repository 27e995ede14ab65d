"""A long Bedrock session keeps its temporary AWS credentials valid: one process, several
requests, credentials that expire minutes after they are issued (a new key each time) from a
local credential_process, STS or IAM Identity Center portal, and a local Bedrock that recomputes
every signature and accepts only the newest key."""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, ModelProvider, StreamOptions
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_ai.model import Model
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_bedrock import access_key_id, signature_problem
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tau_coding.app.wiring import http_providers
from tau_coding.config.cloud_token import MARGIN
from tau_coding.config.platform_keys import PlatformKeys
from tau_coding.session.reply_retry import RetrySettings

API = "bedrock-converse-stream"
# seconds: credentials are due for renewal 3 s after they are issued (a loaded machine's two
# requests take less), so a long run crosses that point in seconds
DUE = 3.0
LIFETIME = MARGIN + DUE
EXPIRED = b'{"message":"The security token included in the request is expired"}'


def secret_of(key_id: str) -> str:
    return f"secret-of-{key_id}"


class LocalBedrock:
    """Checks each request's signature and answers only the newest key ``issued()`` names;
    a key in ``expired`` is refused as AWS refuses expired credentials."""

    def __init__(self, issued: Callable[[], list[str]]) -> None:
        self.issued = issued
        self.expired: set[str] = set()
        self.body = sse_body(API, ScriptedReply(text="ok"))

    def respond(self, request: RecordedRequest, _index: int) -> Scripted:
        key_id = access_key_id(request) or ""
        if signature_problem(request, secret_of(key_id)) is not None:
            return Scripted(403, {"content-type": "application/json"}, b'{"message":"signature mismatch"}')
        keys = self.issued()
        if key_id in self.expired or not keys or key_id != keys[-1]:
            return Scripted(
                403,
                {"content-type": "application/json", "x-amzn-errortype": "ExpiredTokenException"},
                EXPIRED,
            )
        return Scripted(headers={"content-type": "application/vnd.amazon.eventstream"}, body=self.body)


def iso(seconds: float) -> str:
    """An ISO 8601 time with milliseconds, as AWS writes expirations."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{int(seconds % 1 * 1000):03d}Z"


CREDENTIAL_PROCESS = """
import json, pathlib, sys, time
state = pathlib.Path(sys.argv[1])
if (state / "refuse").exists():
    sys.exit("the SSO session has expired; run aws sso login")
issued = state / "issued"
n = len(issued.read_text().split()) + 1 if issued.exists() else 1
key = f"AKIDPROC{n}"
issued.write_text(f"{issued.read_text() if issued.exists() else ''}{key}\\n")
expiry = time.time() + float(sys.argv[2])
print(json.dumps({"Version": 1, "AccessKeyId": key, "SecretAccessKey": f"secret-of-{key}",
                  "SessionToken": f"token-{n}",
                  "Expiration": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(expiry))
                                + f".{int(expiry % 1 * 1000):03d}Z"}))
"""


def process_profile(home: Path, lifetime: float) -> Callable[[], list[str]]:
    """A default profile whose credential_process hands out a new key each run."""
    script = home / "creds.py"
    script.write_text(CREDENTIAL_PROCESS)
    (home / ".aws").mkdir()
    (home / ".aws" / "config").write_text(
        f"[default]\ncredential_process = {sys.executable} {script} {home} {lifetime}\n"
    )
    issued = home / "issued"
    return lambda: issued.read_text().split() if issued.exists() else []


class Sts:
    """STS AssumeRole for callers signed with the source profile's keys: a new key each call."""

    def __init__(self) -> None:
        self.issued: list[str] = []

    def respond(self, request: RecordedRequest, _index: int) -> Scripted:
        if "Credential=AKIDSRC/" not in request.headers.get("authorization", ""):
            return Scripted(403, {"content-type": "text/xml"}, b"<ErrorResponse/>")
        self.issued.append(f"ASIAROLE{len(self.issued) + 1}")
        key = self.issued[-1]
        body = (
            '<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>'
            f"<Credentials><AccessKeyId>{key}</AccessKeyId><SecretAccessKey>{secret_of(key)}</SecretAccessKey>"
            f"<SessionToken>role-session</SessionToken><Expiration>{iso(time.time() + LIFETIME)}</Expiration>"
            "</Credentials><AssumedRoleUser><AssumedRoleId>AROA1:tau</AssumedRoleId>"
            "<Arn>arn:aws:sts::111122223333:assumed-role/Bedrock/tau</Arn></AssumedRoleUser>"
            "</AssumeRoleResult></AssumeRoleResponse>"
        )
        return Scripted(headers={"content-type": "text/xml"}, body=body.encode(), chunked=False)


class SsoPortal:
    """IAM Identity Center's portal: new role credentials for the cached token each call."""

    def __init__(self) -> None:
        self.issued: list[str] = []

    def respond(self, request: RecordedRequest, _index: int) -> Scripted:
        if request.headers.get("x-amz-sso_bearer_token") != "cached-sso-token":
            return Scripted(
                401, {"content-type": "application/json"}, b'{"message":"Session token not found"}'
            )
        self.issued.append(f"ASIASSO{len(self.issued) + 1}")
        key = self.issued[-1]
        credentials = {
            "accessKeyId": key,
            "secretAccessKey": secret_of(key),
            "sessionToken": "sso-session",
            "expiration": int((time.time() + LIFETIME) * 1000),
        }
        body = json.dumps({"roleCredentials": credentials}).encode()
        return Scripted(headers={"content-type": "application/json"}, body=body, chunked=False)


def role_profile(home: Path) -> None:
    """An assumed role with no region of its own: STS is asked in ``AWS_REGION``'s."""
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text(
        "[base]\naws_access_key_id = AKIDSRC\naws_secret_access_key = src\n"
    )
    (home / ".aws" / "config").write_text(
        "[profile bedrock]\nrole_arn = arn:aws:iam::111122223333:role/Bedrock\nsource_profile = base\n"
    )


def sso_profile(home: Path) -> None:
    cache = home / ".aws" / "sso" / "cache"
    cache.mkdir(parents=True)
    (home / ".aws" / "config").write_text(
        "[profile bedrock]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = BedrockUser\n"
        "[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n"
    )
    token = {
        "startUrl": "https://corp.awsapps.com/start",
        "region": "us-east-1",
        "accessToken": "cached-sso-token",
        "expiresAt": "2099-12-31T00:00:00Z",
    }
    (cache / f"{hashlib.sha1(b'corp').hexdigest()}.json").write_text(json.dumps(token))


async def _ask(provider: ModelProvider) -> DoneEvent | ErrorEvent:
    last = None
    async for event in provider.stream(Context("", [UserMessage("hi")]), StreamOptions()):
        last = event
    assert isinstance(last, DoneEvent | ErrorEvent)
    return last


def _provider(environ: dict[str, str], url: str) -> tuple[PlatformKeys, ModelProvider]:
    keys = PlatformKeys(environ)
    make = http_providers(RetrySettings(), None, keys.key, keys.invalidate)
    model = Model("us.anthropic.claude-sonnet-4-5-20250929-v1:0", API, "amazon-bedrock", url)
    return keys, make(model, keys.key("amazon-bedrock"))


async def _long_run(provider: ModelProvider, bedrock: LocalBedrock, issued: Callable[[], list[str]]) -> None:
    assert (await _ask(provider)).message.text == "ok"  # key 1
    assert (await _ask(provider)).message.text == "ok"  # key 1 again: still fresh
    time.sleep(DUE + 0.1)
    assert (await _ask(provider)).message.text == "ok"  # renewed before the request: key 2
    bedrock.expired.add(issued()[-1])  # AWS stops accepting key 2 early
    assert (await _ask(provider)).message.text == "ok"  # 403 ExpiredToken, renewed, sent again: key 3


async def test_credential_process_keys_are_renewed_before_expiry_and_after_an_expired_token(
    tmp_path: Path,
) -> None:
    issued = process_profile(tmp_path, LIFETIME)
    bedrock = LocalBedrock(issued)
    with ReplayServerThread(bedrock.respond) as server:
        _keys, provider = _provider({"HOME": str(tmp_path), "AWS_REGION": "us-west-2"}, server.url)
        await _long_run(provider, bedrock, issued)
        seen = [access_key_id(r) for r in server.requests]
        problems = [signature_problem(r, secret_of(access_key_id(r) or "")) for r in server.requests]
    assert seen == ["AKIDPROC1", "AKIDPROC1", "AKIDPROC2", "AKIDPROC2", "AKIDPROC3"]
    assert problems == [None] * 5 and issued() == ["AKIDPROC1", "AKIDPROC2", "AKIDPROC3"]


@pytest.mark.parametrize("source", ["sts", "sso"])
async def test_botocore_resolved_credentials_are_renewed_before_expiry_and_after_an_expired_token(
    tmp_path: Path, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("botocore")
    issuer = Sts() if source == "sts" else SsoPortal()
    (role_profile if source == "sts" else sso_profile)(tmp_path)
    bedrock = LocalBedrock(lambda: issuer.issued)
    with ReplayServerThread(issuer.respond) as endpoint, ReplayServerThread(bedrock.respond) as server:
        environ = {
            "HOME": str(tmp_path),
            "AWS_PROFILE": "bedrock",
            "AWS_REGION": "us-west-2",
            "AWS_ENDPOINT_URL_STS": endpoint.url,
            "AWS_ENDPOINT_URL_SSO": endpoint.url,
        }
        for name, value in environ.items():  # botocore reads the process environment
            monkeypatch.setenv(name, value)
        if source == "sso":  # botocore fixed its SSO cache directory from HOME when first imported
            import botocore.credentials
            import botocore.tokens

            cache = str(tmp_path / ".aws" / "sso" / "cache")
            monkeypatch.setattr(botocore.tokens.SSOTokenProvider, "_SSO_TOKEN_CACHE_DIR", cache)
            monkeypatch.setattr(botocore.credentials.SSOProvider, "_SSO_TOKEN_CACHE_DIR", cache)
        _keys, provider = _provider(environ, server.url)
        await _long_run(provider, bedrock, lambda: issuer.issued)
        seen = [access_key_id(r) for r in server.requests]
    prefix = "ASIAROLE" if source == "sts" else "ASIASSO"
    assert seen == [f"{prefix}{n}" for n in (1, 1, 2, 2, 3)]
    assert issuer.issued == [f"{prefix}{n}" for n in (1, 2, 3)]


async def test_a_refused_renewal_ends_the_request_with_one_line_saying_why(tmp_path: Path) -> None:
    issued = process_profile(tmp_path, 3600)
    bedrock = LocalBedrock(issued)
    with ReplayServerThread(bedrock.respond) as server:
        _keys, provider = _provider({"HOME": str(tmp_path), "AWS_REGION": "us-west-2"}, server.url)
        assert (await _ask(provider)).message.text == "ok"
        (tmp_path / "refuse").touch()  # the sign-in behind the credentials ended
        bedrock.expired.add("AKIDPROC1")
        end = await _ask(provider)
        assert len(server.requests) == 2  # not sent again with the refused key
    assert isinstance(end, ErrorEvent)
    assert end.message.error_message == (
        "HTTP 403: The security token included in the request is expired; AWS profile default: "
        "credential_process failed: the SSO session has expired; run aws sso login"
    )
