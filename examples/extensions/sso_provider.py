"""A provider behind the company's single sign-on: ``tau login corp``, then ``--model corp/corp-1``.

``register_provider(..., oauth=LoginProvider(...))`` declares the login the way Tau declares its
own (``tau_coding/config/oauth/providers.py``: endpoints, client id, scopes, PKCE or device
code): ``/login corp`` and ``tau login corp`` run it, auth.json keeps the tokens, and they are
refreshed when due. The provider speaks the OpenAI chat API at ``CORP_AI_URL`` and sends the
login's access token. ``CORP_SSO_URL`` is the sign-on server's origin.
"""

from __future__ import annotations

import os

from tau_ai.apis import wire_api
from tau_ai.model import Model
from tau_coding.config.oauth.providers import LoginProvider
from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    sso = os.environ.get("CORP_SSO_URL", "https://sso.corp.example").rstrip("/")
    api = os.environ.get("CORP_AI_URL", "https://ai.corp.example/v1").rstrip("/")
    login = LoginProvider(
        id="corp",
        name="Corp AI (SSO)",
        flow="pkce",
        client_id="tau-corp-example",
        authorize_url=f"{sso}/oauth/authorize",
        token_url=f"{sso}/oauth/token",
        scopes="openid offline_access",
        callback_path="/callback",
    )
    model = Model(id="corp-1", api="openai-completions", provider="corp", base_url=api, name="Corp 1")
    tau.register_provider("corp", wire=wire_api("openai-completions"), models=[model], oauth=login)
