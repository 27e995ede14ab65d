"""AWS credentials Tau does not read itself, through botocore's credential chain (the ``aws`` extra).

Tau's own reader (``tau_coding.config.bedrock``) handles environment keys, static profile keys and
``credential_process``. What needs more of AWS's machinery goes to botocore, imported here only, on
that path: IAM Identity Center (SSO) profiles and their token cache, assumed roles (``role_arn``
with ``source_profile`` or ``credential_source``), web identity and container credentials.
Plain instance metadata is never probed: off EC2 that is a network wait of seconds, and Tau
looks for credentials at start-up (a profile with ``credential_source = Ec2InstanceMetadata``
reads it on purpose). Signing stays Tau's own (``tau_ai.aws_sigv4``). Temporary credentials
carry their expiry, so a long session resolves them again before they run out.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tau_ai.aws_sigv4 import AwsCredentials

EXTRA = "pip install 'tau-agent-harness[aws]'"
# Profile settings only botocore's chain resolves; AWS reads them before a profile's static keys.
PROFILE_SETTINGS = ("role_arn", "source_profile", "credential_source", "web_identity_token_file")
WEB_IDENTITY = "AWS_WEB_IDENTITY_TOKEN_FILE"
# Container credentials come after the profile's keys in AWS's order.
CONTAINER = ("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI")


def chain_first(settings: Mapping[str, str], environ: Mapping[str, str]) -> bool:
    """Whether the profile's ``settings`` or ``environ`` name SSO, assumed-role or web-identity
    credentials: botocore resolves them, before the profile's own keys (AWS's order)."""
    in_profile = any(k.startswith("sso_") or k in PROFILE_SETTINGS for k in settings)
    return in_profile or bool(environ.get(WEB_IDENTITY, "").strip())


def chain_last(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` names container credentials (read when the profile gives none)."""
    return any(environ.get(name, "").strip() for name in CONTAINER)


class AwsChainError(ValueError):
    """botocore is missing or could not resolve credentials; the message is one line."""


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def chain_credentials(
    profile: str | None, config_file: Path, credentials_file: Path, *, where: str, region: str = ""
) -> AwsCredentials:
    """The credentials botocore's chain resolves for ``profile`` (None: botocore's default),
    reading the given files; ``region``, when given, is where STS is asked (botocore itself
    reads ``AWS_DEFAULT_REGION`` and the profile's, not ``AWS_REGION``). Any failure, botocore
    missing included, is a one-line ``AwsChainError`` that begins with ``where``."""
    try:
        import botocore.exceptions  # type: ignore[import-not-found,import-untyped,unused-ignore]
        import botocore.session  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        raise AwsChainError(
            f"{where}: SSO, assumed-role, web-identity and container credentials need botocore "
            f"({EXTRA}), or add credential_process = aws configure export-credentials"
            f"{f' --profile {profile}' if profile else ''} --format process"
        ) from exc
    try:
        session = botocore.session.Session(profile=profile)
        session.set_config_variable("config_file", str(config_file))
        session.set_config_variable("credentials_file", str(credentials_file))
        if region:
            session.set_config_variable("region", region)
        session.get_component("credential_provider").remove("iam-role")
        found = session.get_credentials()
        frozen = found.get_frozen_credentials() if found is not None else None
    except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError) as exc:
        raise AwsChainError(f"{where}: {_first_line(exc)}") from exc
    if frozen is None or not frozen.access_key or not frozen.secret_key:
        raise AwsChainError(f"{where}: botocore found no credentials")
    return AwsCredentials(
        str(frozen.access_key), str(frozen.secret_key), str(frozen.token or ""), _expiry(found)
    )


def _expiry(found: object) -> float | None:
    """When temporary credentials botocore resolved expire (None: static ones). botocore keeps
    the time on its refreshable credentials only, unexposed; Tau renews them itself, ahead of
    it, by resolving the chain again (``tau_coding.config.cloud_token``)."""
    from botocore.credentials import RefreshableCredentials  # type: ignore[import-not-found,import-untyped,unused-ignore]

    if not isinstance(found, RefreshableCredentials):
        return None
    expiry = found._expiry_time
    return float(expiry.timestamp()) if expiry is not None else None


__all__ = ["EXTRA", "AwsChainError", "chain_credentials", "chain_first", "chain_last"]
