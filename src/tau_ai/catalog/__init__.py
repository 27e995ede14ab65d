"""The built-in model catalogue: every current model of the providers Tau knows (plain data).

Two sources, merged on first use: hand-written rows (``anthropic.py``, ``openai.py``, ...; their
values were checked against the providers' published lists) and ``generated.json``, written by
``scripts/regenerate_catalog.py`` from the public model facts of ``@mariozechner/pi-ai``.
Hand-written rows win: a model both have keeps its hand-written values, and the generated
models of a hand-written provider take the base URL, headers and compat of the hand-written
group speaking their API (Copilot's editor headers, its bearer auth for Claude).

Nothing is read at import: ``builtin_models()`` loads the generated file once, when a model is
first resolved or listed. A user's models.json can override any value (``tau_ai.models_config``).
``API_KEY_ENV`` only names the variable the app may read; nothing here reads the environment.
"""

from __future__ import annotations

from functools import cache

from tau_ai.catalog.anthropic import ANTHROPIC
from tau_ai.catalog.env_keys import GENERATED_KEY_ENV
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
from tau_ai.catalog.vertex_anthropic import VERTEX_ANTHROPIC
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
    VERTEX_ANTHROPIC,
)
API_KEY_ENV: dict[str, str] = GENERATED_KEY_ENV | {
    p.provider: p.api_key_env for p in PROVIDERS if p.api_key_env
}
BASE_URLS: dict[str, str] = {p.provider: p.base_url for p in PROVIDERS}
PROVIDER_APIS: dict[str, str] = {p.provider: p.api for p in PROVIDERS}


@cache
def _all() -> tuple[Model, ...]:
    from tau_ai.catalog.generated import generated_models

    written = [model for rows in PROVIDERS for model in rows.models()]
    taken = {(m.provider, m.id) for m in written}
    extra = generated_models(skip=taken, providers=PROVIDERS)
    return (*written, *extra)


def builtin_models() -> list[Model]:
    """Every built-in model, hand-written providers first, then the generated ones by provider
    name (a new list each call)."""
    return list(_all())


@cache
def _index() -> dict[tuple[str, str], Model]:
    return {(m.provider, m.id): m for m in _all()}


def find_model(provider: str, model_id: str) -> Model | None:
    """The built-in model ``provider``/``model_id``, or None."""
    return _index().get((provider, model_id))
