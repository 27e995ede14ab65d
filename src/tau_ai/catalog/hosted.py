"""Mistral, xAI, Groq, DeepSeek and Cerebras models. Prices: US dollars per million tokens."""

from __future__ import annotations

from tau_ai.catalog.rows import ProviderRows

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
MISTRAL = ProviderRows(
    provider="mistral",
    api="mistral-conversations",
    base_url="https://api.mistral.ai/v1",
    api_key_env="MISTRAL_API_KEY",
    rows=(
        ("mistral-large-latest", "Mistral Large 3", False, True, 262_144, 262_144, 0.5, 1.5, 0.0, 0.0),
        ("mistral-medium-latest", "Mistral Medium", False, True, 128_000, 16_384, 0.4, 2.0, 0.0, 0.0),
        ("mistral-small-latest", "Mistral Small", False, True, 128_000, 16_384, 0.1, 0.3, 0.0, 0.0),
        ("devstral-medium-latest", "Devstral 2", False, False, 262_144, 262_144, 0.4, 2.0, 0.0, 0.0),
        ("devstral-small-2507", "Devstral Small", False, False, 128_000, 128_000, 0.1, 0.3, 0.0, 0.0),
        ("codestral-latest", "Codestral", False, False, 256_000, 4_096, 0.3, 0.9, 0.0, 0.0),
        ("magistral-medium-latest", "Magistral Medium", True, False, 128_000, 16_384, 2.0, 5.0, 0.0, 0.0),
        ("magistral-small", "Magistral Small", True, False, 128_000, 128_000, 0.5, 1.5, 0.0, 0.0),
    ),
)

XAI = ProviderRows(
    provider="xai",
    api="openai-completions",
    base_url="https://api.x.ai/v1",
    api_key_env="XAI_API_KEY",
    rows=(
        ("grok-4", "Grok 4", True, False, 256_000, 64_000, 3.0, 15.0, 0.75, 0.0),
        ("grok-4-1-fast", "Grok 4.1 Fast", True, True, 2_000_000, 30_000, 0.2, 0.5, 0.05, 0.0),
        (
            "grok-4-1-fast-non-reasoning",
            "Grok 4.1 Fast (non-reasoning)",
            False,
            True,
            2_000_000,
            30_000,
            0.2,
            0.5,
            0.05,
            0.0,
        ),
        ("grok-4-fast", "Grok 4 Fast", True, True, 2_000_000, 30_000, 0.2, 0.5, 0.05, 0.0),
        ("grok-code-fast-1", "Grok Code Fast 1", True, False, 256_000, 10_000, 0.2, 1.5, 0.02, 0.0),
        ("grok-3-mini", "Grok 3 Mini", True, False, 131_072, 8_192, 0.3, 0.5, 0.075, 0.0),
        ("grok-3", "Grok 3", False, False, 131_072, 8_192, 3.0, 15.0, 0.75, 0.0),
    ),
)

GROQ = ProviderRows(
    provider="groq",
    api="openai-completions",
    base_url="https://api.groq.com/openai/v1",
    api_key_env="GROQ_API_KEY",
    rows=(
        ("openai/gpt-oss-120b", "GPT OSS 120B", True, False, 131_072, 65_536, 0.15, 0.6, 0.0, 0.0),
        ("openai/gpt-oss-20b", "GPT OSS 20B", True, False, 131_072, 65_536, 0.075, 0.3, 0.0, 0.0),
        (
            "moonshotai/kimi-k2-instruct-0905",
            "Kimi K2 Instruct 0905",
            False,
            False,
            262_144,
            16_384,
            1.0,
            3.0,
            0.0,
            0.0,
        ),
        ("qwen/qwen3-32b", "Qwen3 32B", True, False, 131_072, 16_384, 0.29, 0.59, 0.0, 0.0),
        (
            "llama-3.3-70b-versatile",
            "Llama 3.3 70B Versatile",
            False,
            False,
            131_072,
            32_768,
            0.59,
            0.79,
            0.0,
            0.0,
        ),
        (
            "llama-3.1-8b-instant",
            "Llama 3.1 8B Instant",
            False,
            False,
            131_072,
            131_072,
            0.05,
            0.08,
            0.0,
            0.0,
        ),
        (
            "meta-llama/llama-4-maverick-17b-128e-instruct",
            "Llama 4 Maverick 17B",
            False,
            True,
            131_072,
            8_192,
            0.2,
            0.6,
            0.0,
            0.0,
        ),
    ),
)

DEEPSEEK = ProviderRows(
    provider="deepseek",
    api="openai-completions",
    base_url="https://api.deepseek.com",
    api_key_env="DEEPSEEK_API_KEY",
    rows=(
        ("deepseek-chat", "DeepSeek V3.2 (chat)", False, False, 128_000, 8_192, 0.28, 0.42, 0.028, 0.0),
        (
            "deepseek-reasoner",
            "DeepSeek V3.2 (reasoner)",
            True,
            False,
            128_000,
            65_536,
            0.28,
            0.42,
            0.028,
            0.0,
        ),
    ),
)

CEREBRAS = ProviderRows(
    provider="cerebras",
    api="openai-completions",
    base_url="https://api.cerebras.ai/v1",
    api_key_env="CEREBRAS_API_KEY",
    rows=(
        ("gpt-oss-120b", "GPT OSS 120B", True, False, 131_072, 32_768, 0.25, 0.69, 0.0, 0.0),
        (
            "qwen-3-235b-a22b-instruct-2507",
            "Qwen 3 235B Instruct",
            False,
            False,
            131_000,
            32_000,
            0.6,
            1.2,
            0.0,
            0.0,
        ),
        ("zai-glm-4.7", "Z.AI GLM-4.7", False, False, 131_072, 40_000, 0.0, 0.0, 0.0, 0.0),
    ),
)
