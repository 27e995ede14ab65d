"""Google Vertex AI settings from the environment (Pi's variable names), applied to a model.

``GOOGLE_CLOUD_PROJECT`` (or ``GCLOUD_PROJECT``) and ``GOOGLE_CLOUD_LOCATION`` say where models
run (``global`` is a location too). Credentials: ``GOOGLE_CLOUD_API_KEY`` (Gemini only; Vertex's
express mode, no project needed), else an access token: the file gcloud's
``CLOUDSDK_AUTH_ACCESS_TOKEN_FILE`` names, else application-default credentials through
google-auth (the ``vertex`` extra, imported only then).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC
from pathlib import Path

from tau_ai.model import Model
from tau_coding.config.cloud_token import REREAD, Token, as_token

APIS = ("google-vertex", "anthropic-vertex")
SCOPE = "https://www.googleapis.com/auth/cloud-platform"


class VertexConfigError(ValueError):
    """The Vertex settings cannot be used; the message is one line."""


def project_of(environ: Mapping[str, str]) -> str:
    return (environ.get("GOOGLE_CLOUD_PROJECT") or environ.get("GCLOUD_PROJECT") or "").strip()


def vertex_model(model: Model, environ: Mapping[str, str], *, with_key: bool = False) -> Model:
    """``model`` with the project and location of the environment; other APIs' models unchanged.
    ``with_key``: an API key (not a token) will be sent, so Gemini needs no project."""
    if model.api not in APIS:
        return model
    project = project_of(environ) or str(model.compat.get("vertexProject") or "")
    location = environ.get("GOOGLE_CLOUD_LOCATION", "").strip() or str(
        model.compat.get("vertexLocation") or ""
    )
    express = with_key and model.api == "google-vertex"
    if not express and (not project or not location):
        missing = "GOOGLE_CLOUD_PROJECT" if not project else "GOOGLE_CLOUD_LOCATION"
        raise VertexConfigError(f"{model.provider}/{model.id}: set {missing} for Vertex AI")
    compat = dict(model.compat)
    if project and not express:
        compat["vertexProject"] = project
    compat["vertexLocation"] = location or "global"
    return replace(model, compat=compat)


def adc_token() -> Token:
    """An access token from application-default credentials (google-auth, imported here only)."""
    try:
        import google.auth  # type: ignore[import-not-found,import-untyped,unused-ignore]
        import google.auth.transport.requests  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as exc:
        raise VertexConfigError(
            "Vertex AI needs credentials: install the vertex extra (pip install 'tau-agent-harness[vertex]') "
            "and run gcloud auth application-default login, or set GOOGLE_CLOUD_API_KEY"
        ) from exc
    try:
        credentials, _ = google.auth.default(scopes=[SCOPE])
        credentials.refresh(google.auth.transport.requests.Request())
    except Exception as exc:  # google-auth raises many kinds; the user needs one line
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise VertexConfigError(f"Google application-default credentials failed: {first}") from exc
    expiry = credentials.expiry  # a naive UTC datetime, or None
    expires_at = expiry.replace(tzinfo=UTC).timestamp() if expiry is not None else None
    return Token(str(credentials.token), expires_at)


def vertex_bearer(environ: Mapping[str, str], fetch: Callable[[], str | Token] = adc_token) -> str | None:
    """``vertex_token``'s key without its expiry."""
    token = vertex_token(environ, fetch)
    return token.value if token is not None else None


def vertex_token(environ: Mapping[str, str], fetch: Callable[[], str | Token] = adc_token) -> Token | None:
    """``"Bearer <token>"`` for Vertex with its expiry: from gcloud's access-token file (read
    again before every request: gcloud keeps it fresh), else ``fetch()`` when a project is
    configured; None when Vertex is not set up at all."""
    token_file = environ.get("CLOUDSDK_AUTH_ACCESS_TOKEN_FILE", "").strip()
    if token_file:
        try:
            token = Path(token_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise VertexConfigError(
                f"CLOUDSDK_AUTH_ACCESS_TOKEN_FILE: cannot read {token_file}: {exc}"
            ) from exc
        if token:
            return Token(f"Bearer {token}", REREAD)
    if not project_of(environ):
        return None
    fetched = as_token(fetch())
    return Token(f"Bearer {fetched.value}", fetched.expires_at)
