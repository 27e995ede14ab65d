"""Context-overflow detection: each provider's wording, rate limits excluded, silent overflow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_agent.messages import AssistantMessage, Usage
from tau_ai.overflow import is_context_overflow, is_overflow_text, stated_context_limit

DATA = Path(__file__).resolve().parent.parent / "data" / "providers"

# The providers' overflow wordings (as reported by users and in the providers' docs); no
# recording of an overflow exists in the fixture set (see tests/data/providers/README.md).
OVERFLOWS = {
    "anthropic": "HTTP 400: prompt is too long: 208310 tokens > 200000 maximum",
    "bedrock": "HTTP 400: input is too long for requested model",
    "openai-chat": "HTTP 400: This model's maximum context length is 128000 tokens. However, your messages "
    "resulted in 130532 tokens. Please reduce the length of the messages.",
    "openai-code": "HTTP 400: context_length_exceeded",
    "openai-responses": "HTTP 400: Your input exceeds the context window of this model. Please adjust your input.",
    "google": "HTTP 400: The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    "xai": "HTTP 400: This model's maximum prompt length is 131072 but the request contains 140000 tokens.",
    "groq": "HTTP 400: Please reduce the length of the messages or completion.",
    "openrouter": "HTTP 400: This endpoint's maximum context length is 163840 tokens. However, you requested "
    "about 170000 tokens.",
    "deepseek": "HTTP 400: This model's maximum context length is 65536 tokens. However, you requested 70000 tokens "
    "(70000 in the messages, 0 in the completion).",
    "mistral": "HTTP 400: Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum "
    "context length",
    "llama.cpp": "HTTP 400: the request exceeds the available context size, try increasing it",
    "lmstudio": "HTTP 400: Trying to keep the first 111490 tokens when context the overflows. However, the model is "
    "loaded with context length of only 32768 tokens, which is not enough.",
    "lmstudio-nkeep": "Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)",
    "ollama": "HTTP 500: input exceeds context length",
    "vllm": "HTTP 400: The prompt (total length 25938) is too long to fit into the model (context length 4096).",
    "copilot": "HTTP 400: prompt token count of 140000 exceeds the limit of 128000",
    "minimax": "HTTP 400: context window exceeds limit",
    "kimi": "HTTP 400: Invalid request: exceeded model token limit: 262144",
    "zai": "model_context_window_exceeded",
    "cerebras": "HTTP 413 (no body)",
    "cerebras-400": "HTTP 400 (no body)",
}

# The window each wording states, where it states one.
STATED = {
    "anthropic": 200000,
    "openai-chat": 128000,
    "google": 1048576,
    "xai": 131072,
    "openrouter": 163840,
    "deepseek": 65536,
    "mistral": 32768,
    "lmstudio": 32768,
    "lmstudio-nkeep": 7424,
    "vllm": 4096,
    "copilot": 128000,
    "kimi": 262144,
}

NOT_OVERFLOWS = [
    "HTTP 429: Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Requested 45000.",
    "HTTP 429: This request would exceed the rate limit for your organization of 400,000 input tokens per minute.",
    "HTTP 429: You exceeded your current quota, please check your plan and billing details.",
    "HTTP 401: invalid x-api-key",
    "HTTP 400: Unsupported parameter: 'stop' is not supported with this model.",
    "HTTP 500 (no body)",
    "Connection error: ReadError",
]


def failed(text: str) -> AssistantMessage:
    return AssistantMessage(stop_reason="error", error_message=text)


@pytest.mark.parametrize("provider", sorted(OVERFLOWS))
def test_each_providers_overflow_wording_is_recognised(provider: str) -> None:
    assert is_context_overflow(failed(OVERFLOWS[provider]))


@pytest.mark.parametrize("text", NOT_OVERFLOWS)
def test_rate_limits_and_other_errors_are_not_overflows(text: str) -> None:
    assert not is_overflow_text(text)


def test_recorded_error_bodies_are_not_overflows() -> None:
    for body in DATA.glob("*/error_*"):
        if body.name.endswith((".meta.json", ".request.json")):
            continue
        data = json.loads(body.read_bytes())
        message = data["error"]["message"]
        assert not is_overflow_text(f"HTTP 400: {message}"), body.name


def test_an_overflow_wording_in_a_successful_reply_is_ignored() -> None:
    message = AssistantMessage(stop_reason="stop", error_message=OVERFLOWS["anthropic"])
    assert not is_context_overflow(message)


def test_silent_overflow_counts_input_and_cache_reads_against_the_window() -> None:
    reply = AssistantMessage(stop_reason="stop", usage=Usage(input=90_000, cache_read=40_000, output=10))
    assert is_context_overflow(reply, 128_000)
    assert not is_context_overflow(reply, 200_000)
    assert not is_context_overflow(reply, None)


def test_an_aborted_reply_is_never_an_overflow() -> None:
    message = AssistantMessage(stop_reason="aborted", error_message=OVERFLOWS["anthropic"])
    assert not is_context_overflow(message, 10)


@pytest.mark.parametrize("provider", sorted(OVERFLOWS))
def test_the_window_an_overflow_states_is_read_from_its_wording(provider: str) -> None:
    assert stated_context_limit(OVERFLOWS[provider]) == STATED.get(provider)


def test_llama_cpp_states_its_window_in_the_error_body() -> None:
    body = (
        'HTTP 400: {"error":{"code":400,"message":"the request exceeds the available context size, '
        'try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}'
    )
    assert stated_context_limit(body) == 8192


@pytest.mark.parametrize("text", NOT_OVERFLOWS)
def test_errors_that_are_not_overflows_state_no_window(text: str) -> None:
    assert stated_context_limit(text) is None
