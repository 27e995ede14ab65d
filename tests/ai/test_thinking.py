"""Thinking levels clamped per model and mapped to each API's words."""

from __future__ import annotations

import pytest

from tau_ai.model import Model
from tau_ai.thinking import (
    clamp_level,
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
