"""Session titles: a short name for a session, made after its first exchange.

``small_model`` picks the model that writes it: the current provider's small model when the
catalogue (or the user's models.json) has one, else that provider's cheapest model if it is
cheaper than the current one, else none. ``model_title`` asks it once (one short request, no
tools); ``title_from_prompt`` makes a title from the first prompt when there is no such model
or the request fails. ``clean_title`` turns a reply into one line a terminal title can show.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import aclosing

from tau_agent.cancellation import CancellationToken
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.provider import Context, ModelProvider, StreamOptions
from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_ai.model import Model

TITLE_CHARS = 50
EXCERPT_CHARS = 2_000
MAX_TOKENS = 64
SYSTEM_PROMPT = (
    "You name coding sessions. Reply with a title of at most six words that says what the user "
    "wants done: no quotes, no trailing punctuation, no explanation, nothing else."
)
# Each provider's small model, preferred first; the ids are the catalogue's.
SMALL_MODELS: dict[str, tuple[str, ...]] = {
    "anthropic": ("claude-haiku-4-5", "claude-3-5-haiku-latest"),
    "openai": ("gpt-4.1-mini", "gpt-4o-mini", "gpt-5-mini", "gpt-5-nano"),
    "google": ("gemini-2.5-flash-lite", "gemini-flash-lite-latest", "gemini-2.0-flash"),
    "mistral": ("mistral-small-latest",),
    "xai": ("grok-3-mini",),
}


class TitleError(Exception):
    """The title model failed, sent nothing usable, or was cancelled."""


def small_model(current: Model, available: Sequence[Model]) -> Model | None:
    """The model that titles a session on ``current``'s provider (see the module docstring)."""
    same = [m for m in available if m.provider == current.provider]
    for wanted in SMALL_MODELS.get(current.provider, ()):
        for model in (current, *same):
            if model.id == wanted:
                return model
    cheaper = [m for m in same if _price(m) < _price(current)]
    return min(cheaper, key=_price) if cheaper else None


def _price(model: Model) -> float:
    return model.cost.input + model.cost.output


def _words(text: str) -> str:
    return " ".join(text.split())


def _shorten(text: str, limit: int = TITLE_CHARS) -> str:
    """At most ``limit`` characters, cut at a word when one is near the end, marked with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,.;:-") + "…"


def title_from_prompt(prompt: str) -> str | None:
    """A title from the user's first prompt: its first line, whitespace collapsed, shortened;
    None when the prompt has no words (an image alone)."""
    for line in prompt.splitlines():
        words = _words("".join(ch for ch in line if ch.isprintable()))
        if words:
            return _shorten(words)
    return None


def clean_title(reply: str) -> str | None:
    """A model's reply as a title: the first non-empty line, without a ``Title:`` label,
    Markdown marks, quotes and a final full stop; None when nothing is left."""
    for line in reply.splitlines():
        text = re.sub(r"^\s*(#+|\*+|-)\s*", "", line)
        text = re.sub(r"^(session\s+)?title\s*:\s*", "", text.strip(), flags=re.IGNORECASE)
        text = _words("".join(ch for ch in text if ch.isprintable())).strip("\"'`*_“”‘’ ").rstrip(".")
        if text:
            return _shorten(text)
    return None


def title_request(prompt: str, answer: str) -> str:
    """What the title model is asked: the first prompt and the first answer, each cut short."""
    return (
        f"The user's first message:\n{prompt[:EXCERPT_CHARS]}\n\n"
        f"The assistant's first answer:\n{answer[:EXCERPT_CHARS]}\n\nTitle:"
    )


async def model_title(
    provider: ModelProvider, prompt: str, answer: str, signal: CancellationToken | None = None
) -> str:
    """Ask ``provider`` for a title (one request); raises ``TitleError`` saying why there is none."""
    token = signal or CancellationToken()
    context = Context(SYSTEM_PROMPT, [UserMessage(title_request(prompt, answer))])
    options = StreamOptions(signal=token, thinking_level="off", max_tokens=MAX_TOKENS)
    final: AssistantMessage | None = None
    async with aclosing(provider.stream(context, options)) as events:  # type: ignore[type-var]
        async for event in events:
            if isinstance(event, DoneEvent | ErrorEvent):
                final = event.message
    if final is None:
        raise TitleError("the title model sent no reply")
    if final.stop_reason in ("error", "aborted"):
        raise TitleError(f"the title model failed: {final.error_message or final.stop_reason}")
    title = clean_title(final.text)
    if title is None:
        raise TitleError("the title model sent an empty title")
    return title
