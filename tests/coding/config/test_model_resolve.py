"""Model resolution: exact, provider-scoped, fuzzy, thinking suffix, and helpful errors."""

from __future__ import annotations

import pytest

from tau_ai.model import Model
from tau_coding.config.model_resolve import ModelNotFoundError, resolve_model

MODELS = [
    Model("gpt-5", "openai-responses", "openai", "https://api.openai.com/v1", name="GPT-5"),
    Model("gpt-5-mini", "openai-responses", "openai", "https://api.openai.com/v1", name="GPT-5 mini"),
    Model(
        "claude-sonnet-4-5",
        "anthropic-messages",
        "anthropic",
        "https://api.anthropic.com",
        name="Claude Sonnet 4.5",
    ),
    Model("claude-sonnet-4-5-20250929", "anthropic-messages", "anthropic", "https://api.anthropic.com"),
    Model("anthropic/claude-sonnet-4.5", "openai-completions", "openrouter", "https://openrouter.ai/api/v1"),
    Model("llama3:8b", "openai-completions", "ollama", "http://localhost:11434/v1"),
]


@pytest.mark.parametrize(
    ("spec", "expected", "level"),
    [
        ("gpt-5", "openai/gpt-5", None),
        ("openai/gpt-5-mini", "openai/gpt-5-mini", None),
        ("gpt-5:high", "openai/gpt-5", "high"),
        ("anthropic/claude-sonnet-4-5:low", "anthropic/claude-sonnet-4-5", "low"),
        ("openrouter/anthropic/claude-sonnet-4.5", "openrouter/anthropic/claude-sonnet-4.5", None),
        ("llama3:8b", "ollama/llama3:8b", None),
        ("sonnet", "anthropic/claude-sonnet-4-5", None),
        ("GPT-5 MINI", "openai/gpt-5-mini", None),
    ],
)
def test_specs_resolve(spec: str, expected: str, level: str | None) -> None:
    resolved = resolve_model(spec, MODELS, default_provider="anthropic")
    assert f"{resolved.model.provider}/{resolved.model.id}" == expected
    assert resolved.thinking_level == level


def test_default_provider_wins_a_tie() -> None:
    assert resolve_model("sonnet", MODELS, default_provider="openrouter").model.provider == "openrouter"


def test_unknown_model_lists_close_matches_in_one_line() -> None:
    with pytest.raises(ModelNotFoundError) as info:
        resolve_model("gtp-5", MODELS)
    message = str(info.value)
    assert message.startswith("unknown model 'gtp-5'; did you mean openai/gpt-5") and "\n" not in message


def test_nothing_close_points_at_list_models() -> None:
    with pytest.raises(ModelNotFoundError, match="tau --list-models"):
        resolve_model("zzzzzz", MODELS)
