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
}


def wire_api(name: str) -> WireApi:
    """The WireApi called ``name``; raises KeyError naming the known APIs for any other name."""
    module = MODULES.get(name)
    if module is None:
        raise KeyError(f"unknown wire API {name!r}; known: {', '.join(MODULES)}")
    api: WireApi = importlib.import_module(module).WIRE_API
    return api


__all__ = ["MODULES", "wire_api"]
