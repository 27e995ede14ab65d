"""Google's Gemini models (Generative Language API). Prices: US dollars per million tokens
(the lower tier where Google prices long prompts higher)."""

from __future__ import annotations

from tau_ai.catalog.rows import ProviderRows

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
GOOGLE = ProviderRows(
    provider="google",
    api="google-generative-ai",
    base_url="https://generativelanguage.googleapis.com/v1beta",
    api_key_env="GEMINI_API_KEY",
    rows=(
        ("gemini-3-pro-preview", "Gemini 3 Pro Preview", True, True, 1_000_000, 64_000, 2.0, 12.0, 0.2, 0.0),
        (
            "gemini-3-flash-preview",
            "Gemini 3 Flash Preview",
            True,
            True,
            1_048_576,
            65_536,
            0.5,
            3.0,
            0.05,
            0.0,
        ),
        ("gemini-2.5-pro", "Gemini 2.5 Pro", True, True, 1_048_576, 65_536, 1.25, 10.0, 0.31, 0.0),
        ("gemini-2.5-flash", "Gemini 2.5 Flash", True, True, 1_048_576, 65_536, 0.3, 2.5, 0.075, 0.0),
        (
            "gemini-2.5-flash-lite",
            "Gemini 2.5 Flash Lite",
            True,
            True,
            1_048_576,
            65_536,
            0.1,
            0.4,
            0.025,
            0.0,
        ),
        ("gemini-flash-latest", "Gemini Flash Latest", True, True, 1_048_576, 65_536, 0.3, 2.5, 0.075, 0.0),
        (
            "gemini-flash-lite-latest",
            "Gemini Flash-Lite Latest",
            True,
            True,
            1_048_576,
            65_536,
            0.1,
            0.4,
            0.025,
            0.0,
        ),
        ("gemini-2.0-flash", "Gemini 2.0 Flash", False, True, 1_048_576, 8_192, 0.1, 0.4, 0.025, 0.0),
    ),
)
