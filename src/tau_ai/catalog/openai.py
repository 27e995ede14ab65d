"""OpenAI's models (Responses API). Prices: US dollars per million tokens."""

from __future__ import annotations

from tau_ai.catalog.rows import ProviderRows

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
OPENAI = ProviderRows(
    provider="openai",
    api="openai-responses",
    base_url="https://api.openai.com/v1",
    api_key_env="OPENAI_API_KEY",
    rows=(
        ("gpt-5.2", "GPT-5.2", True, True, 400_000, 128_000, 1.75, 14.0, 0.175, 0.0),
        ("gpt-5.2-codex", "GPT-5.2 Codex", True, True, 400_000, 128_000, 1.75, 14.0, 0.175, 0.0),
        ("gpt-5.2-pro", "GPT-5.2 Pro", True, True, 400_000, 128_000, 21.0, 168.0, 0.0, 0.0),
        ("gpt-5.1", "GPT-5.1", True, True, 400_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5.1-codex", "GPT-5.1 Codex", True, True, 400_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5.1-codex-max", "GPT-5.1 Codex Max", True, True, 400_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5.1-codex-mini", "GPT-5.1 Codex mini", True, True, 400_000, 128_000, 0.25, 2.0, 0.025, 0.0),
        ("gpt-5", "GPT-5", True, True, 400_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5-codex", "GPT-5 Codex", True, True, 400_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5-mini", "GPT-5 mini", True, True, 400_000, 128_000, 0.25, 2.0, 0.025, 0.0),
        ("gpt-5-nano", "GPT-5 nano", True, True, 400_000, 128_000, 0.05, 0.4, 0.005, 0.0),
        ("gpt-4.1", "GPT-4.1", False, True, 1_047_576, 32_768, 2.0, 8.0, 0.5, 0.0),
        ("gpt-4.1-mini", "GPT-4.1 mini", False, True, 1_047_576, 32_768, 0.4, 1.6, 0.1, 0.0),
        ("gpt-4.1-nano", "GPT-4.1 nano", False, True, 1_047_576, 32_768, 0.1, 0.4, 0.03, 0.0),
        ("gpt-4o", "GPT-4o", False, True, 128_000, 16_384, 2.5, 10.0, 1.25, 0.0),
        ("gpt-4o-mini", "GPT-4o mini", False, True, 128_000, 16_384, 0.15, 0.6, 0.08, 0.0),
        ("o3", "o3", True, True, 200_000, 100_000, 2.0, 8.0, 0.5, 0.0),
        ("o3-pro", "o3-pro", True, True, 200_000, 100_000, 20.0, 80.0, 0.0, 0.0),
        ("o4-mini", "o4-mini", True, True, 200_000, 100_000, 1.1, 4.4, 0.28, 0.0),
    ),
)
