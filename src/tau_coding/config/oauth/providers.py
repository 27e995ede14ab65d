"""What each subscription login needs: endpoints, client id, scopes, redirect and headers.

These are the providers' published (or their own clients') values. Every endpoint can be
pointed elsewhere through the environment, which is how tests run each flow against a local
fake authorization server (docs/logins.md lists the variables):

* ``TAU_ANTHROPIC_OAUTH_URL``: origin of Anthropic's authorize and token endpoints
* ``TAU_OPENAI_CODEX_OAUTH_URL``: origin of OpenAI's (auth.openai.com)
* ``TAU_GITHUB_OAUTH_URL``: origin of GitHub's device-code, token and Copilot token endpoints
* ``TAU_GOOGLE_OAUTH_URL``: origin of Google's authorize and token endpoints
* ``TAU_GOOGLE_CODE_ASSIST_URL``: Cloud Code Assist, where the Gemini CLI login finds its project
* ``TAU_OAUTH_CALLBACK_PORT``: the loopback callback port instead of the provider's fixed one
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from tau_ai.catalog.subscriptions import COPILOT_EDITOR_HEADERS as COPILOT_HEADERS

Flow = Literal["pkce", "device"]


@dataclass(frozen=True, slots=True)
class LoginProvider:
    """One provider's login. ``token_format`` is how the token endpoint wants its body."""

    id: str
    name: str
    flow: Flow
    client_id: str
    authorize_url: str
    token_url: str
    scopes: str
    callback_port: int = 0
    callback_path: str = "/callback"
    token_format: Literal["json", "form"] = "form"
    extra_authorize: Mapping[str, str] = field(default_factory=dict)
    exchange_url: str = ""  # Copilot: the GitHub token is exchanged here for a Copilot token
    client_secret: str = ""  # Google's installed-app secret (public by design)
    project_url: str = ""  # Gemini CLI: Cloud Code Assist, asked for the user's project
    headers: Mapping[str, str] = field(default_factory=dict)

    def redirect_uri(self, port: int) -> str:
        return f"http://localhost:{port}{self.callback_path}"


def _origin(environ: Mapping[str, str], variable: str, default: str) -> str:
    return (environ.get(variable) or default).rstrip("/")


def login_providers(environ: Mapping[str, str]) -> dict[str, LoginProvider]:
    """The providers ``tau login`` knows, by id, with the environment's endpoint overrides;
    then the ones loaded extensions registered."""
    anthropic = environ.get("TAU_ANTHROPIC_OAUTH_URL", "").rstrip("/")
    openai = _origin(environ, "TAU_OPENAI_CODEX_OAUTH_URL", "https://auth.openai.com")
    github = environ.get("TAU_GITHUB_OAUTH_URL", "").rstrip("/")
    google = environ.get("TAU_GOOGLE_OAUTH_URL", "").rstrip("/")
    return {**_builtin_logins(anthropic, openai, github, google, environ), **_REGISTERED}


def _builtin_logins(
    anthropic: str, openai: str, github: str, google: str, environ: Mapping[str, str]
) -> dict[str, LoginProvider]:
    providers = (
        LoginProvider(
            id="anthropic",
            name="Anthropic (Claude Pro/Max)",
            flow="pkce",
            client_id="9d1c250a-e61b-44d9-88ed-5944d1962f5e",
            authorize_url=f"{anthropic or 'https://claude.ai'}/oauth/authorize",
            token_url=f"{anthropic or 'https://platform.claude.com'}/v1/oauth/token",
            scopes="org:create_api_key user:profile user:inference user:sessions:claude_code "
            "user:mcp_servers user:file_upload",
            callback_port=53692,
            token_format="json",
            extra_authorize={"code": "true"},
        ),
        LoginProvider(
            id="openai-codex",
            name="ChatGPT Plus/Pro (Codex)",
            flow="pkce",
            client_id="app_EMoamEEZ73f0CkXaXp7hrann",
            authorize_url=f"{openai}/oauth/authorize",
            token_url=f"{openai}/oauth/token",
            scopes="openid profile email offline_access",
            callback_port=1455,
            callback_path="/auth/callback",
            extra_authorize={
                "id_token_add_organizations": "true",
                "codex_cli_simplified_flow": "true",
                "originator": "tau",
            },
        ),
        LoginProvider(
            id="github-copilot",
            name="GitHub Copilot",
            flow="device",
            client_id="Iv1.b507a08c87ecfe98",
            authorize_url=f"{github or 'https://github.com'}/login/device/code",
            token_url=f"{github or 'https://github.com'}/login/oauth/access_token",
            scopes="read:user",
            exchange_url=f"{github or 'https://api.github.com'}/copilot_internal/v2/token",
            headers=COPILOT_HEADERS,
        ),
        LoginProvider(
            id="google-gemini-cli",
            name="Google Gemini CLI (Cloud Code Assist)",
            flow="pkce",
            client_id="681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com",
            client_secret="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",
            authorize_url=f"{google or 'https://accounts.google.com'}/o/oauth2/v2/auth",
            token_url=f"{google or 'https://oauth2.googleapis.com'}/token",
            scopes="https://www.googleapis.com/auth/cloud-platform "
            "https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
            callback_port=8085,
            callback_path="/oauth2callback",
            extra_authorize={"access_type": "offline", "prompt": "consent"},
            project_url=_origin(environ, "TAU_GOOGLE_CODE_ASSIST_URL", "https://cloudcode-pa.googleapis.com"),
        ),
    )
    return {provider.id: provider for provider in providers}


# Logins extensions declared (``register_provider(..., oauth=LoginProvider(...))``), by id: the
# same flows, store and refresh as the built-in ones; a built-in id is never replaced.
_REGISTERED: dict[str, LoginProvider] = {}
LOGIN_PROVIDER_IDS = frozenset(login_providers({}))


def register_login_provider(provider: LoginProvider) -> None:
    """Offer ``provider``'s login to ``/login``, ``tau login`` and RPC's login commands."""
    if provider.id in LOGIN_PROVIDER_IDS:
        raise ValueError(f"{provider.id!r} is a built-in login; an extension cannot replace it")
    _REGISTERED[provider.id] = provider


def unregister_login_provider(provider_id: str) -> None:
    _REGISTERED.pop(provider_id, None)


def callback_port(provider: LoginProvider, environ: Mapping[str, str]) -> int:
    """The loopback port to listen on: the provider's own, or ``TAU_OAUTH_CALLBACK_PORT``."""
    configured = environ.get("TAU_OAUTH_CALLBACK_PORT", "").strip()
    return int(configured) if configured.isdigit() else provider.callback_port
