"""Per-host quirks of OpenAI-compatible Chat Completions servers, as data.

``resolve_compat(model)`` starts from OpenAI's own behaviour, applies what is known about the
host the base URL (or provider name) points at, then ``model.compat`` with Pi's flag names
(``supportsStore``, ``maxTokensField``, ...), so a models.json entry can correct any guess.
Unknown keys are ignored: a newer models.json may carry flags this version does not know.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from tau_ai.model import Model

ThinkingFormat: TypeAlias = Literal["openai", "openrouter", "zai", "qwen", "qwen-chat-template"]
MaxTokensField: TypeAlias = Literal["max_completion_tokens", "max_tokens"]


@dataclass(frozen=True, slots=True)
class Compat:
    """What a host accepts. Defaults are OpenAI's (api.openai.com)."""

    supports_store: bool = True
    supports_developer_role: bool = True
    supports_reasoning_effort: bool = True
    reasoning_effort_map: Mapping[str, str] = field(default_factory=dict)
    supports_usage_in_streaming: bool = True
    max_tokens_field: MaxTokensField = "max_completion_tokens"
    requires_tool_result_name: bool = False
    requires_assistant_after_tool_result: bool = False
    requires_thinking_as_text: bool = False
    thinking_format: ThinkingFormat = "openai"
    supports_strict_mode: bool = True
    api_key_header: Literal["authorization", "api-key"] = "authorization"
    routing: Mapping[str, Any] = field(default_factory=dict)  # OpenRouter's provider routing


# Hosts that speak Chat Completions but not OpenAI's newer extras (store, developer role).
_PLAIN = {
    "supports_store": False,
    "supports_developer_role": False,
    "max_tokens_field": "max_tokens",
}
_LOCAL = _PLAIN | {"supports_reasoning_effort": False, "supports_strict_mode": False}

# (match in base URL or provider name, overrides), first match wins.
_HOSTS: tuple[tuple[tuple[str, ...], Mapping[str, Any]], ...] = (
    (("api.openai.com",), {}),
    ((".openai.azure.com", "azure"), {"api_key_header": "api-key"}),
    (("openrouter.ai", "openrouter"), {"supports_store": False, "thinking_format": "openrouter"}),
    (("api.groq.com", "groq"), _PLAIN | {"max_tokens_field": "max_completion_tokens"}),
    (("api.deepseek.com", "deepseek"), _PLAIN | {"supports_reasoning_effort": False}),
    (("api.x.ai", "xai"), _PLAIN | {"supports_reasoning_effort": False}),
    (("api.cerebras.ai", "cerebras"), _PLAIN | {"max_tokens_field": "max_completion_tokens"}),
    (("api.together.xyz", "together"), _PLAIN | {"supports_reasoning_effort": False}),
    (("api.fireworks.ai", "fireworks"), _PLAIN | {"supports_reasoning_effort": False}),
    (
        ("api.z.ai", "open.bigmodel.cn", "zai"),
        _PLAIN | {"supports_reasoning_effort": False, "thinking_format": "zai"},
    ),
    (("huggingface.co", "huggingface"), _PLAIN | {"supports_reasoning_effort": False}),
    (
        ("api.moonshot.", "moonshotai", "moonshotai-cn"),
        _PLAIN | {"supports_reasoning_effort": False, "supports_strict_mode": False},
    ),
    (
        ("gateway.ai.cloudflare.com", "cloudflare-ai-gateway"),
        _PLAIN | {"supports_reasoning_effort": False, "supports_strict_mode": False},
    ),
    (
        ("api.cloudflare.com", "cloudflare-workers-ai"),
        _PLAIN | {"max_tokens_field": "max_completion_tokens"},
    ),
    (("opencode.ai", "opencode", "opencode-go"), _PLAIN | {"max_tokens_field": "max_completion_tokens"}),
    (("chutes.ai",), _PLAIN),
    (("githubcopilot.com", "github-copilot"), _PLAIN | {"supports_reasoning_effort": False}),
    (("api.mistral.ai", "mistral"), _PLAIN | {"requires_assistant_after_tool_result": True}),
    (("generativelanguage.googleapis.com",), _PLAIN),
    ((":11434", "ollama"), _LOCAL),
    ((":1234", "lmstudio", "lm-studio"), _LOCAL),
    ((":8000", "vllm"), _LOCAL | {"thinking_format": "qwen-chat-template"}),
    ((":8080", "llama.cpp", "llamacpp", "llama-cpp"), _LOCAL),
)

_PI_NAMES = {
    "supportsStore": "supports_store",
    "supportsDeveloperRole": "supports_developer_role",
    "supportsReasoningEffort": "supports_reasoning_effort",
    "reasoningEffortMap": "reasoning_effort_map",
    "supportsUsageInStreaming": "supports_usage_in_streaming",
    "maxTokensField": "max_tokens_field",
    "requiresToolResultName": "requires_tool_result_name",
    "requiresAssistantAfterToolResult": "requires_assistant_after_tool_result",
    "requiresThinkingAsText": "requires_thinking_as_text",
    "thinkingFormat": "thinking_format",
    "supportsStrictMode": "supports_strict_mode",
    "openRouterRouting": "routing",
}
_CHOICES = {
    "max_tokens_field": ("max_completion_tokens", "max_tokens"),
    "thinking_format": ("openai", "openrouter", "zai", "qwen", "qwen-chat-template"),
}


def host_record(base_url: str, provider: str = "") -> Mapping[str, Any] | None:
    """What Tau records about the host ``base_url`` (or ``provider``) points at: the overrides of
    OpenAI's behaviour (empty for OpenAI itself), or None for a host Tau has no record of."""
    url, name = base_url.lower(), provider.lower()
    for needles, overrides in _HOSTS:
        if any(needle in url or needle == name for needle in needles):
            return overrides
    return None


def detect_compat(base_url: str, provider: str = "") -> Compat:
    """The known quirks of the host ``base_url`` points at (OpenAI's defaults otherwise)."""
    overrides = host_record(base_url, provider)
    return dataclasses.replace(Compat(), **overrides) if overrides else Compat()


def resolve_compat(model: Model) -> Compat:
    """Detected quirks, then ``model.compat`` (Pi's camelCase names or Tau's snake_case)."""
    compat = detect_compat(model.base_url, model.provider)
    changes: dict[str, Any] = {}
    for key, value in model.compat.items():
        name = _PI_NAMES.get(key, key)
        if name not in Compat.__dataclass_fields__:
            continue
        default = getattr(compat, name)
        if isinstance(default, bool) and not isinstance(value, bool):
            continue
        if name in _CHOICES and value not in _CHOICES[name]:
            continue
        if isinstance(default, Mapping) and not isinstance(value, Mapping):
            continue
        changes[name] = value
    return dataclasses.replace(compat, **changes) if changes else compat
