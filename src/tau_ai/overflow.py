"""Did a reply fail because the context was too long? (pure)

The app compacts and retries when this says yes, so it must recognise each provider's own
wording and must not mistake a rate limit ("tokens per minute") for an overflow. Two kinds:

* loud: the reply ended with ``stop_reason == "error"`` and its ``error_message`` matches one
  of the providers' overflow wordings, or is a bare 400/413 with no body (Cerebras);
* silent: the reply "succeeded" but the input it was billed for (``input + cache_read``) is
  larger than the model's context window, so the provider must have truncated it.

Ollama truncates without saying so and without reporting it in usage; that case cannot be
seen from the reply.
"""

from __future__ import annotations

import functools
import re

from tau_agent.messages import AssistantMessage

# One wording per line; the comment names who says it.
_OVERFLOW_WORDINGS = "|".join(
    (
        r"prompt is too long",  # Anthropic: "prompt is too long: 208310 tokens > 200000 maximum"
        r"input is too long for (?:the )?requested model",  # Amazon Bedrock
        r"exceeds? the context window",  # OpenAI Responses
        r"input token count.{0,40}exceeds the maximum",  # Google Gemini
        r"maximum prompt length is \d+",  # xAI
        r"reduce the length of the messages",  # Groq, OpenAI-compatible servers
        r"maximum context length is \d+",  # OpenAI chat, OpenRouter, DeepSeek, vLLM
        r"exceeds the limit of \d+",  # GitHub Copilot
        r"exceeds the available context size",  # llama.cpp server
        r"greater than the context length",  # LM Studio
        r"context length of only \d+",  # LM Studio: "loaded with context length of only N tokens"
        r"n_keep \(\d+\) >= n_ctx",  # LM Studio / llama.cpp truncation refusal
        r"input length \d+ exceeds context length",  # LM Studio (older)
        r"input exceeds (?:the )?context length",  # Ollama
        r"prompt too long; exceeded (?:max )?context length",  # Ollama
        r"too long to fit into the model",  # vLLM: "The prompt (total length N) is too long ..."
        r"context window exceeds limit",  # MiniMax
        r"exceeded model token limit",  # Kimi
        r"too large for model with \d+ maximum context length",  # Mistral
        r"model_context_window_exceeded",  # Z.ai
        r"context[ _]length[ _]exceeded",  # OpenAI code, generic
        r"context[ _]window[ _]exceeded",  # generic
        r"too many tokens",  # generic
        r"token limit exceeded",  # generic
    )
)

# A 400 or 413 that came with no body at all: Cerebras answers an overflow this way.
_BARE_STATUS = r"\b(?:HTTP )?(?:400|413)\b[^:]*\(no body\)"

# Rate limits speak of tokens too; they are never overflows.
_RATE_LIMIT = r"rate.?limit|per min(?:ute)?\b|tokens per (?:minute|day|hour)|\bTPM\b|\bRPM\b|quota"


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Overflow, bare status and rate limit, compiled on first use: only a failed reply needs
    them, and compiling them cost every start a few milliseconds."""
    flags = re.IGNORECASE
    return (
        re.compile(_OVERFLOW_WORDINGS, flags),
        re.compile(_BARE_STATUS, flags),
        re.compile(_RATE_LIMIT, flags),
    )


def is_overflow_text(error_message: str) -> bool:
    """Whether an error message reads as a context overflow from any known provider."""
    overflow, bare_status, rate_limit = _patterns()
    if rate_limit.search(error_message):
        return False
    return bool(overflow.search(error_message) or bare_status.search(error_message))


# Overflow wordings that state the limit, each with the limit as its one group.
_STATED_LIMIT = "|".join(
    (
        r"maximum context length is (\d+)",  # OpenAI chat, OpenRouter, vLLM
        r"tokens? > (\d+) maximum",  # Anthropic
        r"maximum number of tokens allowed \((\d+)\)",  # Google Gemini
        r"maximum prompt length is (\d+)",  # xAI
        r"exceeds the limit of (\d+)",  # GitHub Copilot
        r"context length of only (\d+)",  # LM Studio
        r">= n_ctx \((\d+)\)",  # LM Studio / llama.cpp truncation refusal
        r"\(context length (\d+)\)",  # vLLM
        r"exceeded model token limit: (\d+)",  # Kimi
        r"with (\d+) maximum context length",  # Mistral
        r"\bn_ctx\"?\s*[=:]\s*(\d+)",  # llama.cpp server: its error body's "n_ctx": 4096
    )
)


def stated_context_limit(error_message: str) -> int | None:
    """The context window an overflow error states, in tokens, when its wording gives one
    ("maximum context length is 7500 tokens"). A local server's real window is often smaller
    than its models.json entry says; this lets the caller compact to the window that holds."""
    if not is_overflow_text(error_message):
        return None
    match = re.search(_STATED_LIMIT, error_message, re.IGNORECASE)
    if match is None:
        return None
    value = int(next(group for group in match.groups() if group is not None))
    return value if value > 0 else None


def is_context_overflow(message: AssistantMessage, context_window: int | None = None) -> bool:
    """True for a reply that failed, loudly or silently, because its context was too long."""
    if message.stop_reason == "error":
        return is_overflow_text(message.error_message or "")
    if message.stop_reason == "stop" and context_window:
        usage = message.usage
        return usage.input + usage.cache_read > context_window
    return False
