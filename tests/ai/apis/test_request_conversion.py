"""Request building rules that the goldens show only by example."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tau_agent.content import ImageContent, TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis import MODULES, wire_api
from tau_ai.apis._shared import max_output_tokens
from tau_ai.apis.anthropic_messages.convert import tool_use_id
from tau_ai.apis.mistral import mistral_id
from tau_ai.apis.openai_completions import detect_compat, resolve_compat
from tau_ai.thinking import clamp_level as clamp_thinking
from tests.ai.apis.streams import model_for


def test_every_api_is_found_by_its_name_and_an_unknown_name_says_which_exist() -> None:
    for name in MODULES:
        assert wire_api(name).name == name
    with pytest.raises(KeyError, match="known: openai-completions"):
        wire_api("bedrock")


@pytest.mark.parametrize(
    ("url", "provider", "store", "field", "thinking"),
    [
        ("https://api.openai.com/v1", "openai", True, "max_completion_tokens", "openai"),
        ("https://openrouter.ai/api/v1", "", False, "max_completion_tokens", "openrouter"),
        ("https://api.z.ai/api/paas/v4", "", False, "max_tokens", "zai"),
        ("http://localhost:11434/v1", "", False, "max_tokens", "openai"),
        ("http://10.0.0.2:9000/v1", "vllm", False, "max_tokens", "qwen-chat-template"),
        ("https://my-proxy.example/v1", "custom", True, "max_completion_tokens", "openai"),
    ],
)
def test_compat_is_detected_from_base_url_or_provider(
    url: str, provider: str, store: bool, field: str, thinking: str
) -> None:
    compat = detect_compat(url, provider)
    assert (compat.supports_store, compat.max_tokens_field, compat.thinking_format) == (
        store,
        field,
        thinking,
    )


def test_model_compat_overrides_detection_and_ignores_bad_values() -> None:
    model = model_for(
        "openai-completions",
        base_url="https://api.groq.com/openai/v1",
        compat={
            "supportsDeveloperRole": True,
            "maxTokensField": "tokens_max",
            "supportsStore": "yes",
            "thinkingFormat": "qwen",
            "unknownFlag": 1,
        },
    )
    compat = resolve_compat(model)
    assert compat.supports_developer_role is True
    assert compat.max_tokens_field == "max_completion_tokens"  # invalid value ignored
    assert compat.supports_store is False  # non-boolean ignored
    assert compat.thinking_format == "qwen"


def test_thinking_is_clamped_per_model_and_max_tokens_follow_pi() -> None:
    plain = model_for("openai-completions", max_tokens=100_000)
    assert clamp_thinking(plain, "high") == "off"
    reasoning = replace(plain, reasoning=True)
    assert clamp_thinking(reasoning, "xhigh") == "high"
    assert clamp_thinking(replace(reasoning, id="gpt-5.2"), "xhigh") == "xhigh"
    assert max_output_tokens(plain, StreamOptions()) == 32_000
    assert max_output_tokens(replace(plain, max_tokens=8192), StreamOptions()) == 8192
    assert max_output_tokens(plain, StreamOptions(max_tokens=5)) == 5


def test_tool_call_ids_are_normalised_the_same_way_for_call_and_result() -> None:
    long_id = "call_abc|fc_" + "x" * 500
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", mistral_id(long_id))
    assert mistral_id(long_id) == mistral_id(long_id) != mistral_id(long_id + "y")
    assert mistral_id("aB3dE5gH7") == "aB3dE5gH7"
    assert re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", tool_use_id(long_id))
    assert tool_use_id("toolu_01A") == "toolu_01A"


def context_with_tools() -> Context:
    return Context(
        "sys",
        [
            UserMessage("go", timestamp=0),
            AssistantMessage([ToolCall("call_1|fc_1", "read", {"p": 1})], api="x", provider="y", model="z"),
            ToolResultMessage("call_1|fc_1", "read", [TextContent("out"), ImageContent("AAAA", "image/png")]),
            UserMessage("next", timestamp=0),
        ],
    )


def test_images_in_tool_results_follow_as_a_user_message_where_the_api_lacks_them() -> None:
    model = model_for("openai-completions", input=("text", "image"))
    body = (
        wire_api("openai-completions").build_request(model, context_with_tools(), StreamOptions(), None).body
    )
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "user", "user"]
    assert body["messages"][3]["tool_call_id"] == "call_1"
    assert body["messages"][4]["content"][1]["image_url"]["url"] == "data:image/png;base64,AAAA"


def test_images_are_left_out_for_a_text_only_model() -> None:
    model = model_for("anthropic-messages")
    context = Context("", [UserMessage([TextContent("see"), ImageContent("AAAA", "image/png")])])
    body = wire_api("anthropic-messages").build_request(model, context, StreamOptions(), "k").body
    assert "base64" not in str(body["messages"])
    assert "image omitted" in str(body["messages"])


def test_mistral_gets_an_assistant_turn_between_tool_results_and_user() -> None:
    model = model_for("mistral-conversations")
    body = (
        wire_api("mistral-conversations")
        .build_request(model, context_with_tools(), StreamOptions(), "k")
        .body
    )
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert body["messages"][2]["tool_calls"][0]["id"] == body["messages"][3]["tool_call_id"]


def test_google_key_is_a_header_never_in_the_url() -> None:
    model = model_for("google-generative-ai", base_url="https://generativelanguage.googleapis.com/v1beta")
    spec = wire_api("google-generative-ai").build_request(
        model, Context("", [UserMessage("hi")]), StreamOptions(), "AIzaSECRET"
    )
    assert "AIzaSECRET" not in spec.url and spec.url.endswith(":streamGenerateContent?alt=sse")
    assert spec.headers["x-goog-api-key"] == "AIzaSECRET"


def test_anthropic_budget_raises_max_tokens_and_drops_temperature() -> None:
    model = model_for("anthropic-messages", reasoning=True, max_tokens=64_000)
    options = StreamOptions(thinking_level="medium", temperature=0.5)
    body = (
        wire_api("anthropic-messages")
        .build_request(model, Context("", [UserMessage("hi")]), options, "k")
        .body
    )
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 8192}
    assert body["max_tokens"] == 32_000 + 8192
    assert "temperature" not in body
    off = (
        wire_api("anthropic-messages")
        .build_request(model, Context("", [UserMessage("hi")]), StreamOptions(temperature=0.5), "k")
        .body
    )
    assert "thinking" not in off and off["temperature"] == 0.5


def test_responses_cache_key_only_with_a_session() -> None:
    model = model_for("openai-responses")
    build = wire_api("openai-responses").build_request
    assert "prompt_cache_key" not in build(model, Context("", [UserMessage("hi")]), StreamOptions(), "k").body
    body = build(model, Context("", [UserMessage("hi")]), StreamOptions(session_id="s1"), "k").body
    assert body["prompt_cache_key"] == "s1" and body["store"] is False


def test_headers_from_model_and_options_reach_the_request_and_no_key_means_no_auth() -> None:
    model = model_for("openai-completions", headers={"x-model": "1"})
    spec = wire_api("openai-completions").build_request(
        model, Context("", [UserMessage("hi")]), StreamOptions(headers={"x-call": "2"}), None
    )
    assert spec.headers["x-model"] == "1" and spec.headers["x-call"] == "2"
    assert "authorization" not in spec.headers
