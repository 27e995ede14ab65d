"""Anthropic's Claude models (Messages API). Prices: US dollars per million tokens."""

from __future__ import annotations

from tau_ai.catalog.rows import ProviderRows

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
ANTHROPIC = ProviderRows(
    provider="anthropic",
    api="anthropic-messages",
    base_url="https://api.anthropic.com",
    api_key_env="ANTHROPIC_API_KEY",
    rows=(
        ("claude-opus-4-6", "Claude Opus 4.6", True, True, 200_000, 128_000, 5.0, 25.0, 0.5, 6.25),
        ("claude-sonnet-4-6", "Claude Sonnet 4.6", True, True, 200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
        ("claude-opus-4-5", "Claude Opus 4.5", True, True, 200_000, 64_000, 5.0, 25.0, 0.5, 6.25),
        (
            "claude-opus-4-5-20251101",
            "Claude Opus 4.5 (20251101)",
            True,
            True,
            200_000,
            64_000,
            5.0,
            25.0,
            0.5,
            6.25,
        ),
        ("claude-sonnet-4-5", "Claude Sonnet 4.5", True, True, 200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
        (
            "claude-sonnet-4-5-20250929",
            "Claude Sonnet 4.5 (20250929)",
            True,
            True,
            200_000,
            64_000,
            3.0,
            15.0,
            0.3,
            3.75,
        ),
        ("claude-haiku-4-5", "Claude Haiku 4.5", True, True, 200_000, 64_000, 1.0, 5.0, 0.1, 1.25),
        (
            "claude-haiku-4-5-20251001",
            "Claude Haiku 4.5 (20251001)",
            True,
            True,
            200_000,
            64_000,
            1.0,
            5.0,
            0.1,
            1.25,
        ),
        ("claude-opus-4-1", "Claude Opus 4.1", True, True, 200_000, 32_000, 15.0, 75.0, 1.5, 18.75),
        ("claude-sonnet-4-0", "Claude Sonnet 4", True, True, 200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
        ("claude-3-7-sonnet-latest", "Claude Sonnet 3.7", True, True, 200_000, 64_000, 3.0, 15.0, 0.3, 3.75),
        ("claude-3-5-haiku-latest", "Claude Haiku 3.5", False, True, 200_000, 8_192, 0.8, 4.0, 0.08, 1.0),
    ),
)
