"""What a login changes about its provider's models.

GitHub Copilot's token names the API host it is valid for (``proxy-ep=proxy.<host>`` among its
``;``-separated fields): its models go to ``https://api.<host>`` unless models.json re-routed
them elsewhere (tests do, to a local server).
"""

from __future__ import annotations

import re
from dataclasses import replace

from tau_ai.catalog.subscriptions import COPILOT_BASE_URL
from tau_ai.model import Model

_PROXY = re.compile(r"(?:^|;)proxy-ep=([^;]+)")


def with_login(model: Model, access_token: str | None) -> Model:
    """``model`` as its provider's login says to reach it (the same model when nothing changes)."""
    if model.provider != "github-copilot" or model.base_url != COPILOT_BASE_URL or not access_token:
        return model
    found = _PROXY.search(access_token)
    if found is None:
        return model
    host = re.sub(r"^proxy\.", "api.", found.group(1).strip())
    return replace(model, base_url=f"https://{host}")
