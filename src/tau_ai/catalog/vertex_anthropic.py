"""Anthropic's Claude models on Google Vertex AI (rawPredict). Prices: US dollars per million tokens.

Vertex names the models with an ``@`` version; prices are Anthropic's list prices (global
endpoint). There is no API key: Vertex signs in with Google credentials (``api_key_env`` empty).
"""

from __future__ import annotations

from tau_ai.catalog.rows import ProviderRows

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
VERTEX_ANTHROPIC = ProviderRows(
    provider="google-vertex-anthropic",
    api="anthropic-vertex",
    base_url="https://{location}-aiplatform.googleapis.com",
    api_key_env="",
    rows=(
        (
            "claude-opus-4-5@20251101",
            "Claude Opus 4.5 (Vertex)",
            True,
            True,
            200_000,
            64_000,
            5.0,
            25.0,
            0.5,
            6.25,
        ),
        (
            "claude-sonnet-4-5@20250929",
            "Claude Sonnet 4.5 (Vertex)",
            True,
            True,
            200_000,
            64_000,
            3.0,
            15.0,
            0.3,
            3.75,
        ),
        (
            "claude-haiku-4-5@20251001",
            "Claude Haiku 4.5 (Vertex)",
            True,
            True,
            200_000,
            64_000,
            1.0,
            5.0,
            0.1,
            1.25,
        ),
        (
            "claude-opus-4-1@20250805",
            "Claude Opus 4.1 (Vertex)",
            True,
            True,
            200_000,
            32_000,
            15.0,
            75.0,
            1.5,
            18.75,
        ),
        (
            "claude-sonnet-4@20250514",
            "Claude Sonnet 4 (Vertex)",
            True,
            True,
            200_000,
            64_000,
            3.0,
            15.0,
            0.3,
            3.75,
        ),
    ),
)
