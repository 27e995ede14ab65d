"""``tau`` against a local server standing in for Amazon Bedrock: it checks each request's SigV4
signature (or bearer token) and answers with a real event stream."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tau_ai.eventstream import encode_event, encode_exception
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_bedrock import signature_problem
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body

API = "bedrock-converse-stream"
MODEL = "amazon-bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0"
PATH = "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream"
KEYS = {
    "AWS_ACCESS_KEY_ID": "AKIDTEST",
    "AWS_SECRET_ACCESS_KEY": "secret/key+1",
    "AWS_SESSION_TOKEN": "session-1",
}
DENIED = Scripted(
    403,
    {"content-type": "application/json"},
    b'{"message":"The request signature we calculated does not match"}',
)


def signed_by(secret: str, replies: list[Scripted]) -> Callable[[RecordedRequest, int], Scripted]:
    def respond(request: RecordedRequest, index: int) -> Scripted:
        if signature_problem(request, secret) is not None:
            return DENIED
        return replies[min(index, len(replies) - 1)]

    return respond


def _run(tmp_path: Path, url: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / ".tau"
    home.mkdir(exist_ok=True)
    (home / "models.json").write_text(json.dumps({"providers": {"amazon-bedrock": {"baseUrl": url}}}))
    (tmp_path / "config.py").write_text("PORT = 9090\n")
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("AWS_")}
    clean.pop("TAU_HOME", None)
    clean.update({"HOME": str(tmp_path), "TAU_HOME": str(home), "AWS_REGION": "eu-central-1", **env})
    return subprocess.run(
        [sys.executable, "-m", "tau_coding", "--no-session", "--model", MODEL, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=clean,
    )


def _body(reply: ScriptedReply) -> Scripted:
    return Scripted(headers={"content-type": "application/vnd.amazon.eventstream"}, body=sse_body(API, reply))


READ = ScriptedReply(
    text="Let me look.",
    thinking="The port is in config.py.",
    calls=[ScriptedCall("tooluse_1", "read", {"path": "config.py"})],
)
ANSWER = ScriptedReply(text="The port is 9090.", input_tokens=321, output_tokens=7)


def test_a_signed_tool_turn_and_answer_with_env_credentials(tmp_path: Path) -> None:
    replies = [_body(READ), _body(ANSWER)]
    with ReplayServerThread(signed_by(KEYS["AWS_SECRET_ACCESS_KEY"], replies)) as server:
        out = _run(tmp_path, server.url, KEYS, "--mode", "json", "Which port?")
        requests = list(server.requests)
    assert out.returncode == 0, out.stderr
    assert [signature_problem(r, KEYS["AWS_SECRET_ACCESS_KEY"]) for r in requests] == [None, None]
    first, second = requests
    assert first.path == PATH and first.headers["x-amz-security-token"] == "session-1"
    assert "/eu-central-1/bedrock/" in first.headers["authorization"]
    sent = second.json()["messages"]
    assert sent[1]["content"][0]["reasoningContent"]["reasoningText"] == {
        "text": "The port is in config.py.",
        "signature": "scripted-signature",
    }
    assert sent[2]["content"][0]["toolResult"]["toolUseId"] == "tooluse_1"
    assert "9090" in json.dumps(sent[2]["content"][0]["toolResult"]["content"])
    ends = [json.loads(line) for line in out.stdout.splitlines() if '"agent_end"' in line]
    final = ends[-1]["messages"][-1]
    assert final["content"][-1]["text"] == "The port is 9090."
    assert (
        final["usage"]["input"] == 321
        and final["usage"]["output"] == 7
        and final["usage"]["cost"]["total"] > 0
    )


def test_static_keys_and_region_from_the_aws_profile(tmp_path: Path) -> None:
    aws = tmp_path / ".aws"
    aws.mkdir()
    (aws / "credentials").write_text(
        "[work]\naws_access_key_id = AKIDWORK\naws_secret_access_key = work-secret\n"
    )
    (aws / "config").write_text("[profile work]\nregion = ap-south-1\n")
    with ReplayServerThread(signed_by("work-secret", [_body(ANSWER)])) as server:
        out = _run(tmp_path, server.url, {"AWS_PROFILE": "work", "AWS_REGION": ""}, "-p", "hi")
        [request] = server.requests
    assert out.returncode == 0 and out.stdout == "The port is 9090.\n", out.stderr
    assert "Credential=AKIDWORK/" in request.headers["authorization"]
    assert "/ap-south-1/bedrock/" in request.headers["authorization"]
    assert "x-amz-security-token" not in request.headers


def test_credentials_from_a_profiles_credential_process(tmp_path: Path) -> None:
    script = tmp_path / "creds.py"
    output = {
        "Version": 1,
        "AccessKeyId": "AKIDPROC",
        "SecretAccessKey": "proc-secret",
        "SessionToken": "proc-token",
    }
    script.write_text(f"import json\nprint(json.dumps({output!r}))\n")
    aws = tmp_path / ".aws"
    aws.mkdir()
    (aws / "config").write_text(f"[default]\ncredential_process = {sys.executable} {script}\n")
    with ReplayServerThread(signed_by("proc-secret", [_body(ANSWER)])) as server:
        out = _run(tmp_path, server.url, {}, "-p", "hi")
        [request] = server.requests
    assert out.returncode == 0 and out.stdout == "The port is 9090.\n", out.stderr
    assert request.headers["x-amz-security-token"] == "proc-token"


def test_a_bedrock_api_key_is_sent_as_a_bearer_token(tmp_path: Path) -> None:
    with ReplayServerThread([_body(ANSWER)]) as server:
        out = _run(tmp_path, server.url, {**KEYS, "AWS_BEARER_TOKEN_BEDROCK": "bedrock-api-key"}, "-p", "hi")
        [request] = server.requests
    assert out.returncode == 0 and out.stdout == "The port is 9090.\n", out.stderr
    assert (
        request.headers["authorization"] == "Bearer bedrock-api-key" and "x-amz-date" not in request.headers
    )


def test_a_wrong_secret_is_refused_in_one_line(tmp_path: Path) -> None:
    with ReplayServerThread(signed_by("the-real-secret", [_body(ANSWER)])) as server:
        out = _run(tmp_path, server.url, KEYS, "-p", "hi")
        assert len(server.requests) == 1  # a 403 is not retried
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "403" in out.stderr and "signature" in out.stderr, out.stderr


def test_an_exception_inside_the_stream_ends_the_run_with_its_words(tmp_path: Path) -> None:
    body = encode_event("messageStart", b'{"role":"assistant"}')
    body += encode_event("contentBlockDelta", b'{"contentBlockIndex":0,"delta":{"text":"Partly"}}')
    body += encode_exception("validationException", b'{"message":"Input is too long for requested model."}')
    with ReplayServerThread(signed_by(KEYS["AWS_SECRET_ACCESS_KEY"], [Scripted(body=body)])) as server:
        out = _run(tmp_path, server.url, KEYS, "-p", "hi")
        assert len(server.requests) >= 1
    assert out.returncode == 1
    assert "Validation error: Input is too long for requested model." in out.stderr, out.stderr


def _sso_portal(request: RecordedRequest, _index: int) -> Scripted:
    """IAM Identity Center's portal: role credentials for the cached access token."""
    if request.headers.get("x-amz-sso_bearer_token") != "cached-sso-token":
        return Scripted(401, {"content-type": "application/json"}, b'{"message":"Session token not found"}')
    credentials = {
        "accessKeyId": "ASIASSO",
        "secretAccessKey": "sso-secret",
        "sessionToken": "sso-session",
        "expiration": 4102444800000,
    }
    return Scripted(body=json.dumps({"roleCredentials": credentials}).encode())


def _sso_profile(home: Path) -> None:
    aws = home / ".aws"
    (aws / "sso" / "cache").mkdir(parents=True)
    (aws / "config").write_text(
        "[profile corp]\nsso_session = corp-sso\nsso_account_id = 111122223333\n"
        "sso_role_name = BedrockUser\nregion = us-west-2\n"
        "[sso-session corp-sso]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n"
    )
    token = {
        "startUrl": "https://corp.awsapps.com/start",
        "region": "us-east-1",
        "accessToken": "cached-sso-token",
        "expiresAt": "2099-12-31T00:00:00Z",
    }
    cache_key = hashlib.sha1(b"corp-sso").hexdigest()  # how the AWS CLI names a session's token
    (aws / "sso" / "cache" / f"{cache_key}.json").write_text(json.dumps(token))


def test_an_sso_profile_signs_with_the_role_credentials_of_its_cached_token(tmp_path: Path) -> None:
    pytest.importorskip("botocore")
    _sso_profile(tmp_path)
    with (
        ReplayServerThread(_sso_portal) as portal,
        ReplayServerThread(signed_by("sso-secret", [_body(ANSWER)])) as bedrock,
    ):
        env = {"AWS_PROFILE": "corp", "AWS_REGION": "", "AWS_ENDPOINT_URL_SSO": portal.url}
        out = _run(tmp_path, bedrock.url, env, "-p", "hi")
        [asked] = portal.requests
        [request] = bedrock.requests
    assert out.returncode == 0 and out.stdout == "The port is 9090.\n", out.stderr
    assert asked.path == "/federation/credentials?role_name=BedrockUser&account_id=111122223333"
    assert "Credential=ASIASSO/" in request.headers["authorization"]
    assert "/us-west-2/bedrock/" in request.headers["authorization"]
    assert request.headers["x-amz-security-token"] == "sso-session"


def test_an_expired_sso_login_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("botocore")
    _sso_profile(tmp_path)
    with ReplayServerThread(_sso_portal) as portal, ReplayServerThread([_body(ANSWER)]) as bedrock:
        cache = next((tmp_path / ".aws" / "sso" / "cache").iterdir())
        cache.write_text(json.dumps({**json.loads(cache.read_text()), "accessToken": "revoked"}))
        env = {"AWS_PROFILE": "corp", "AWS_ENDPOINT_URL_SSO": portal.url}
        out = _run(tmp_path, bedrock.url, env, "-p", "hi")
        assert bedrock.requests == []
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "AWS profile corp" in out.stderr, out.stderr
    assert "Session token not found" in out.stderr


ASSUMED = b"""<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>
<Credentials><AccessKeyId>ASIAROLE</AccessKeyId><SecretAccessKey>role-secret</SecretAccessKey>
<SessionToken>role-session</SessionToken><Expiration>2099-12-31T00:00:00Z</Expiration></Credentials>
<AssumedRoleUser><AssumedRoleId>AROA1:tau</AssumedRoleId>
<Arn>arn:aws:sts::111122223333:assumed-role/Bedrock/tau</Arn></AssumedRoleUser>
</AssumeRoleResult></AssumeRoleResponse>"""


def _sts(request: RecordedRequest, _index: int) -> Scripted:
    """STS AssumeRole, for callers signed with the source profile's keys."""
    if "Credential=AKIDSRC/" not in request.headers.get("authorization", ""):
        return Scripted(403, {"content-type": "text/xml"}, b"<ErrorResponse/>")
    return Scripted(headers={"content-type": "text/xml"}, body=ASSUMED)


def test_an_assumed_role_profile_signs_with_the_roles_credentials(tmp_path: Path) -> None:
    pytest.importorskip("botocore")
    aws = tmp_path / ".aws"
    aws.mkdir()
    (aws / "credentials").write_text("[base]\naws_access_key_id = AKIDSRC\naws_secret_access_key = src\n")
    (aws / "config").write_text(
        "[profile bedrock]\nrole_arn = arn:aws:iam::111122223333:role/Bedrock\n"
        "source_profile = base\nregion = eu-west-1\n"
    )
    with (
        ReplayServerThread(_sts) as sts,
        ReplayServerThread(signed_by("role-secret", [_body(ANSWER)])) as bedrock,
    ):
        env = {"AWS_PROFILE": "bedrock", "AWS_REGION": "", "AWS_ENDPOINT_URL_STS": sts.url}
        out = _run(tmp_path, bedrock.url, env, "-p", "hi")
        [asked] = sts.requests
        [request] = bedrock.requests
    assert out.returncode == 0 and out.stdout == "The port is 9090.\n", out.stderr
    assert b"Action=AssumeRole" in asked.body and b"role%2FBedrock" in asked.body
    assert "Credential=ASIAROLE/" in request.headers["authorization"]
    assert request.headers["x-amz-security-token"] == "role-session"
