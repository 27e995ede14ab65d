"""models.json content -> Model objects: custom providers, proxies, overrides, clear errors."""

from __future__ import annotations

from typing import Any

from tau_ai.catalog import builtin_models, find_model
from tau_ai.model import ModelCost
from tau_ai.models_config import load_models_config

LOCAL = {
    "providers": {
        "ollama": {
            "baseUrl": "http://localhost:11434/v1",
            "api": "openai-completions",
            "apiKey": "ollama",
            "compat": {"supportsDeveloperRole": False},
            "models": [
                {"id": "qwen3-coder:30b", "name": "Qwen3 Coder", "contextWindow": 65536, "reasoning": True},
                {"id": "llava", "input": ["text", "image"], "cost": {"input": 0.5}},
            ],
        }
    }
}


def test_a_custom_provider_gets_its_models_with_pis_defaults() -> None:
    config = load_models_config(LOCAL)
    assert config.errors == []
    qwen, llava = config.models
    assert (qwen.provider, qwen.api, qwen.base_url) == (
        "ollama",
        "openai-completions",
        "http://localhost:11434/v1",
    )
    assert (qwen.name, qwen.context_window, qwen.max_tokens, qwen.reasoning) == (
        "Qwen3 Coder",
        65536,
        16384,
        True,
    )
    assert qwen.compat == {"supportsDeveloperRole": False}
    assert llava.supports_images and llava.cost == ModelCost(input=0.5)
    assert config.providers["ollama"].api_key == "ollama"


def test_naming_a_builtin_provider_proxies_its_models_and_keeps_the_rest() -> None:
    data = {
        "providers": {"anthropic": {"baseUrl": "https://proxy.example/anthropic", "headers": {"x-team": "a"}}}
    }
    builtins = builtin_models()
    config = load_models_config(data, builtins)
    assert config.errors == []
    assert len(config.models) == len(builtins)
    claude = [m for m in config.models if m.provider == "anthropic"]
    assert claude and all(m.base_url == "https://proxy.example/anthropic" for m in claude)
    assert all(m.headers == {"x-team": "a"} for m in claude)
    assert next(m for m in config.models if m.provider == "openai").base_url == "https://api.openai.com/v1"


def test_models_upsert_by_id_and_overrides_patch_builtins() -> None:
    data = {
        "providers": {
            "openai": {
                "models": [{"id": "gpt-5", "contextWindow": 272000}, {"id": "my-finetune", "name": "Mine"}],
                "modelOverrides": {"gpt-5-mini": {"cost": {"output": 1.0}, "maxTokens": 64000}},
            }
        }
    }
    builtins = builtin_models()
    config = load_models_config(data, builtins)
    assert config.errors == []
    by_id = {m.id: m for m in config.models if m.provider == "openai"}
    assert by_id["gpt-5"].context_window == 272000
    assert by_id["gpt-5"].cost == find_model("openai", "gpt-5").cost  # type: ignore[union-attr]
    assert by_id["my-finetune"].api == "openai-responses" and by_id["my-finetune"].name == "Mine"
    mini = by_id["gpt-5-mini"]
    assert (mini.cost.output, mini.cost.input, mini.max_tokens) == (1.0, 0.25, 64000)
    assert len(config.models) == len(builtins) + 1


def test_bad_entries_are_reported_in_one_line_each_and_the_rest_still_loads() -> None:
    data: dict[str, Any] = {
        "providers": {
            "local": {
                "baseUrl": "http://127.0.0.1:8080/v1",
                "api": "openai-completions",
                "models": [
                    {"id": "good"},
                    {"name": "no id"},
                    {"id": "bad-window", "contextWindow": "big"},
                    {"id": "bad-input", "input": ["video"]},
                    "not an object",
                    {"id": "bad-cost", "cost": {"input": -1}},
                ],
            },
            "weird": {"api": "carrier-pigeon", "models": [{"id": "x"}]},
            "nourl": {"api": "openai-completions", "models": [{"id": "y"}]},
            "empty": {"baseUrl": "http://x", "api": "openai-completions"},
            "openai": {"modelOverrides": {"gpt-99": {"name": "?"}}},
        }
    }
    config = load_models_config(data, builtin_models())
    assert [m.id for m in config.models if m.provider == "local"] == ["good"]
    assert config.errors == [
        "models.json: providers.local.models[1].id: every model needs an id",
        "models.json: providers.local.models[2].contextWindow: expected a positive integer, got 'big'",
        'models.json: providers.local.models[3].input: expected a list of "text" and "image", got [\'video\']',
        "models.json: providers.local.models[4]: expected an object, got a string",
        "models.json: providers.local.models[5].cost.input: expected a price of zero or more, got -1",
        "models.json: providers.weird.api: unknown API 'carrier-pigeon'; expected one of openai-completions, "
        "openai-responses, openai-codex-responses, anthropic-messages, google-generative-ai, google-gemini-cli, "
        "mistral-conversations, azure-openai-responses, google-vertex, anthropic-vertex, bedrock-converse-stream",
        "models.json: providers.nourl.models[0]: no baseUrl for 'y' (set it on the model or the provider)",
        "models.json: providers.empty: not a built-in provider, so it needs a models list",
        "models.json: providers.openai.modelOverrides.gpt-99: openai has no built-in model 'gpt-99'",
    ]
    assert all("\n" not in e for e in config.errors)


def test_a_file_that_is_not_an_object_keeps_the_builtins() -> None:
    builtins = builtin_models()
    config = load_models_config(["nope"], builtins)
    assert config.models == builtins
    assert config.errors == ["models.json: expected an object, got a list"]


def test_an_entry_with_several_problems_is_one_line_naming_the_first_as_written() -> None:
    entry = {"id": "m", "maxTokens": 0, "reasoning": "yes", "input": ["video"]}
    data = {"providers": {"local": {"baseUrl": "http://x", "api": "openai-completions", "models": [entry]}}}
    config = load_models_config(data)
    assert config.errors == [
        "models.json: providers.local.models[0].maxTokens: expected a positive integer, got 0"
    ]
    assert config.models == []
