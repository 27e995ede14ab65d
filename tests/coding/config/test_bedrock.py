"""AWS credentials and region for Bedrock from the environment and ~/.aws."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tau_ai.aws_sigv4 import AwsCredentials
from tau_ai.model import Model
from tau_coding.config.bedrock import BedrockConfigError, aws_key, bedrock_model, bedrock_sign_in
from tau_coding.config.cloud_token import Token

CATALOGUE = Model(
    "m", "bedrock-converse-stream", "amazon-bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com"
)


def _aws(tmp_path: Path, config: str = "", credentials: str = "") -> dict[str, str]:
    folder = tmp_path / ".aws"
    folder.mkdir(exist_ok=True)
    (folder / "config").write_text(config)
    (folder / "credentials").write_text(credentials)
    return {"HOME": str(tmp_path)}


def test_the_bearer_token_comes_first_then_environment_keys(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK"}
    assert AwsCredentials.from_key(aws_key(env)) == AwsCredentials("AK", "SK")
    assert aws_key({**env, "AWS_BEARER_TOKEN_BEDROCK": "tok"}) == "Bearer tok"
    assert aws_key({**env, "AWS_SESSION_TOKEN": "st"}) == AwsCredentials("AK", "SK", "st").as_key()


def test_nothing_configured_is_no_key_unless_auth_is_skipped(tmp_path: Path) -> None:
    assert aws_key({"HOME": str(tmp_path)}) is None
    assert bedrock_sign_in({"HOME": str(tmp_path)}) is None
    assert bedrock_sign_in({"HOME": str(tmp_path), "AWS_BEDROCK_SKIP_AUTH": "1"}) == Token("")


def test_the_default_profile_and_a_named_one(tmp_path: Path) -> None:
    env = _aws(
        tmp_path,
        credentials="[default]\naws_access_key_id = AKD\naws_secret_access_key = SKD\n"
        "[dev]\naws_access_key_id = AKDEV\naws_secret_access_key = SKDEV\naws_session_token = TDEV\n",
    )
    assert aws_key(env) == AwsCredentials("AKD", "SKD").as_key()
    assert aws_key({**env, "AWS_PROFILE": "dev"}) == AwsCredentials("AKDEV", "SKDEV", "TDEV").as_key()


def test_a_failing_credential_process_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "fail.py"
    script.write_text("import sys\nprint('token expired, run aws sso login', file=sys.stderr)\nsys.exit(3)\n")
    env = _aws(tmp_path, config=f"[default]\ncredential_process = {sys.executable} {script}\n")
    with pytest.raises(BedrockConfigError, match="credential_process failed: token expired") as caught:
        aws_key(env)
    assert "\n" not in str(caught.value)


def test_without_botocore_an_sso_profile_names_the_extra_and_credential_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("botocore", "botocore.session", "botocore.exceptions"):
        monkeypatch.setitem(sys.modules, name, None)  # what `import botocore` meets when not installed
    env = _aws(
        tmp_path, config="[profile corp]\nsso_session = corp\nsso_account_id = 1\nregion = eu-west-1\n"
    )
    with pytest.raises(BedrockConfigError) as caught:
        aws_key({**env, "AWS_PROFILE": "corp"})
    message = str(caught.value)
    assert message.startswith("AWS profile corp: ") and "\n" not in message
    assert "pip install 'tau-agent-harness[aws]'" in message
    assert "credential_process = aws configure export-credentials --profile corp --format process" in message


def test_an_unreadable_config_file_is_one_line(tmp_path: Path) -> None:
    env = _aws(tmp_path, config="not an ini file\n")
    with pytest.raises(BedrockConfigError, match="cannot read"):
        aws_key(env)


def test_the_region_moves_a_standard_endpoint_and_keeps_a_custom_one(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "AWS_REGION": "eu-west-3"}
    moved = bedrock_model(CATALOGUE, env)
    assert moved.base_url == "https://bedrock-runtime.eu-west-3.amazonaws.com"
    assert moved.compat["awsRegion"] == "eu-west-3"
    custom = bedrock_model(
        Model("m", "bedrock-converse-stream", "amazon-bedrock", "https://vpce-1.example"), env
    )
    assert custom.base_url == "https://vpce-1.example" and custom.compat["awsRegion"] == "eu-west-3"
    profile = _aws(tmp_path, config="[default]\nregion = sa-east-1\n")
    assert bedrock_model(CATALOGUE, profile).compat["awsRegion"] == "sa-east-1"
    assert bedrock_model(CATALOGUE, {"HOME": str(tmp_path / "none")}) == CATALOGUE
