"""The pure halves of the wire APIs, one subpackage each, found by name.

Nothing registers itself: ``wire_api(name)`` imports the one subpackage asked for, so a cold
start pays only for the API it uses.
"""

from __future__ import annotations

import importlib

from tau_ai.wire_api import WireApi

MODULES = {
    "openai-completions": "tau_ai.apis.openai_completions",
    "openai-responses": "tau_ai.apis.openai_responses",
    "openai-codex-responses": "tau_ai.apis.openai_codex",
    "anthropic-messages": "tau_ai.apis.anthropic_messages",
    "google-generative-ai": "tau_ai.apis.google",
    "google-gemini-cli": "tau_ai.apis.google_code_assist",
    "mistral-conversations": "tau_ai.apis.mistral",
    "azure-openai-responses": "tau_ai.apis.azure_openai",
    "google-vertex": "tau_ai.apis.google_vertex",
    "anthropic-vertex": "tau_ai.apis.anthropic_vertex",
    "bedrock-converse-stream": "tau_ai.apis.bedrock",
}

# Wire APIs the catalogue lists models for that this version does not speak yet (name -> what it is).
PLANNED: dict[str, str] = {
    "openai-codex-responses": "the ChatGPT (Codex) Responses backend",
}


def unsupported_api(provider: str, model_id: str, api: str) -> str | None:
    """One line saying why ``provider/model_id`` cannot be used (its API is not spoken), or None."""
    if api in MODULES:
        return None
    what = PLANNED.get(api)
    if what is not None:
        return (
            f"{provider}/{model_id} needs {what} (API {api!r}), which this version of Tau does not speak yet"
        )
    return f"{provider}/{model_id} uses the unknown API {api!r}; known: {', '.join(MODULES)}"


def wire_api(name: str) -> WireApi:
    """The WireApi called ``name``; raises KeyError naming the known APIs for any other name."""
    module = MODULES.get(name)
    if module is None:
        raise KeyError(f"unknown wire API {name!r}; known: {', '.join(MODULES)}")
    api: WireApi = importlib.import_module(module).WIRE_API
    return api


__all__ = ["MODULES", "PLANNED", "unsupported_api", "wire_api"]
