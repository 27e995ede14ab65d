"""Thinking levels clamped per model and mapped to each API's words."""

from __future__ import annotations

import pytest

from tau_ai.model import Model
from tau_ai.thinking import (
    anthropic_effort,
    clamp_level,
    google_level,
    max_tokens_for,
    openai_effort,
    parse_level,
    thinking_budget,
    uses_adaptive_thinking,
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


@pytest.mark.parametrize("model_id", ["gpt-5.2", "gpt-5.4-codex", "claude-opus-4-6", "claude-opus-4.6"])
def test_xhigh_is_kept_where_supported(model_id: str) -> None:
    assert clamp_level(model(model_id), "xhigh") == "xhigh"


@pytest.mark.parametrize("model_id", ["gpt-5", "gpt-5.1", "claude-sonnet-4-5", "gemini-2.5-pro", "o3"])
def test_xhigh_is_clamped_to_high_elsewhere(model_id: str) -> None:
    assert clamp_level(model(model_id), "xhigh") == "high"


def test_compat_flag_overrides_xhigh_detection() -> None:
    assert clamp_level(model("my-local", supportsXhigh=True), "xhigh") == "xhigh"
    assert clamp_level(model("gpt-5.2", supportsXhigh=False), "xhigh") == "high"


def test_budgets_and_output_room() -> None:
    m = model("claude-sonnet-4-5", max_tokens=64_000)
    assert [thinking_budget(m, lv) for lv in ("off", "minimal", "low", "medium", "high")] == [
        0,
        1024,
        2048,
        8192,
        16384,
    ]
    assert thinking_budget(m, "high", {"high": 20_000}) == 20_000
    assert max_tokens_for(m, None, 16384) == (48384, 16384)
    assert max_tokens_for(model("small", max_tokens=8192), None, 16384) == (8192, 7168)
    assert max_tokens_for(m, 1000, 0) == (1000, 0)


def test_effort_words() -> None:
    assert openai_effort(model("gpt-5"), "minimal") == "minimal"
    assert openai_effort(model("gpt-5"), "off") is None
    assert openai_effort(model("grok", reasoningEffortMap={"high": "max"}), "high") == "max"
    opus = model("claude-opus-4-6")
    assert uses_adaptive_thinking(opus) and not uses_adaptive_thinking(model("claude-sonnet-4-5"))
    assert anthropic_effort(opus, "xhigh") == "max"
    assert anthropic_effort(opus, "minimal") == "low"
    assert google_level(model("gemini-3-pro-preview"), "medium") == "HIGH"
    assert google_level(model("gemini-3-flash-preview"), "minimal") == "MINIMAL"
    assert google_level(model("gemini-2.5-pro"), "high") is None


def test_parse_level_rejects_unknown_words_in_one_line() -> None:
    assert parse_level(" High ") == "high"
    with pytest.raises(ValueError, match="unknown thinking level 'extreme'"):
        parse_level("extreme")
