"""The Cloud Code Assist project a Gemini CLI login works in: found, or set up on the free tier.

``GOOGLE_CLOUD_PROJECT`` (or ``GOOGLE_CLOUD_PROJECT_ID``) names the user's own project, which
paid tiers need. Otherwise Code Assist says which project the account has, and an account that
has none is onboarded onto the free tier (a long-running operation, polled).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from tau_coding.config.oauth.http import request_json

METADATA = {"ideType": "IDE_UNSPECIFIED", "platform": "PLATFORM_UNSPECIFIED", "pluginType": "GEMINI"}
FREE_TIER = "free-tier"


class ProjectError(Exception):
    """No project could be found or set up; ``str`` is one line."""


def _project_id(value: object) -> str | None:
    if isinstance(value, str) and value:
        return value
    if isinstance(value, Mapping) and isinstance(value.get("id"), str) and value["id"]:
        return str(value["id"])
    return None


def _default_tier(loaded: Mapping[str, Any]) -> str:
    tiers = loaded.get("allowedTiers")
    for tier in tiers if isinstance(tiers, list) else []:
        if isinstance(tier, Mapping) and tier.get("isDefault") and isinstance(tier.get("id"), str):
            return str(tier["id"])
    return FREE_TIER


def discover_project(
    base_url: str,
    access_token: str,
    environ: Mapping[str, str],
    progress: Callable[[str], object] = lambda _line: None,
    *,
    poll_interval: float = 2.0,
    polls: int = 30,
) -> str:
    configured = environ.get("GOOGLE_CLOUD_PROJECT") or environ.get("GOOGLE_CLOUD_PROJECT_ID") or None
    headers = {"authorization": f"Bearer {access_token}"}
    metadata: dict[str, str] = {**METADATA, **({"duetProject": configured} if configured else {})}
    ask: dict[str, Any] = {"metadata": metadata}
    if configured:
        ask["cloudaicompanionProject"] = configured
    loaded = request_json(f"{base_url}/v1internal:loadCodeAssist", json_body=ask, headers=headers)
    found = _project_id(loaded.get("cloudaicompanionProject"))
    if found:
        return found
    if loaded.get("currentTier") and configured:
        return configured
    tier = _default_tier(loaded)
    if tier != FREE_TIER and not configured:
        raise ProjectError("this Google account's Code Assist tier needs a project: set GOOGLE_CLOUD_PROJECT")
    progress("Setting up Cloud Code Assist (free tier)…")
    onboard: dict[str, Any] = {"tierId": tier, "metadata": metadata}
    if configured and tier != FREE_TIER:
        onboard["cloudaicompanionProject"] = configured
    for _ in range(polls):
        operation = request_json(f"{base_url}/v1internal:onboardUser", json_body=onboard, headers=headers)
        if operation.get("done"):
            response = operation.get("response")
            found = (
                _project_id(response.get("cloudaicompanionProject"))
                if isinstance(response, Mapping)
                else None
            )
            if found:
                return found
            break
        time.sleep(poll_interval)
    if configured:
        return configured
    raise ProjectError("Cloud Code Assist set up no project for this account: set GOOGLE_CLOUD_PROJECT")
