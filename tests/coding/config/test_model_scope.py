"""``--models`` patterns (Pi's syntax): globs, ids, fuzzy names, each with an optional ``:level``."""

from __future__ import annotations

from tau_ai.model import Model
from tau_coding.config.model_scope import resolve_model_scope, split_patterns

MODELS = [
    Model("claude-sonnet-4-5", "Claude Sonnet 4.5", "anthropic", "https://a", reasoning=True),
    Model("claude-haiku-4-5", "Claude Haiku 4.5", "anthropic", "https://a", reasoning=True),
    Model("gpt-5.1", "GPT-5.1", "openai", "https://o", reasoning=True),
    Model("llama3:8b", "Llama 3 8B", "ollama", "http://localhost"),
]


def _scope(text: str) -> list[tuple[str, str | None]]:
    scoped, _ = resolve_model_scope(split_patterns(text), MODELS)
    return [(s.label, s.thinking_level) for s in scoped]


def test_fuzzy_names_take_a_thinking_level_each() -> None:
    assert _scope("sonnet:high, haiku:low") == [
        ("anthropic/claude-sonnet-4-5", "high"),
        ("anthropic/claude-haiku-4-5", "low"),
    ]


def test_globs_match_provider_and_id_without_case_and_take_a_level() -> None:
    assert _scope("ANTHROPIC/*:medium") == [
        ("anthropic/claude-sonnet-4-5", "medium"),
        ("anthropic/claude-haiku-4-5", "medium"),
    ]
    assert _scope("*haiku*") == [("anthropic/claude-haiku-4-5", None)]


def test_a_colon_that_is_not_a_level_belongs_to_the_id() -> None:
    assert _scope("ollama/llama3:8b,gpt-5.1:xhigh") == [
        ("ollama/llama3:8b", None),
        ("openai/gpt-5.1", "xhigh"),
    ]


def test_each_model_once_the_first_pattern_wins_and_misses_are_warned() -> None:
    scoped, warnings = resolve_model_scope(
        ["haiku:low", "anthropic/*:high", "gemini-*", "nothing-like-it"], MODELS
    )
    assert [(s.label, s.thinking_level) for s in scoped] == [
        ("anthropic/claude-haiku-4-5", "low"),
        ("anthropic/claude-sonnet-4-5", "high"),
    ]
    assert warnings == ['no models match pattern "gemini-*"', 'no models match pattern "nothing-like-it"']


def test_blank_patterns_are_dropped() -> None:
    assert split_patterns(" a , ,b:high,") == ["a", "b:high"]
