"""The built-in catalogue is consistent data."""

from __future__ import annotations

from tau_ai.catalog import API_KEY_ENV, builtin_models, find_model
from tau_ai.models_config import API_NAMES


def test_every_model_is_complete_and_unique() -> None:
    models = builtin_models()
    assert len({(m.provider, m.id) for m in models}) == len(models)
    for m in models:
        assert m.api in API_NAMES, m
        assert m.base_url.startswith("https://"), m
        assert m.name and m.context_window >= 8_192 and 0 < m.max_tokens <= m.context_window, m
        assert min(m.cost.input, m.cost.output, m.cost.cache_read, m.cost.cache_write) >= 0, m
        assert m.cost.cache_read <= m.cost.input, m


def test_the_main_providers_are_all_there_with_their_key_variables() -> None:
    providers = {m.provider for m in builtin_models()}
    expected = {
        "openai",
        "anthropic",
        "google",
        "mistral",
        "xai",
        "groq",
        "deepseek",
        "openrouter",
        "cerebras",
        "openai-codex",
        "github-copilot",
        "google-gemini-cli",
    }
    assert providers == expected
    assert API_KEY_ENV["google"] == "GEMINI_API_KEY" and API_KEY_ENV["anthropic"] == "ANTHROPIC_API_KEY"


def test_lookup_by_provider_and_id() -> None:
    sonnet = find_model("anthropic", "claude-sonnet-4-5")
    assert sonnet is not None and sonnet.reasoning and sonnet.supports_images
    assert (sonnet.cost.input, sonnet.cost.output) == (3.0, 15.0)
    assert find_model("anthropic", "gpt-5") is None
    assert builtin_models() is not builtin_models()  # callers may mutate their copy
