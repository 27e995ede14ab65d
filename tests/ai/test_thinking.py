"""Thinking levels clamped per model and mapped to each API's words."""

from __future__ import annotations

import pytest

from tau_ai.model import Model
from tau_ai.thinking import (
    clamp_level,
    claude_effort,
)


def model(model_id: str, *, reasoning: bool = True, max_tokens: int = 64_000, **compat: object) -> Model:
    return Model(
        id=model_id,
        api="x",
        provider="p",
        base_url="",
        reasoning=reasoning,
        max_tokens=max_tokens,
        compat=compat,
    )


def test_a_model_without_reasoning_is_always_off() -> None:
    assert clamp_level(model("gpt-4o", reasoning=False), "high") == "off"


@pytest.mark.parametrize(
    "model_id",
    ["gpt-5.2", "gpt-5.4-codex", "claude-opus-4-6", "claude-opus-4.6", "us.anthropic.claude-opus-4-7"],
)
def test_xhigh_is_kept_where_supported(model_id: str) -> None:
    assert clamp_level(model(model_id), "xhigh") == "xhigh"


@pytest.mark.parametrize("model_id", ["gpt-5", "gpt-5.1", "claude-sonnet-4-5", "gemini-2.5-pro", "o3"])
def test_xhigh_is_clamped_to_high_elsewhere(model_id: str) -> None:
    assert clamp_level(model(model_id), "xhigh") == "high"


def test_compat_flag_overrides_xhigh_detection() -> None:
    assert clamp_level(model("my-local", supportsXhigh=True), "xhigh") == "xhigh"
    assert clamp_level(model("gpt-5.2", supportsXhigh=False), "xhigh") == "high"


@pytest.mark.parametrize(
    ("model_id", "name", "effort"),
    [
        ("claude-opus-4-6", "", "max"),
        ("global.anthropic.claude-opus-4-6-v1", "Claude Opus 4.6", "max"),
        ("claude-opus-4-7", "", "xhigh"),
        ("arn:aws:bedrock:us-east-1:1:application-inference-profile/x", "Claude Opus 4.7", "xhigh"),
    ],
)
def test_claudes_level_above_high_is_max_on_opus_4_6_and_xhigh_on_4_7(
    model_id: str, name: str, effort: str
) -> None:
    assert claude_effort(Model(id=model_id, api="x", provider="p", base_url="", name=name), "xhigh") == effort


def test_claudes_lower_levels_keep_their_words_and_minimal_is_low() -> None:
    opus = model("claude-opus-4-7")
    assert [claude_effort(opus, level) for level in ("minimal", "low", "medium", "high")] == [
        "low",
        "low",
        "medium",
        "high",
    ]
