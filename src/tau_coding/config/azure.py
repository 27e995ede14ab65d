"""Azure OpenAI settings from the environment (Pi's variable names), applied to a model.

``AZURE_OPENAI_BASE_URL`` (or ``AZURE_OPENAI_RESOURCE_NAME``, giving
``https://NAME.openai.azure.com/openai/v1``) is where requests go; ``AZURE_OPENAI_API_VERSION``
the ``api-version`` (default ``v1``); ``AZURE_OPENAI_DEPLOYMENT_NAME_MAP`` (``model=deployment``,
comma-separated) the deployment that serves a model (default: a deployment named as the model).
Credentials: ``AZURE_OPENAI_API_KEY`` (an ``api-key`` header, resolved like every key), else an
Entra ID token: ``AZURE_OPENAI_AD_TOKEN``, else one from azure-identity's default credential chain
(the ``azure`` extra, imported only then) when an Azure endpoint is configured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from tau_ai.model import Model
from tau_coding.config.cloud_token import Token, as_token

API = "azure-openai-responses"
ENTRA_SCOPE = "https://cognitiveservices.azure.com/.default"


class AzureConfigError(ValueError):
    """The Azure settings cannot be used; the message is one line."""


def deployment_map(text: str) -> dict[str, str]:
    """``"gpt-5=prod-gpt5, o3=o3-east"`` as a mapping; a malformed entry is an AzureConfigError."""
    out: dict[str, str] = {}
    for entry in text.split(","):
        if not entry.strip():
            continue
        model_id, sep, deployment = entry.partition("=")
        if not sep or not model_id.strip() or not deployment.strip():
            raise AzureConfigError(
                f"AZURE_OPENAI_DEPLOYMENT_NAME_MAP: {entry.strip()!r} is not model=deployment"
            )
        out[model_id.strip()] = deployment.strip()
    return out


def base_url(environ: Mapping[str, str], fallback: str = "") -> str:
    """Where Azure requests go: AZURE_OPENAI_BASE_URL, the resource's default URL, or ``fallback``."""
    explicit = environ.get("AZURE_OPENAI_BASE_URL", "").strip()
    if explicit:
        return explicit
    resource = environ.get("AZURE_OPENAI_RESOURCE_NAME", "").strip()
    return f"https://{resource}.openai.azure.com/openai/v1" if resource else fallback


def azure_model(model: Model, environ: Mapping[str, str]) -> Model:
    """``model`` with the environment's Azure settings; any other API's model unchanged."""
    if model.api != API:
        return model
    url = base_url(environ, model.base_url)
    if not url:
        raise AzureConfigError(
            f"{model.provider}/{model.id}: set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME "
            "(or a baseUrl in models.json)"
        )
    compat = dict(model.compat)
    version = environ.get("AZURE_OPENAI_API_VERSION", "").strip()
    if version:
        compat["azureApiVersion"] = version
    deployment = deployment_map(environ.get("AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "")).get(model.id)
    if deployment:
        compat["azureDeployment"] = deployment
    return replace(model, base_url=url, compat=compat)


def default_credential_token() -> Token:
    """A token from azure-identity's DefaultAzureCredential (env, workload identity, managed
    identity, Azure CLI, ...); azure-identity is imported here, only when Entra ID is used."""
    try:
        from azure.identity import DefaultAzureCredential  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        raise AzureConfigError(
            "no AZURE_OPENAI_API_KEY: set it, set AZURE_OPENAI_AD_TOKEN, or install the azure extra "
            "(pip install 'tau-agent-harness[azure]') for Entra ID sign-in"
        ) from exc
    try:
        access = DefaultAzureCredential().get_token(ENTRA_SCOPE)
    except Exception as exc:  # azure-identity raises many kinds; the user needs one line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise AzureConfigError(f"Entra ID sign-in failed: {first}") from exc
    return Token(str(access.token), float(access.expires_on))


def entra_token(
    environ: Mapping[str, str], fetch: Callable[[], str | Token] = default_credential_token
) -> Token | None:
    """``"Bearer <token>"`` for Azure when no key is configured, with its expiry:
    AZURE_OPENAI_AD_TOKEN, else ``fetch()`` when an Azure endpoint is configured; None when
    Azure is not set up at all."""
    token = environ.get("AZURE_OPENAI_AD_TOKEN", "").strip()
    if token:
        return Token(f"Bearer {token}")
    if not base_url(environ):
        return None
    fetched = as_token(fetch())
    return Token(f"Bearer {fetched.value}", fetched.expires_at)


def entra_bearer(
    environ: Mapping[str, str], fetch: Callable[[], str | Token] = default_credential_token
) -> str | None:
    """``entra_token``'s key without its expiry."""
    token = entra_token(environ, fetch)
    return token.value if token is not None else None
