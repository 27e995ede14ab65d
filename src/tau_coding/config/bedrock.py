"""Amazon Bedrock settings and credentials from the environment (AWS's standard names).

Credentials, first found wins, resolved to the provider key ``tau_ai.apis.bedrock`` reads:

1. ``AWS_BEARER_TOKEN_BEDROCK``: a Bedrock API key, sent as a bearer token;
2. ``AWS_ACCESS_KEY_ID`` + ``AWS_SECRET_ACCESS_KEY`` (+ ``AWS_SESSION_TOKEN``);
3. SSO (IAM Identity Center), assumed-role (``role_arn``) and web-identity profiles, and
   ``AWS_WEB_IDENTITY_TOKEN_FILE``: through botocore's credential chain (the ``aws`` extra,
   ``tau_coding.config.aws_chain``; without it, a one-line error naming the extra);
4. the profile ``AWS_PROFILE`` names (else ``default``) in ``~/.aws/credentials`` and
   ``~/.aws/config`` (``AWS_SHARED_CREDENTIALS_FILE``, ``AWS_CONFIG_FILE``): static keys, or a
   ``credential_process`` command whose JSON output gives them;
5. container credentials (``AWS_CONTAINER_CREDENTIALS_*_URI``), through botocore too;
6. ``AWS_BEDROCK_SKIP_AUTH=1``: no credentials (a proxy that signs for you).

Instance metadata is not probed (see ``aws_chain``). Temporary credentials (a
``credential_process`` whose output has an ``Expiration``, and what botocore resolves) carry
their expiry: the key lookup (``tau_coding.config.platform_keys``) resolves them again a few
minutes before it, and when AWS refuses them as expired. The region is
``AWS_REGION``, ``AWS_DEFAULT_REGION``, the profile's ``region``, else the model's; the model's
base URL follows it when it is a standard ``bedrock-runtime`` endpoint (a models.json
``baseUrl`` elsewhere, a VPC endpoint or proxy, is kept).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING

from tau_ai.model import Model

if TYPE_CHECKING:  # imported where used: a session that is not on Bedrock never loads them
    import configparser

    from tau_ai.aws_sigv4 import AwsCredentials
    from tau_coding.config.cloud_token import Token

API = "bedrock-converse-stream"
PROCESS_TIMEOUT = 60.0


class BedrockConfigError(ValueError):
    """The AWS settings cannot be used; the message is one line."""


def _home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HOME") or Path.home())


def aws_files(environ: Mapping[str, str]) -> tuple[Path, Path]:
    """The shared config and credentials files (``AWS_CONFIG_FILE``, ``AWS_SHARED_CREDENTIALS_FILE``)."""
    home = _home(environ)
    return (
        Path(environ.get("AWS_CONFIG_FILE") or home / ".aws" / "config"),
        Path(environ.get("AWS_SHARED_CREDENTIALS_FILE") or home / ".aws" / "credentials"),
    )


def _read_ini(path: Path) -> configparser.ConfigParser:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(encoding="utf-8"), source=str(path))
    except FileNotFoundError:
        pass
    except (OSError, configparser.Error) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise BedrockConfigError(f"cannot read {path}: {first}") from exc
    return parser


def profile_settings(environ: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """(profile name, its settings from the credentials file over the config file)."""
    name = environ.get("AWS_PROFILE", "").strip() or "default"
    config_file, credentials_file = aws_files(environ)
    config, credentials = _read_ini(config_file), _read_ini(credentials_file)
    settings: dict[str, str] = {}
    section = name if name == "default" else f"profile {name}"
    for source, key in ((config, section), (config, name), (credentials, name)):
        if source.has_section(key):
            settings.update(source.items(key))
    return name, settings


def region_of(environ: Mapping[str, str]) -> str:
    """The configured region, or "" when none is."""
    region = (environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION") or "").strip()
    if region:
        return region
    try:
        return profile_settings(environ)[1].get("region", "").strip()
    except BedrockConfigError:
        return ""


def bedrock_model(model: Model, environ: Mapping[str, str]) -> Model:
    """``model`` with the configured region (and the standard endpoint of that region)."""
    if model.api != API:
        return model
    from tau_ai.apis.bedrock import endpoint_region

    region = region_of(environ)
    if not region:
        return model
    base_url = model.base_url
    if endpoint_region(base_url) is not None:
        suffix = ".amazonaws.com.cn" if region.startswith("cn-") else ".amazonaws.com"
        base_url = f"https://bedrock-runtime.{region}{suffix}"
    return replace(model, base_url=base_url, compat={**model.compat, "awsRegion": region})


def process_credentials(command: str, profile: str) -> AwsCredentials:
    """The credentials a ``credential_process`` command prints (AWS's JSON, ``Version`` 1)."""
    import json
    import shlex
    import subprocess

    from tau_ai.aws_sigv4 import AwsCredentials

    try:
        done = subprocess.run(
            shlex.split(command), capture_output=True, text=True, timeout=PROCESS_TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired, ValueError) as exc:
        raise BedrockConfigError(f"AWS profile {profile}: credential_process failed: {exc}") from exc
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise BedrockConfigError(f"AWS profile {profile}: credential_process failed: {why}")
    try:
        data = json.loads(done.stdout)
        return AwsCredentials(
            str(data["AccessKeyId"]),
            str(data["SecretAccessKey"]),
            str(data.get("SessionToken") or ""),
            _timestamp(data.get("Expiration")),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise BedrockConfigError(
            f"AWS profile {profile}: credential_process printed no AccessKeyId/SecretAccessKey JSON"
            " (with an ISO 8601 Expiration, if any)"
        ) from exc


def _timestamp(expiration: object) -> float | None:
    """``Expiration`` of credential_process output (ISO 8601) in seconds since the epoch; absent:
    credentials that do not expire, as AWS reads it."""
    if expiration is None or expiration == "":
        return None
    from datetime import datetime

    when = datetime.fromisoformat(str(expiration))
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def aws_key(environ: Mapping[str, str]) -> str | None:
    """The Bedrock provider key from the environment (see the module docstring), or None."""
    token = aws_token(environ)
    return token.value if token is not None else None


def aws_token(environ: Mapping[str, str]) -> Token | None:
    """``aws_key`` with the time its credentials expire (None: unknown, or they do not)."""
    from tau_ai.aws_sigv4 import AwsCredentials
    from tau_coding.config.cloud_token import Token

    bearer = environ.get("AWS_BEARER_TOKEN_BEDROCK", "").strip()
    if bearer:
        return Token(f"Bearer {bearer}")
    found = _credentials(environ)
    return Token(found.as_key(), found.expires_at) if isinstance(found, AwsCredentials) else None


def _credentials(environ: Mapping[str, str]) -> AwsCredentials | None:
    from tau_ai.aws_sigv4 import AwsCredentials

    key_id, secret = (
        environ.get("AWS_ACCESS_KEY_ID", "").strip(),
        environ.get("AWS_SECRET_ACCESS_KEY", "").strip(),
    )
    if key_id and secret:
        return AwsCredentials(key_id, secret, environ.get("AWS_SESSION_TOKEN", "").strip())
    name, settings = profile_settings(environ)
    from tau_coding.config.aws_chain import chain_first, chain_last

    if chain_first(settings, environ):
        return _chain_credentials(name, settings, environ)
    if settings.get("aws_access_key_id") and settings.get("aws_secret_access_key"):
        return AwsCredentials(
            settings["aws_access_key_id"].strip(),
            settings["aws_secret_access_key"].strip(),
            settings.get("aws_session_token", "").strip(),
        )
    if settings.get("credential_process"):
        return process_credentials(settings["credential_process"], name)
    return _chain_credentials(name, settings, environ) if chain_last(environ) else None


def _chain_credentials(name: str, settings: Mapping[str, str], environ: Mapping[str, str]) -> AwsCredentials:
    from tau_coding.config.aws_chain import AwsChainError, chain_credentials

    config, credentials = aws_files(environ)
    where = f"AWS profile {name}" if settings else "AWS credentials"
    chosen = environ.get("AWS_PROFILE", "").strip() or None
    try:
        return chain_credentials(chosen, config, credentials, where=where, region=region_of(environ))
    except AwsChainError as exc:
        raise BedrockConfigError(str(exc)) from exc


def bedrock_sign_in(environ: Mapping[str, str]) -> Token | None:
    """``aws_token`` for the key lookup: None when AWS is not set up; with
    ``AWS_BEDROCK_SKIP_AUTH=1`` and nothing else, a placeholder so the provider counts as usable
    (requests go unsigned)."""
    from tau_coding.config.cloud_token import Token

    token = aws_token(environ)
    if token is None and environ.get("AWS_BEDROCK_SKIP_AUTH") == "1":
        return Token("")
    return token


__all__ = [
    "API",
    "BedrockConfigError",
    "aws_key",
    "aws_token",
    "bedrock_model",
    "bedrock_sign_in",
    "region_of",
]
