"""The built-in model catalogue: the main providers' current tool-capable models (plain data).

Values (context windows, output limits, prices per million tokens, reasoning and image
support) were taken from the providers' published model lists; a user's models.json can
override any of them or add models and providers (``tau_ai.models_config``). Nothing here
reads a file or the environment: ``API_KEY_ENV`` only names the variable the app may read.
"""

from __future__ import annotations

from functools import cache

from tau_ai.catalog.anthropic import ANTHROPIC
from tau_ai.catalog.google import GOOGLE
from tau_ai.catalog.hosted import CEREBRAS, DEEPSEEK, GROQ, MISTRAL, XAI
from tau_ai.catalog.openai import OPENAI
from tau_ai.catalog.openrouter import OPENROUTER
from tau_ai.catalog.rows import ProviderRows
from tau_ai.catalog.subscriptions import (
    COPILOT_CHAT,
    COPILOT_CLAUDE,
    COPILOT_RESPONSES,
    GEMINI_CLI,
    OPENAI_CODEX,
)
from tau_ai.model import Model

PROVIDERS: tuple[ProviderRows, ...] = (
    ANTHROPIC,
    OPENAI,
    GOOGLE,
    MISTRAL,
    XAI,
    GROQ,
    DEEPSEEK,
    OPENROUTER,
    CEREBRAS,
    OPENAI_CODEX,
    COPILOT_CLAUDE,
    COPILOT_RESPONSES,
    COPILOT_CHAT,
    GEMINI_CLI,
)
API_KEY_ENV: dict[str, str] = {p.provider: p.api_key_env for p in PROVIDERS if p.api_key_env}
BASE_URLS: dict[str, str] = {p.provider: p.base_url for p in PROVIDERS}
PROVIDER_APIS: dict[str, str] = {p.provider: p.api for p in PROVIDERS}


@cache
def _all() -> tuple[Model, ...]:
    return tuple(model for rows in PROVIDERS for model in rows.models())


def builtin_models() -> list[Model]:
    """Every built-in model, grouped by provider in catalogue order (a new list each call)."""
    return list(_all())


def find_model(provider: str, model_id: str) -> Model | None:
    """The built-in model ``provider``/``model_id``, or None."""
    for model in _all():
        if model.provider == provider and model.id == model_id:
            return model
    return None
