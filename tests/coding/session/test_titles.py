"""Session titles: which model writes them, how a reply or a prompt becomes one."""

from __future__ import annotations

import pytest

from tau_agent.testing import FakeProvider, reply, text
from tau_ai.model import Model, ModelCost
from tau_coding.session.titles import (
    TITLE_CHARS,
    TitleError,
    clean_title,
    model_title,
    small_model,
    title_from_prompt,
    title_request,
)


def _model(provider: str, model_id: str, price: float = 0.0) -> Model:
    return Model(model_id, "openai-completions", provider, "http://127.0.0.1", cost=ModelCost(price, price))


def test_the_providers_known_small_model_is_chosen() -> None:
    opus, haiku = _model("anthropic", "claude-opus-4-5", 15), _model("anthropic", "claude-haiku-4-5", 1)
    other = _model("openai", "gpt-4.1-mini", 0.1)
    assert small_model(opus, [opus, other, haiku]) is haiku
    assert small_model(haiku, [haiku]) is haiku  # already on it


def test_otherwise_the_cheapest_cheaper_model_of_the_same_provider() -> None:
    big, mid, small = _model("local", "big", 10), _model("local", "mid", 5), _model("local", "small", 1)
    elsewhere = _model("cloud", "free", 0)
    assert small_model(big, [big, mid, small, elsewhere]) is small
    assert small_model(small, [big, mid, small]) is None  # nothing cheaper: the prompt titles it
    free = _model("local", "m")
    assert small_model(free, [free, _model("local", "m2")]) is None  # unpriced local models


def test_a_prompt_title_is_its_first_line_shortened_at_a_word() -> None:
    assert title_from_prompt("\n\n  Fix   the parser\nso that tabs work") == "Fix the parser"
    long = title_from_prompt("word " * 40)
    assert long is not None and len(long) <= TITLE_CHARS and long.endswith("…") and "wor…" not in long
    assert title_from_prompt(" \n\t") is None
    assert title_from_prompt("evil \x1b]2;x\x07 title") == "evil ]2;x title"


@pytest.mark.parametrize(
    ("reply_text", "title"),
    [
        ("Parser tab handling", "Parser tab handling"),
        ('"Parser tab handling."', "Parser tab handling"),
        ("Title: Parser tab handling\nBecause the user asked…", "Parser tab handling"),
        ("\n# **Fix tabs**\n", "Fix tabs"),
        ("   \n  ", None),
    ],
)
def test_a_models_reply_becomes_one_clean_line(reply_text: str, title: str | None) -> None:
    assert clean_title(reply_text) == title


def test_the_request_carries_the_first_exchange_cut_short() -> None:
    asked = title_request("p" * 5000, "the answer")
    assert "p" * 2000 in asked and "p" * 2001 not in asked and "the answer" in asked


async def test_the_model_is_asked_once_without_tools_and_briefly() -> None:
    provider = FakeProvider([reply(text("Parser tab handling"))])
    assert await model_title(provider, "Why do tabs break the parser?", "Because…") == "Parser tab handling"
    [context] = provider.contexts
    [options] = provider._recorder.options
    assert not context.tools
    assert "Why do tabs break the parser?" in str(context.messages[0].content)
    assert options.max_tokens is not None and options.max_tokens <= 64 and options.thinking_level == "off"


async def test_an_empty_reply_is_a_title_error() -> None:
    with pytest.raises(TitleError):
        await model_title(FakeProvider([reply(text("  "))]), "p", "a")
